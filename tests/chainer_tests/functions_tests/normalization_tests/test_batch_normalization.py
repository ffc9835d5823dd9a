import warnings

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.functions.normalization import batch_normalization as bn_module
from chainer.utils import type_check

_F16 = numpy.float16


def _axes(x_ndim, param_ndim, axis):
    if axis is None:
        return (0,) + tuple(range(1 + param_ndim, x_ndim))
    return (axis,) if isinstance(axis, int) else axis


def _textbook(x, gamma, beta, mean, var, eps, axes):
    """gamma * (x - mean) / sqrt(var + eps) + beta, in float64."""
    shape = [1 if i in axes else s for i, s in enumerate(x.shape)]
    p = [numpy.asarray(a, numpy.float64).reshape(shape) for a in (gamma, beta, mean, var)]
    return p[0] * (x.astype(numpy.float64) - p[2]) / numpy.sqrt(p[3] + eps) + p[1]


_LAYOUTS = [
    {'shape': (5, 3), 'param_shape': (3,), 'axis': None},
    {'shape': (4, 3, 2, 3), 'param_shape': (3,), 'axis': None},
    {'shape': (3, 3, 4, 2), 'param_shape': (3, 4), 'axis': None},
    {'shape': (2, 4, 3), 'param_shape': (4,), 'axis': (0, 2)},
    {'shape': (5, 4), 'param_shape': (5,), 'axis': 1},
    {'shape': (1, 3, 2, 1), 'param_shape': (3,), 'axis': None},   # batch 1, a size-1 axis
]
_DTYPES = [
    {'dtype': numpy.float16, 'param_dtype': numpy.float16},
    {'dtype': numpy.float16, 'param_dtype': numpy.float32},
    {'dtype': numpy.float32, 'param_dtype': numpy.float32},
    {'dtype': numpy.float32, 'param_dtype': numpy.float64},
    {'dtype': numpy.float64, 'param_dtype': numpy.float64},
]


class _Tolerances:

    def setUp(self):
        if _F16 in (self.dtype, self.param_dtype):
            self.check_forward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_backward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_double_backward_options = {'atol': 5e-2, 'rtol': 5e-2}
        else:
            self.check_backward_options = {'atol': 1e-4, 'rtol': 1e-3}
            self.check_double_backward_options = {'atol': 1e-3, 'rtol': 1e-2}

    def _params(self, *ranges):
        return tuple(numpy.random.uniform(lo, hi, self.param_shape).astype(self.param_dtype)
                     for lo, hi in ranges)


@testing.parameterize(*testing.product_dict(_LAYOUTS, _DTYPES, [{'eps': 2e-5}, {'eps': 0.5}]))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestBatchNormalization(_Tolerances, testing.FunctionTestCase):

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        return (x,) + self._params((.5, 1), (-1, 1))

    def forward(self, inputs, device):
        return F.batch_normalization(*inputs, eps=self.eps, axis=self.axis),

    def forward_expected(self, inputs):
        x, gamma, beta = inputs
        axes = _axes(x.ndim, gamma.ndim, self.axis)
        x64 = x.astype(numpy.float64)
        y = _textbook(x, gamma, beta, x64.mean(axis=axes), x64.var(axis=axes), self.eps, axes)
        return y.astype(self.dtype),


@testing.parameterize(*testing.product_dict(_LAYOUTS, _DTYPES))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestFixedBatchNormalization(_Tolerances, testing.FunctionTestCase):

    eps = 2e-5

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        return (x,) + self._params((.5, 1), (-1, 1), (-1, 1), (.5, 1))

    def forward(self, inputs, device):
        return F.fixed_batch_normalization(*inputs, eps=self.eps, axis=self.axis),

    def forward_expected(self, inputs):
        x, gamma = inputs[:2]
        axes = _axes(x.ndim, gamma.ndim, self.axis)
        return _textbook(*inputs, self.eps, axes).astype(self.dtype),


@pytest.mark.parametrize('dtype, param_dtype', [
    (numpy.float32, numpy.float32), (numpy.float64, numpy.float64), (_F16, numpy.float32)])
def test_running_statistics_are_updated_in_place_by_chainers_formula(dtype, param_dtype):
    x = numpy.random.uniform(-1, 1, (4, 3, 5)).astype(dtype)
    gamma, beta = numpy.ones(3, param_dtype), numpy.zeros(3, param_dtype)
    mean0 = numpy.random.uniform(-1, 1, 3).astype(param_dtype)
    var0 = numpy.random.uniform(.5, 1, 3).astype(param_dtype)
    running_mean, running_var = mean0.copy(), var0.copy()
    decay = 0.7
    F.batch_normalization(x, gamma, beta, running_mean=running_mean, running_var=running_var,
                          decay=decay)
    x64 = x.astype(numpy.float64)
    m = 4 * 5
    mean = x64.mean(axis=(0, 2))
    unbiased = x64.var(axis=(0, 2)) * m / (m - 1)
    tol = {'rtol': 1e-3, 'atol': 1e-3} if dtype == _F16 else {'rtol': 1e-6}
    numpy.testing.assert_allclose(running_mean, decay * mean0 + (1 - decay) * mean, **tol)
    numpy.testing.assert_allclose(running_var, decay * var0 + (1 - decay) * unbiased, **tol)
    assert running_mean.dtype == param_dtype


def test_running_mean_alone_is_updated():
    x = numpy.random.uniform(-1, 1, (4, 2)).astype(numpy.float32)
    running_mean = numpy.zeros(2, numpy.float32)
    F.batch_normalization(x, numpy.ones(2, numpy.float32), numpy.zeros(2, numpy.float32),
                          running_mean=running_mean, decay=0.)
    numpy.testing.assert_allclose(running_mean, x.mean(axis=0), rtol=1e-6)


def test_output_does_not_depend_on_config_train():
    args = (numpy.random.uniform(-1, 1, (4, 3)).astype(numpy.float32),
            numpy.ones(3, numpy.float32), numpy.zeros(3, numpy.float32))
    y1 = F.batch_normalization(*args).array
    with chainer.using_config('train', False):
        y2 = F.batch_normalization(*args).array
    numpy.testing.assert_array_equal(y1, y2)


def test_single_value_per_channel_warns():
    x = numpy.ones((1, 3), numpy.float32)
    with pytest.warns(UserWarning, match='batch_normalization'):
        F.batch_normalization(x, numpy.ones(3, numpy.float32), numpy.zeros(3, numpy.float32))
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        F.batch_normalization(numpy.ones((1, 3, 2), numpy.float32),
                              numpy.ones(3, numpy.float32), numpy.zeros(3, numpy.float32))


def test_backward_is_a_differentiable_grad_node():
    x = chainer.Variable(numpy.random.uniform(-1, 1, (4, 3)))
    gamma = chainer.Variable(numpy.ones(3))
    y = F.batch_normalization(x, gamma, chainer.Variable(numpy.zeros(3)))
    assert type(y.creator) is bn_module.BatchNormalization
    gx, = chainer.grad([y], [x], [chainer.Variable(numpy.random.rand(4, 3))],
                       enable_double_backprop=True)
    assert type(gx.creator) is bn_module.BatchNormalizationGrad


def test_kwargs():
    x = numpy.ones((2, 3), numpy.float32)
    g, b = numpy.ones(3, numpy.float32), numpy.zeros(3, numpy.float32)
    with pytest.raises(ValueError, match='using_config'):
        F.batch_normalization(x, g, b, train=True)
    with pytest.raises(TypeError, match='unexpected'):
        F.batch_normalization(x, g, b, foo=1)


_X = numpy.ones((4, 3, 2), numpy.float32)
_G = numpy.ones(3, numpy.float32)


@pytest.mark.parametrize('args, kwargs', [
    ((_X.astype(numpy.int32), _G, _G), {}),
    ((_X, numpy.ones(4, numpy.float32), numpy.ones(4, numpy.float32)), {}),
    ((_X, _G, numpy.ones(4, numpy.float32)), {}),
    ((_X, _G, _G.astype(numpy.float64)), {}),
    ((_X[0, 0], _G, _G), {}),
    ((_X, _G, _G), {'axis': 1}),
    ((_X, _G, _G), {'axis': 5}),
])
def test_invalid_inputs(args, kwargs):
    with pytest.raises(type_check.InvalidType, match='BatchNormalization'):
        F.batch_normalization(*args, **kwargs)


def test_fixed_invalid_inputs():
    with pytest.raises(type_check.InvalidType, match='FixedBatchNormalization'):
        F.fixed_batch_normalization(_X, _G, _G, _G, _G.astype(numpy.float64))


def test_module_paths():
    assert F.batch_normalization.__module__ == bn_module.__name__
    assert bn_module.__name__ == 'chainer.functions.normalization.batch_normalization'
    assert F.fixed_batch_normalization(_X, _G, _G, _G, _G).creator.__class__.__name__ == \
        'FixedBatchNormalization'
