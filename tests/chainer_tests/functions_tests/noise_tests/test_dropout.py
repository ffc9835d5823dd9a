import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape': [(3, 4), (), (2, 1, 3)],
    'ratio': [0., .3, .9],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestDropout(testing.FunctionTestCase):
    # The mask is drawn once per test and given to F.dropout, so that every call
    # (forward, numerical gradient) drops the same elements.

    def setUp(self):
        keep = numpy.random.random_sample(self.shape) >= self.ratio
        self.mask = (keep / (1 - self.ratio)).astype(self.dtype)

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.dropout(inputs[0], self.ratio, mask=device.send(self.mask)),

    def forward_expected(self, inputs):
        return (inputs[0] * self.mask).astype(self.dtype),


def test_drawn_mask_keeps_the_ratio_and_scales():
    numpy.random.seed(0)
    x = numpy.ones((200, 100), numpy.float32)
    y, mask = F.dropout(x, .3, return_mask=True)
    assert mask.dtype == numpy.float32 and mask.shape == x.shape
    assert set(numpy.unique(mask)) == {0, numpy.float32(1 / .7)}
    numpy.testing.assert_array_equal(y.array, x * mask)
    assert abs((mask == 0).mean() - .3) < .02


def test_gradient_uses_the_same_mask():
    x = chainer.Variable(numpy.random.uniform(-1, 1, (4, 5)))
    y, mask = F.dropout(x, .5, return_mask=True)
    y.grad = numpy.ones((4, 5))
    y.backward()
    numpy.testing.assert_array_equal(x.grad, mask)


def test_not_training_returns_x():
    x = numpy.random.uniform(-1, 1, (3, 2)).astype(numpy.float32)
    with chainer.using_config('train', False):
        y, mask = F.dropout(x, .5, return_mask=True)
        assert mask is None
        assert isinstance(y, chainer.Variable) and y.creator is None
        numpy.testing.assert_array_equal(y.array, x)
        assert isinstance(F.dropout(x), chainer.Variable)


@pytest.mark.parametrize('ratio', [1., -.1, 1.5])
def test_bad_ratio(ratio):
    with pytest.raises(ValueError, match=r'dropout: .*\[0, 1\)'):
        F.dropout(numpy.ones(3, numpy.float32), ratio)


def test_bad_arguments():
    x = numpy.ones((2, 3), numpy.float32)
    with pytest.raises(ValueError, match='using_config'):
        F.dropout(x, train=True)
    with pytest.raises(TypeError, match='unexpected'):
        F.dropout(x, foo=1)
    with pytest.raises(type_check.InvalidType, match='Dropout'):
        F.dropout(x.astype(numpy.int32))
    with pytest.raises(ValueError, match=r'dropout: mask .*\(2, 3\)'):
        F.dropout(x, mask=numpy.ones((3, 3), numpy.float32))
