import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product_dict(
    [
        {'lengths': [3, 1, 2], 'trailing': (2,), 'length': None, 'padding': 0},
        {'lengths': [3, 1, 2], 'trailing': (), 'length': 5, 'padding': -1},
        {'lengths': [2, 2], 'trailing': (2, 3), 'length': None, 'padding': 1.5},
        {'lengths': [0, 2], 'trailing': (), 'length': None, 'padding': 0},
        {'lengths': [0, 0], 'trailing': (2,), 'length': None, 'padding': 0},
    ],
    testing.product({'dtype': [numpy.float16, numpy.float32, numpy.float64]}),
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestPadSequence(testing.FunctionTestCase):

    def generate_inputs(self):
        return tuple(numpy.random.uniform(-1, 1, (n,) + self.trailing).astype(self.dtype)
                     for n in self.lengths)

    def forward(self, inputs, device):
        return F.pad_sequence(inputs, self.length, self.padding),

    def forward_expected(self, inputs):
        length = max(self.lengths) if self.length is None else self.length
        y = numpy.full((len(inputs), length) + self.trailing, self.padding, self.dtype)
        for i, x in enumerate(inputs):
            y[i, :len(x)] = x
        return y,


def test_double_backprop_with_unused_sequence():
    a = chainer.Variable(numpy.ones((2,), numpy.float32))
    b = chainer.Variable(numpy.ones((1,), numpy.float32))
    gy = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    ga, gb = chainer.grad([F.pad_sequence([a, b])], [a, b], grad_outputs=[gy],
                          enable_double_backprop=True)
    F.sum(ga * 3).backward()
    numpy.testing.assert_array_equal(gy.grad, [[3, 3, 0], [0, 0, 0]])


@pytest.mark.parametrize('xs, length', [
    ([numpy.zeros((2, 3), 'f'), numpy.zeros((2, 4), 'f')], None),  # trailing shapes differ
    ([numpy.zeros((2,), 'f'), numpy.zeros((2,), 'd')], None),       # dtypes differ
    ([numpy.zeros((), 'f')], None),                                  # 0-d
    ([numpy.zeros((3,), 'f')], 2),                                   # too long
])
def test_invalid(xs, length):
    with pytest.raises(type_check.InvalidType, match='PadSequence'):
        F.pad_sequence(xs, length)


@pytest.mark.parametrize('dtype,padding,expected', [
    (numpy.uint8, -1, 255),     # wraps around as Chainer 7 did on NumPy 1
    (numpy.uint16, -1, 65535),
    (numpy.int8, 300, 44),
    (numpy.int32, 1.7, 1),
])
def test_integer_padding_is_cast_like_chainer(dtype, padding, expected):
    y = F.pad_sequence([numpy.ones(2, dtype), numpy.ones(1, dtype)], length=3,
                       padding=padding)
    assert y.dtype == dtype
    numpy.testing.assert_array_equal(y.array, [[1, 1, expected], [1, expected, expected]])


def test_nan_padding_of_integers_is_refused():
    with pytest.raises(ValueError):
        F.pad_sequence([numpy.ones(2, numpy.int32)], length=3, padding=float('nan'))
