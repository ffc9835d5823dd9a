import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'x_shape': [(4, 3), (2, 3, 1)],
    'x_dtype': [numpy.float16, numpy.float32, numpy.float64],
    'W_dtype': [numpy.float32, numpy.float64],
    'ratio': [0., .6],
    'batchwise': [True, False],
    'bias': [True, False],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSimplifiedDropconnect(testing.FunctionTestCase):

    # float16: masked dot products of several float16 terms
    tolerances = {numpy.float16: (1e-2, 2e-2, 5e-2)}

    def setUp(self):
        n = self.x_shape[0]
        shape = ((n,) if self.batchwise else ()) + (2, 3)
        self.mask = numpy.random.rand(*shape) >= self.ratio
        self.check_backward_options = {'atol': 1e-3, 'rtol': 1e-3}
        self.check_double_backward_options = {'atol': 1e-2, 'rtol': 1e-2}

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.x_shape).astype(self.x_dtype)
        W = numpy.random.uniform(-1, 1, (2, 3)).astype(self.W_dtype)
        b = numpy.random.uniform(-1, 1, 2).astype(self.x_dtype)
        return (x, W, b) if self.bias else (x, W)

    def forward(self, inputs, device):
        x, W = inputs[:2]
        b = inputs[2] if self.bias else None
        return F.simplified_dropconnect(x, W, b, self.ratio, True, device.send(self.mask),
                                        self.batchwise),

    def forward_expected(self, inputs):
        x = inputs[0].reshape(self.x_shape[0], -1).astype(numpy.float64)
        W = inputs[1].astype(numpy.float64) * self.mask / (1 - self.ratio)
        y = numpy.stack([
            (W[i] if self.batchwise else W) @ x[i] for i in range(len(x))])
        if self.bias:
            y = y + inputs[2]
        return y.astype(self.x_dtype),


def test_drawn_mask_and_test_mode():
    x, W = numpy.random.rand(5, 3), numpy.random.rand(2, 3)
    y = F.simplified_dropconnect(x, W, ratio=.5)
    assert y.creator.mask.shape == (5, 2, 3) and y.creator.mask.dtype == bool
    y = F.simplified_dropconnect(x, W, ratio=.5, use_batchwise_mask=False)
    assert y.creator.mask.shape == (2, 3)
    y = F.simplified_dropconnect(x, W, ratio=.5, train=False)
    assert y.creator.mask.all()
    numpy.testing.assert_allclose(y.array, x @ W.T)


def test_bad_inputs():
    x, W, b = numpy.ones((4, 3), numpy.float32), numpy.ones((2, 3), numpy.float32), \
        numpy.ones(2, numpy.float32)
    for args in [(x, W[:, :2], b), (x.astype(numpy.int32), W, b), (x, W, b[:1]),
                 (x, W, b.astype(numpy.float64))]:
        with pytest.raises(type_check.InvalidType, match='SimplifiedDropconnect'):
            F.simplified_dropconnect(*args)
    with pytest.raises(ValueError, match=r'simplified_dropconnect: ratio'):
        F.simplified_dropconnect(x, W, b, 1.)
    with pytest.raises(type_check.InvalidType, match=r'simplified_dropconnect: mask .*\(4, 2, 3\)'):
        F.simplified_dropconnect(x, W, b, mask=numpy.ones((2, 3), bool))
