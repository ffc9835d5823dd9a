import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape': [(3, 4), (), (2, 1, 3)],
    'ratio': [0., .4, 1.],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestZoneout(testing.FunctionTestCase):
    # The flags are drawn from NumPy's generator, reseeded before each call.

    seed = 5

    def before_test(self, test_name):
        if self.backend_config.use_cuda:
            raise __import__('unittest').SkipTest('the flags are drawn on the device')

    def generate_inputs(self):
        h = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        x = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        return h, x

    def forward(self, inputs, device):
        numpy.random.seed(self.seed)
        return F.zoneout(*inputs, ratio=self.ratio),

    def forward_expected(self, inputs):
        h, x = inputs
        numpy.random.seed(self.seed)
        keep_h = numpy.random.random_sample(self.shape) < self.ratio
        return numpy.where(keep_h, h, x),


def test_not_training_returns_x():
    h, x = numpy.zeros(3, numpy.float32), numpy.ones(3, numpy.float32)
    with chainer.using_config('train', False):
        assert F.zoneout(h, x) is x


def test_gradients_follow_the_flags():
    h = chainer.Variable(numpy.zeros((20, 20), numpy.float32))
    x = chainer.Variable(numpy.ones((20, 20), numpy.float32))
    y = F.zoneout(h, x, .5)
    y.grad = numpy.ones_like(y.array)
    y.backward()
    numpy.testing.assert_array_equal(h.grad, y.creator.flag_h)
    numpy.testing.assert_array_equal(x.grad, y.array)


def test_bad_inputs():
    x = numpy.ones((2, 3), numpy.float32)
    with pytest.raises(type_check.InvalidType, match='Zoneout'):
        F.zoneout(x, x[:1])
    with pytest.raises(ValueError, match='using_config'):
        F.zoneout(x, x, train=True)
