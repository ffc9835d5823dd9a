import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.functions.connection import embed_id
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    # (ids, W rows, ignore_label)
    'case': [([0, 1, 2], 4, None), ([[3, 1], [1, 1]], 4, None), ([0, -1, 2, -1], 3, -1),
             ([[2, 0, 2]], 3, 2), (1, 3, None)],
    'w_dtype': [numpy.float16, numpy.float32, numpy.float64],
    'x_dtype': [numpy.int32],
}) + testing.product({
    'case': [([0, 1, 0], 2, 0)],
    'w_dtype': [numpy.float32],
    'x_dtype': [numpy.int8, numpy.int64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestEmbedID(testing.FunctionTestCase):

    # float16: gradients of repeated ids are float16 sums
    tolerances = {numpy.float16: (None, 1e-2, 1e-2)}

    def generate_inputs(self):
        ids, n, _ = self.case
        return (numpy.array(ids, self.x_dtype),
                numpy.random.uniform(-1, 1, (n, 3)).astype(self.w_dtype))

    def forward(self, inputs, device):
        x, W = inputs
        return F.embed_id(x, W, ignore_label=self.case[2]),

    def forward_expected(self, inputs):
        x, W = inputs
        ignore = self.case[2]
        y = W[numpy.where(x == ignore, 0, x) if ignore is not None else x]
        if ignore is not None:
            y[x == ignore] = 0
        return y,


def test_repeated_ids_accumulate_gradient():
    W = chainer.Variable(numpy.zeros((3, 2), numpy.float32))
    F.sum(F.embed_id(numpy.array([1, 1, 2, 1], numpy.int32), W)).backward()
    numpy.testing.assert_array_equal(W.grad, [[0, 0], [3, 3], [1, 1]])


def test_ignored_ids_get_no_gradient():
    W = chainer.Variable(numpy.ones((3, 2), numpy.float32))
    y = F.embed_id(numpy.array([0, -1], numpy.int32), W, ignore_label=-1)
    numpy.testing.assert_array_equal(y.array, [[1, 1], [0, 0]])
    F.sum(y).backward()
    numpy.testing.assert_array_equal(W.grad, [[1, 1], [0, 0], [0, 0]])


def test_out_of_range_id_in_debug_mode():
    with chainer.using_config('debug', True), pytest.raises(ValueError, match='len\\(W\\)'):
        F.embed_id(numpy.array([0, 5], numpy.int32), numpy.ones((3, 2), numpy.float32))


@pytest.mark.parametrize('x, W', [
    (numpy.zeros(3, numpy.float32), numpy.zeros((4, 2), numpy.float32)),
    (numpy.zeros(3, numpy.int32), numpy.zeros(4, numpy.float32)),
    (numpy.zeros(3, numpy.int32), numpy.zeros((4, 2), numpy.int32)),
])
def test_bad_inputs(x, W):
    with pytest.raises(type_check.InvalidType, match='EmbedIDFunction'):
        F.embed_id(x, W)


def test_module_path():
    assert F.embed_id.__module__ == 'chainer.functions.connection.embed_id'
    assert F.EmbedIDFunction is embed_id.EmbedIDFunction
