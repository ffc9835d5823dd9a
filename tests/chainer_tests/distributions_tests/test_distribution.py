"""The Distribution base class, the KL registry, parameter handling and module paths."""
import importlib
import warnings

import numpy
import pytest

import chainer
from chainer import distribution
from chainer import distributions as D

_F32 = numpy.float32

_MODULES = {
    'Bernoulli': 'bernoulli', 'Beta': 'beta', 'Categorical': 'categorical', 'Cauchy': 'cauchy',
    'Chisquare': 'chisquare', 'Dirichlet': 'dirichlet', 'Exponential': 'exponential',
    'Gamma': 'gamma', 'Geometric': 'geometric', 'Gumbel': 'gumbel',
    'Independent': 'independent', 'Laplace': 'laplace', 'LogNormal': 'log_normal',
    'MultivariateNormal': 'multivariate_normal', 'Normal': 'normal',
    'OneHotCategorical': 'one_hot_categorical', 'Pareto': 'pareto', 'Poisson': 'poisson',
    'Uniform': 'uniform',
}


@pytest.mark.parametrize('name', sorted(_MODULES))
def test_module_paths(name):
    cls = getattr(D, name)
    assert cls.__module__ == f'chainer.distributions.{_MODULES[name]}'
    assert getattr(importlib.import_module(cls.__module__), name) is cls
    assert issubclass(cls, chainer.Distribution)


def test_top_level_names():
    assert chainer.Distribution is distribution.Distribution
    assert chainer.kl_divergence is distribution.kl_divergence
    assert chainer.register_kl is distribution.register_kl
    assert chainer.cross_entropy is distribution.cross_entropy
    assert chainer.testing.distribution_unittest.__module__ == 'chainer.testing._distribution_test'


class _Counting(chainer.Distribution):
    # Defines only the primitives; the base class derives the rest.
    batch_shape = (2,)
    event_shape = ()

    def __init__(self):
        self.calls = []
        self.x = chainer.Variable(numpy.array([0.25, 0.5], _F32))

    @property
    def params(self):
        return {'x': self.x}

    @property
    def variance(self):
        return self.x * 4

    def log_prob(self, x):
        return chainer.functions.log(chainer.as_variable(x))

    def cdf(self, x):
        return chainer.as_variable(x) * 0.5

    def sample_n(self, n):
        self.calls.append(n)
        return chainer.Variable(numpy.zeros((n, 2), _F32))


def test_derived_quantities():
    d = _Counting()
    x = numpy.array([0.5, 2], _F32)
    numpy.testing.assert_allclose(d.prob(x).array, x)
    numpy.testing.assert_allclose(d.stddev.array, [1, numpy.sqrt(2)], rtol=1e-6)
    numpy.testing.assert_allclose(d.survival_function(x).array, [0.75, 0])
    numpy.testing.assert_allclose(d.log_cdf(x).array, numpy.log(x * 0.5), rtol=1e-6)
    numpy.testing.assert_allclose(d.perplexity(x).array, 1 / x, rtol=1e-6)
    assert d.xp is numpy


def test_sample_shapes():
    d = _Counting()
    assert d.sample().shape == (2,)
    assert d.sample(3).shape == (3, 2)
    assert d.sample((2, 4)).shape == (2, 4, 2)
    assert d.sample([5]).shape == (5, 2)
    assert d.calls == [1, 3, 8, 5]


@pytest.mark.parametrize('name', ['batch_shape', 'event_shape', 'params', 'support', 'mean',
                                  'mode', 'variance', 'covariance', 'entropy', 'stddev', 'xp'])
def test_base_properties_are_abstract(name):
    with pytest.raises(NotImplementedError):
        getattr(chainer.Distribution(), name)


@pytest.mark.parametrize('name', ['log_prob', 'prob', 'cdf', 'icdf', 'log_cdf',
                                  'survival_function', 'log_survival_function', 'perplexity',
                                  'sample_n'])
def test_base_methods_are_abstract(name):
    with pytest.raises(NotImplementedError):
        getattr(chainer.Distribution(), name)(numpy.ones(1, _F32))


def test_kl_registry():
    class MyNormal(D.Normal):
        pass

    p = MyNormal(numpy.zeros(1, _F32), numpy.ones(1, _F32))
    q = D.Normal(numpy.ones(1, _F32), numpy.ones(1, _F32))
    # A subclass uses its base classes' divergence until it registers its own.
    numpy.testing.assert_allclose(chainer.kl_divergence(p, q).array, [0.5])

    @chainer.register_kl(MyNormal, D.Normal)
    def _kl(a, b):
        return 'mine'

    try:
        assert _kl.__name__ == '_kl'
        assert chainer.kl_divergence(p, q) == 'mine'
    finally:
        del distribution._KLDIVERGENCE[MyNormal, D.Normal]


def test_missing_kl_names_the_pair():
    p = D.Normal(numpy.zeros(1, _F32), numpy.ones(1, _F32))
    q = D.Laplace(numpy.zeros(1, _F32), numpy.ones(1, _F32))
    with pytest.raises(KeyError, match=r'\(Normal, Laplace\).*register_kl'):
        chainer.kl_divergence(p, q)


def test_parameters_broadcast_and_stay_differentiable():
    loc = chainer.Variable(numpy.zeros((2, 1), _F32))
    scale = chainer.Variable(numpy.ones(3, _F32))
    d = D.Normal(loc, scale)
    assert d.batch_shape == (2, 3)
    chainer.functions.sum(d.log_prob(numpy.ones((2, 3), _F32))).backward()
    assert loc.grad.shape == (2, 1) and scale.grad.shape == (3,)
    same = chainer.Variable(numpy.ones(3, _F32))
    assert D.Normal(same, same).loc is same


@pytest.mark.parametrize('make, message', [
    (lambda: D.Normal(numpy.zeros(2, _F32), numpy.ones(3, _F32)),
     r'Normal: the parameter shapes do not broadcast together: loc.shape=\(2,\), '
     r'scale.shape=\(3,\)'),
    (lambda: D.Dirichlet(numpy.ones(()), ), r'Dirichlet: alpha must have at least 1'),
    (lambda: D.MultivariateNormal(numpy.zeros((2, 3), _F32),
                                  scale_tril=numpy.ones((3, 3, 3), _F32)),
     r'MultivariateNormal: the parameter shapes do not broadcast together'),
])
def test_shape_errors(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_numbers_become_arrays():
    d = D.Normal(0., numpy.ones(2, _F32))
    assert d.loc.dtype == _F32 and d.batch_shape == (2,)
    with pytest.raises(TypeError, match='Normal: loc must be a Variable, an array or a number'):
        D.Normal('zero', 1.)


@pytest.mark.parametrize('make, message', [
    (lambda: D.Normal(numpy.zeros(2, _F32), numpy.float32([1, -1])),
     r'Normal: scale must be positive, got \[-1.\]'),
    (lambda: D.Bernoulli(numpy.float32([0.5, 1.5])), r'Bernoulli: p must be in \[0, 1\]'),
    (lambda: D.Categorical(numpy.float32([0.5, 0.7])), 'Categorical: p must be a probability'),
    (lambda: D.Beta(numpy.float32([-1]), numpy.float32([1])), 'Beta: a must be positive'),
    (lambda: D.Uniform(low=numpy.float32([1]), high=numpy.float32([0])),
     'Uniform: high - low must be positive'),
    (lambda: D.MultivariateNormal(numpy.zeros(2, _F32), scale_tril=-numpy.eye(2, dtype=_F32)),
     'MultivariateNormal: the diagonal of scale_tril must be positive'),
    (lambda: D.Gamma(numpy.float32([0]), numpy.float32([1])), 'Gamma: k must be positive'),
])
def test_invalid_parameters_under_debug(make, message):
    with chainer.using_config('debug', True):
        with pytest.raises(ValueError, match=message):
            make()
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        make()  # not checked outside debug mode


def test_cached_properties_follow_backprop_mode():
    scale = chainer.Variable(numpy.ones(2, _F32))
    d = D.Normal(numpy.zeros(2, _F32), scale)
    assert d.variance is d.variance and d.variance.creator is not None
    with chainer.no_backprop_mode():
        assert d.variance.creator is None


def test_unexpected_keywords():
    with pytest.raises(TypeError, match=r"Normal\(\) got unexpected keyword argument\(s\) 'foo'"):
        D.Normal(numpy.zeros(1, _F32), foo=1)
    with pytest.raises(ValueError, match='either `low, high` or `loc, scale`'):
        D.Uniform(low=numpy.zeros(1, _F32), scale=numpy.ones(1, _F32))


@pytest.mark.parametrize('make, dtype', [
    (lambda: D.Normal(numpy.zeros(2, _F32), numpy.ones(2, _F32)), _F32),
    (lambda: D.Gamma(numpy.ones(2), numpy.ones(2)), numpy.float64),
    (lambda: D.Categorical(numpy.full((2, 3), 1 / 3, _F32)), numpy.int64),
    (lambda: D.MultivariateNormal(numpy.zeros((2, 3), _F32),
                                  scale_tril=numpy.broadcast_to(numpy.eye(3, dtype=_F32),
                                                                (2, 3, 3))), _F32),
])
def test_samples_keep_the_parameter_dtype_and_shape(make, dtype):
    d = make()
    s = d.sample((4, 5))
    assert s.shape == (4, 5) + d.batch_shape + d.event_shape
    assert s.dtype == dtype
