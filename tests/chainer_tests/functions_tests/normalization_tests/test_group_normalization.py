import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


def _group_norm(x, groups, gamma, beta, eps):
    n, c = x.shape[:2]
    g = x.astype(numpy.float64).reshape(n, groups, -1)
    g = (g - g.mean(axis=2, keepdims=True)) / numpy.sqrt(g.var(axis=2, keepdims=True) + eps)
    shape = (1, c) + (1,) * (x.ndim - 2)
    return g.reshape(x.shape) * gamma.reshape(shape) + beta.reshape(shape)


@testing.parameterize(*testing.product({
    'shape_groups': [((2, 4, 5, 3), 2), ((3, 6, 4), 3), ((4, 6), 1), ((1, 4, 1, 2), 4),
                     ((2, 6), 6)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'eps': [1e-5, 1e-1],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestGroupNormalization(testing.FunctionTestCase):

    # float16: mean and variance are float16 sums; the gradient subtracts them
    tolerances = {numpy.float16: (1e-2, 2e-2, 5e-2)}

    def setUp(self):
        self.shape, self.groups = self.shape_groups
        self.check_backward_options = {'atol': 1e-3, 'rtol': 1e-2}
        self.check_double_backward_options = {'atol': 1e-3, 'rtol': 1e-2}
        if self.shape[1] == self.groups and self.shape[2:] == ():
            # One value per group: the output is beta whatever x is; with eps the
            # gradient in x is 0 and the checks still hold.
            pass

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        c = self.shape[1]
        gamma = numpy.random.uniform(-1, 1, c).astype(self.dtype)
        beta = numpy.random.uniform(-1, 1, c).astype(self.dtype)
        return x, gamma, beta

    def forward(self, inputs, device):
        x, gamma, beta = inputs
        return F.group_normalization(x, self.groups, gamma, beta, eps=self.eps),

    def forward_expected(self, inputs):
        x, gamma, beta = inputs
        return _group_norm(x, self.groups, gamma, beta, self.eps).astype(self.dtype),


def test_mixed_parameter_dtype():
    x = numpy.random.uniform(-1, 1, (2, 4, 3)).astype(numpy.float16)
    gamma, beta = numpy.ones(4), numpy.zeros(4)
    y = F.group_normalization(x, 2, gamma, beta)
    assert y.dtype == numpy.float16
    numpy.testing.assert_allclose(y.array, _group_norm(x, 2, gamma, beta, 1e-5), atol=1e-2)


_X = numpy.ones((2, 4, 3), numpy.float32)
_G = numpy.ones(4, numpy.float32)


def test_groups_not_dividing_channels():
    with pytest.raises(ValueError, match=r'group_normalization: .* 4 .* groups=3'):
        F.group_normalization(_X, 3, _G, _G)


@pytest.mark.parametrize('groups, error', [(2.0, TypeError), (0, ValueError)])
def test_bad_groups(groups, error):
    with pytest.raises(error, match='groups'):
        F.group_normalization(_X, groups, _G, _G)


@pytest.mark.parametrize('args', [
    (_X.astype(numpy.int32), 2, _G, _G),
    (_X, 2, numpy.ones(3, numpy.float32), _G),
    (_X, 2, _G, _G.astype(numpy.float64)),
    (_X[0, :, 0], 2, _G, _G),
])
def test_invalid_inputs(args):
    with pytest.raises((type_check.InvalidType, ValueError), match='GroupNormalization|group'):
        F.group_normalization(*args)
