"""KL divergences: every pair Chainer registered, against Monte Carlo estimates."""
import numpy
import pytest

import chainer
from chainer import distribution
from chainer import distributions as D

_SHAPE = (2, 3)


def _u(rng, low, high, shape=_SHAPE):
    return rng.uniform(low, high, shape)


def _simplex(rng):
    e = numpy.exp(rng.normal(size=_SHAPE + (3,)))
    return e / e.sum(axis=-1, keepdims=True)


def _tril(rng):
    a = rng.normal(size=_SHAPE + (3, 3))
    return numpy.linalg.cholesky(a @ numpy.swapaxes(a, -1, -2) + numpy.eye(3))


def _independent(rng):
    return D.Independent(D.Normal(rng.uniform(-1, 1, _SHAPE), rng.uniform(.5, 2, _SHAPE)))


# class -> function(rng) returning a distribution of that class (float64 parameters)
_MAKERS = {
    D.Bernoulli: lambda r: D.Bernoulli(_u(r, .1, .9)),
    D.Beta: lambda r: D.Beta(_u(r, .5, 5), _u(r, .5, 5)),
    D.Categorical: lambda r: D.Categorical(_simplex(r)),
    D.Dirichlet: lambda r: D.Dirichlet(_u(r, .5, 5, _SHAPE + (3,))),
    D.Exponential: lambda r: D.Exponential(_u(r, .5, 2)),
    D.Gamma: lambda r: D.Gamma(_u(r, 1, 5), _u(r, .5, 2)),
    D.Geometric: lambda r: D.Geometric(_u(r, .2, .8)),
    D.Gumbel: lambda r: D.Gumbel(_u(r, -1, 1), _u(r, .5, 2)),
    D.Independent: _independent,
    D.Laplace: lambda r: D.Laplace(_u(r, -1, 1), _u(r, .5, 2)),
    D.LogNormal: lambda r: D.LogNormal(_u(r, -1, 1), _u(r, .5, 1.5)),
    D.MultivariateNormal: lambda r: D.MultivariateNormal(r.normal(size=_SHAPE + (3,)),
                                                         scale_tril=_tril(r)),
    D.Normal: lambda r: D.Normal(_u(r, -1, 1), _u(r, .5, 2)),
    D.OneHotCategorical: lambda r: D.OneHotCategorical(_simplex(r)),
    D.Pareto: lambda r: D.Pareto(_u(r, 1, 2), _u(r, 2, 4)),
    D.Poisson: lambda r: D.Poisson(_u(r, 1, 10)),
    D.Uniform: lambda r: D.Uniform(low=_u(r, -3, 0), high=_u(r, 1, 4)),
}


def test_registered_pairs_are_chainers():
    assert set(distribution._KLDIVERGENCE) == {(cls, cls) for cls in _MAKERS}


@pytest.mark.parametrize('cls', sorted(_MAKERS, key=lambda c: c.__name__),
                         ids=lambda c: c.__name__)
def test_kl_against_monte_carlo(cls):
    rng = numpy.random.RandomState(0)
    p, q = _MAKERS[cls](rng), _MAKERS[cls](rng)
    kl = chainer.kl_divergence(p, q).array
    assert kl.shape == p.batch_shape
    numpy.random.seed(1)
    x = p.sample(100000)
    with numpy.errstate(divide='ignore', invalid='ignore'):
        estimate = numpy.mean(p.log_prob(x).array - q.log_prob(x).array, axis=0)
    numpy.testing.assert_allclose(kl, estimate, atol=3e-2, rtol=3e-2)
    numpy.testing.assert_allclose(chainer.kl_divergence(p, p).array, 0, atol=1e-10)


@pytest.mark.parametrize('cls', [D.Uniform, D.Pareto], ids=lambda c: c.__name__)
def test_kl_is_infinite_outside_the_support(cls):
    if cls is D.Uniform:
        p, q = D.Uniform(low=numpy.array([0.]), high=numpy.array([2.])), \
            D.Uniform(low=numpy.array([0.5]), high=numpy.array([3.]))
    else:
        p, q = D.Pareto(numpy.array([1.]), numpy.array([2.])), \
            D.Pareto(numpy.array([2.]), numpy.array([2.]))
    assert chainer.kl_divergence(p, q).array[0] == numpy.inf


def test_closed_form_normal():
    p = D.Normal(numpy.array([0.]), numpy.array([1.]))
    q = D.Normal(numpy.array([1.]), log_scale=numpy.array([numpy.log(2.)]))
    expected = numpy.log(2) + (1 + 1) / 8 - 0.5
    numpy.testing.assert_allclose(chainer.kl_divergence(p, q).array, [expected])


def test_cross_entropy_is_entropy_plus_kl():
    rng = numpy.random.RandomState(0)
    p, q = _MAKERS[D.Gamma](rng), _MAKERS[D.Gamma](rng)
    numpy.testing.assert_allclose(chainer.cross_entropy(p, q).array,
                                  p.entropy.array + chainer.kl_divergence(p, q).array)
