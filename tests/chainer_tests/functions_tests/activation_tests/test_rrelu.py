import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape': [(3, 2), (), (0, 3)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestRReLU(testing.FunctionTestCase):
    # The slopes are drawn here and passed as ``r`` so that every call of the
    # function under test (forward, numerical gradients...) uses the same ones.

    dodge_nondifferentiable = True     # the kink at 0

    def setUp(self):
        self.r = numpy.random.uniform(1 / 8, 1 / 3, self.shape).astype(self.dtype)

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.shape)
        return x.astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        # numerical gradients run in float64: r follows the input's dtype
        return F.rrelu(x, r=device.send(self.r.astype(x.dtype))),

    def forward_expected(self, inputs):
        x, = inputs
        return numpy.where(x >= 0, x, x * self.r).astype(self.dtype),


def test_training_draws_slopes_in_range():
    x = -numpy.ones((100, 10), numpy.float32)
    with chainer.using_config('train', True):
        y, r = F.rrelu(x, l=0.2, u=0.3, return_r=True)
    assert r.shape == x.shape and r.dtype == x.dtype
    assert (r >= 0.2).all() and (r <= 0.3).all() and r.std() > 0
    numpy.testing.assert_allclose(y.array, -r)


def test_test_mode_uses_the_mean_slope():
    x = numpy.array([[-2., 3.]], numpy.float32)
    with chainer.using_config('train', False):
        y, r = F.rrelu(x, l=0.1, u=0.3, return_r=True)
    numpy.testing.assert_allclose(r, [[0.2, 0.2]])
    numpy.testing.assert_allclose(y.array, [[-0.4, 3.]])


def test_test_mode_ignores_a_given_r():
    x = numpy.array([-1., -2., 3.], numpy.float32)
    r = numpy.array([0.5, 0.6, 0.7], numpy.float32)
    with chainer.using_config('train', False):
        y, r_used = F.rrelu(x, l=0.1, u=0.3, r=r, return_r=True)
    numpy.testing.assert_allclose(y.array, [-0.2, -0.4, 3.])
    numpy.testing.assert_allclose(r_used, [0.2, 0.2, 0.2])


def test_given_r_is_reused():
    x = numpy.random.uniform(-1, 1, (4, 3)).astype(numpy.float32)
    y1, r = F.rrelu(x, return_r=True)
    y2 = F.rrelu(x, r=r)
    numpy.testing.assert_array_equal(y1.array, y2.array)


def test_return_r_false_returns_a_variable():
    assert isinstance(F.rrelu(numpy.ones(2, numpy.float32)), chainer.Variable)


@pytest.mark.parametrize('l, u', [(-0.1, 0.3), (0.1, 1.0), (0.3, 0.2), (0.2, 0.2)])
def test_invalid_bounds(l, u):  # noqa: E741 (Chainer's argument name)
    with pytest.raises(ValueError):
        F.rrelu(numpy.ones(2, numpy.float32), l, u)


@pytest.mark.parametrize('x, r', [
    (numpy.ones(3, numpy.int32), None),
    (numpy.ones(3, numpy.float32), numpy.ones(2, numpy.float32)),
    (numpy.ones(3, numpy.float32), numpy.ones(3, numpy.float64)),
])
def test_invalid_inputs(x, r):
    with pytest.raises(type_check.InvalidType, match='RReLU'):
        F.rrelu(x, r=r)
