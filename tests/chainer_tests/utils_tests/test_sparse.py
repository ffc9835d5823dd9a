import numpy
import pytest

import chainer
from chainer import testing
from chainer import utils


def _random_sparse(shape):
    x = numpy.random.uniform(-1, 1, shape).astype(numpy.float32)
    x[numpy.random.uniform(0, 1, shape) > 0.5] = 0
    return x


def test_to_coo_example():
    x = utils.to_coo(numpy.array([[0, 2, 0], [-1, 0, 0]], numpy.float32))
    assert isinstance(x, utils.CooMatrix)
    assert isinstance(x.data, chainer.Variable)
    numpy.testing.assert_array_equal(x.data.array, [2, -1])
    numpy.testing.assert_array_equal(x.row, [0, 1])
    numpy.testing.assert_array_equal(x.col, [1, 0])
    assert x.row.dtype == x.col.dtype == numpy.int32
    assert x.shape == (2, 3)
    assert x.order == 'C'
    assert not x.data.requires_grad


@pytest.mark.parametrize('shape', [(3, 4), (2, 3, 4), (3, 1, 5)])
@pytest.mark.parametrize('ldnz', [None, 20])
def test_round_trip(shape, ldnz):
    dense = _random_sparse(shape)
    x = utils.to_coo(dense, ldnz=ldnz, requires_grad=True)
    assert x.data.requires_grad
    nnz = (dense != 0).reshape(-1, shape[-2] * shape[-1]).sum(axis=1).max()
    assert x.data.shape[-1] == max(nnz, ldnz or 0)
    numpy.testing.assert_array_equal(x.to_dense(), dense)
    # padding slots have both indices -1 and no value
    pad = x.row < 0
    assert (x.col[pad] < 0).all()
    assert (x.data.array[pad] == 0).all()


def test_to_dense_adds_duplicates():
    x = utils.CooMatrix(numpy.array([1., 2., 5.], numpy.float32), numpy.array([0, 0, 1]),
                        numpy.array([1, 1, 0]), (2, 2))
    numpy.testing.assert_array_equal(x.to_dense(), [[0, 3], [5, 0]])


@testing.parameterize(
    {'row': [0, 0, 1, 2], 'col': [0, 2, 1, 0], 'order': 'C'},
    {'row': [0, 1, 0, 2], 'col': [0, 0, 1, 2], 'order': 'F'},
    {'row': [0, 1, 2], 'col': [0, 1, 2], 'order': 'C'},      # sorted both ways: C wins
    {'row': [0, 0, 1], 'col': [2, 1, 0], 'order': 'other'},  # rows sorted, not columns
    {'row': [0, 2, -1], 'col': [1, 0, -1], 'order': 'C'},    # padding is ignored
    {'row': [[0, 1], [1, 0]], 'col': [[0, 0], [0, 1]], 'order': 'F'},  # each batch row
    {'row': [[0, 1], [1, 0]], 'col': [[1, 0], [1, 0]], 'order': 'other'},
    {'row': [5], 'col': [3], 'order': 'C'},
)
class TestGetOrder:

    def test_get_order(self):
        row = numpy.array(self.row, numpy.int32)
        col = numpy.array(self.col, numpy.int32)
        assert utils.get_order(row, col) == self.order
        data = numpy.ones(row.shape, numpy.float32)
        assert utils.CooMatrix(data, row, col, (6, 6)).order == self.order


def test_get_order_errors():
    with pytest.raises(ValueError):
        utils.get_order(numpy.array([0, 1]), numpy.array([0]))
    with pytest.raises(ValueError):
        utils.get_order(numpy.array([0, -1]), numpy.array([0, 1]))


def test_constructor_errors():
    d = numpy.ones(2, numpy.float32)
    i = numpy.zeros(2, numpy.int32)
    with pytest.raises(ValueError):
        utils.CooMatrix(numpy.ones((1, 1, 2), numpy.float32), i, i, (2, 2))
    with pytest.raises(ValueError):
        utils.CooMatrix(d, i.reshape(1, 2), i, (2, 2))
    with pytest.raises(ValueError):
        utils.CooMatrix(d, i, i, (2, 2, 2))
    with pytest.raises(ValueError):
        utils.CooMatrix(d, i, i, (0, 2))
    with pytest.raises(ValueError):
        utils.CooMatrix(d, i, i, (2, 2), order='X')
    with pytest.raises(ValueError):
        utils.to_coo(numpy.ones(3, numpy.float32))


def test_order_is_kept_when_given():
    i = numpy.array([1, 0], numpy.int32)
    x = utils.CooMatrix(numpy.ones(2, numpy.float32), i, i, (2, 2), order='other')
    assert x.order == 'other'
