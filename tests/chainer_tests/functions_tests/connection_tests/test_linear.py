import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.functions.connection import linear
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*(
    testing.product({
        # (x shape, n_batch_axes, in_size)
        'case': [((4, 3), 1, 3), ((4, 2, 3), 1, 6), ((4, 2, 3), 2, 3), ((0, 3), 1, 3)],
        'x_dtype': [numpy.float32],
        'W_dtype': [numpy.float32],
        'nobias': [False, True],
    })
    + testing.product({
        'case': [((4, 3), 1, 3)],
        'x_dtype': [numpy.float16, numpy.float64],
        'W_dtype': [numpy.float16, numpy.float32, numpy.float64],
        'nobias': [False],
    })
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestLinear(testing.FunctionTestCase):

    # float16 (x or W): dot products of several float16 terms; the gradients too
    tolerances = {numpy.float16: (5e-3, 5e-2, 5e-2)}

    def generate_inputs(self):
        x_shape, _, in_size = self.case
        x = numpy.random.uniform(-1, 1, x_shape).astype(self.x_dtype)
        W = numpy.random.uniform(-1, 1, (2, in_size)).astype(self.W_dtype)
        if self.nobias:
            return x, W
        return x, W, numpy.random.uniform(-1, 1, 2).astype(self.x_dtype)

    def forward(self, inputs, device):
        x, W = inputs[:2]
        b = None if self.nobias else inputs[2]
        return F.linear(x, W, b, n_batch_axes=self.case[1]),

    def forward_expected(self, inputs):
        x, W = inputs[:2]
        n = self.case[1]
        batch = x.shape[:n]
        y = x.reshape(int(numpy.prod(batch)), W.shape[1]).astype(numpy.float64) @ W.T.astype(
            numpy.float64)
        if not self.nobias:
            y += inputs[2]
        return y.reshape(batch + (2,)).astype(self.x_dtype),


def test_output_dtype_is_x_dtype():
    y = F.linear(numpy.ones((2, 3), numpy.float16), numpy.ones((4, 3), numpy.float64))
    assert y.dtype == numpy.float16 and y.shape == (2, 4)


def test_weight_gradient_has_weight_dtype():
    W = chainer.Variable(numpy.ones((4, 3), numpy.float64))
    F.sum(F.linear(numpy.ones((2, 3), numpy.float32), W)).backward()
    assert W.grad.dtype == numpy.float64
    numpy.testing.assert_allclose(W.grad, numpy.full((4, 3), 2.0))


@pytest.mark.parametrize('n_batch_axes', [0, -1])
def test_n_batch_axes_must_be_positive(n_batch_axes):
    with pytest.raises(ValueError, match='n_batch_axes'):
        F.linear(numpy.ones((2, 3), numpy.float32), numpy.ones((4, 3), numpy.float32),
                 n_batch_axes=n_batch_axes)


@pytest.mark.parametrize('args, expect', [
    (((2, 3), 'f', (4, 2), 'f', None), 'x.shape[1] == W.shape[1]'),
    (((2, 3), 'i', (4, 3), 'f', None), 'x.dtype.kind == f'),
    (((2, 3), 'f', (4, 3), 'f', ((3,), 'f')), 'b.shape[0] == W.shape[0]'),
    (((2, 3), 'f', (4, 3), 'f', ((4,), 'd')), 'b.dtype == x.dtype'),
])
def test_bad_inputs(args, expect):
    x_shape, x_dtype, w_shape, w_dtype, b = args
    inputs = [numpy.zeros(x_shape, x_dtype), numpy.zeros(w_shape, w_dtype)]
    if b is not None:
        inputs.append(numpy.zeros(*b))
    with pytest.raises(type_check.InvalidType) as e:
        F.linear(*inputs)
    assert 'LinearFunction (Forward)' in str(e.value) and expect in str(e.value)


def test_module_path():
    assert F.linear is linear.linear
    assert F.linear.__module__ == 'chainer.functions.connection.linear'
    assert F.LinearFunction is linear.LinearFunction
