"""Gradients of log densities, entropies, reparameterised samples and KL divergences."""
import numpy
import pytest

import chainer
from chainer import distributions as D
from chainer import gradient_check

_SHAPE = (2, 3)


def _u(rng, low, high, shape=_SHAPE):
    return rng.uniform(low, high, shape)


def _simplex(rng, shape=_SHAPE + (3,)):
    e = numpy.exp(rng.normal(size=shape))
    return e / e.sum(axis=-1, keepdims=True)


def _tril(rng):
    a = rng.normal(size=_SHAPE + (3, 3))
    return numpy.linalg.cholesky(a @ numpy.swapaxes(a, -1, -2) + numpy.eye(3))


# name -> (class, parameter factory, point factory, parameters reparameterised samples
# are differentiable in)
_CASES = {
    'bernoulli_p': (D.Bernoulli, lambda r: {'p': _u(r, .1, .9)},
                    lambda r: r.randint(0, 2, (4,) + _SHAPE).astype(float), ()),
    'bernoulli_logit': (D.Bernoulli, lambda r: {'logit': _u(r, -2, 2)},
                        lambda r: r.randint(0, 2, (4,) + _SHAPE).astype(float), ()),
    'beta': (D.Beta, lambda r: {'a': _u(r, .5, 3), 'b': _u(r, .5, 3)},
             lambda r: _u(r, .1, .9, (4,) + _SHAPE), ()),
    'categorical': (D.Categorical, lambda r: {'p': _simplex(r)},
                    lambda r: r.randint(0, 3, (4,) + _SHAPE), ()),
    'categorical_logit': (D.Categorical, lambda r: {'logit': r.normal(size=_SHAPE + (3,))},
                          lambda r: r.randint(0, 3, (4,) + _SHAPE), ()),
    'cauchy': (D.Cauchy, lambda r: {'loc': _u(r, -1, 1), 'scale': _u(r, .5, 2)},
               lambda r: _u(r, -3, 3, (4,) + _SHAPE), ('loc', 'scale')),
    'chisquare': (D.Chisquare, lambda r: {'k': _u(r, 1, 5)},
                  lambda r: _u(r, .5, 5, (4,) + _SHAPE), ()),
    'dirichlet': (D.Dirichlet, lambda r: {'alpha': _u(r, .5, 3, _SHAPE + (3,))},
                  lambda r: _simplex(r, (4,) + _SHAPE + (3,)), ()),
    'exponential': (D.Exponential, lambda r: {'lam': _u(r, .5, 2)},
                    lambda r: _u(r, .1, 3, (4,) + _SHAPE), ('lam',)),
    'gamma': (D.Gamma, lambda r: {'k': _u(r, .5, 3), 'theta': _u(r, .5, 2)},
              lambda r: _u(r, .1, 3, (4,) + _SHAPE), ('theta',)),
    'geometric': (D.Geometric, lambda r: {'p': _u(r, .2, .8)},
                  lambda r: r.randint(1, 6, (4,) + _SHAPE).astype(float), ()),
    'gumbel': (D.Gumbel, lambda r: {'loc': _u(r, -1, 1), 'scale': _u(r, .5, 2)},
               lambda r: _u(r, -2, 3, (4,) + _SHAPE), ('loc', 'scale')),
    'laplace': (D.Laplace, lambda r: {'loc': _u(r, -1, 1), 'scale': _u(r, .5, 2)},
                lambda r: _u(r, 1.5, 3, (4,) + _SHAPE), ('loc', 'scale')),
    'log_normal': (D.LogNormal, lambda r: {'mu': _u(r, -1, 1), 'sigma': _u(r, .5, 1)},
                   lambda r: _u(r, .2, 3, (4,) + _SHAPE), ('mu', 'sigma')),
    'multivariate_normal': (D.MultivariateNormal,
                            lambda r: {'loc': r.normal(size=_SHAPE + (3,)),
                                       'scale_tril': _tril(r)},
                            lambda r: r.normal(size=(4,) + _SHAPE + (3,)),
                            ('loc', 'scale_tril')),
    'normal': (D.Normal, lambda r: {'loc': _u(r, -1, 1), 'scale': _u(r, .5, 2)},
               lambda r: r.normal(size=(4,) + _SHAPE), ('loc', 'scale')),
    'normal_log_scale': (D.Normal, lambda r: {'loc': _u(r, -1, 1), 'log_scale': _u(r, -1, 1)},
                         lambda r: r.normal(size=(4,) + _SHAPE), ('loc', 'log_scale')),
    'one_hot_categorical': (D.OneHotCategorical, lambda r: {'p': _simplex(r)},
                            lambda r: numpy.eye(3)[r.randint(0, 3, (4,) + _SHAPE)], ()),
    'pareto': (D.Pareto, lambda r: {'scale': _u(r, .5, 1), 'alpha': _u(r, 1, 3)},
               lambda r: _u(r, 1.1, 3, (4,) + _SHAPE), ('scale', 'alpha')),
    'poisson': (D.Poisson, lambda r: {'lam': _u(r, .5, 5)},
                lambda r: r.randint(0, 8, (4,) + _SHAPE), ()),
    'uniform': (D.Uniform, lambda r: {'low': _u(r, -2, -1), 'high': _u(r, 1, 2)},
                lambda r: _u(r, -.9, .9, (4,) + _SHAPE), ('low', 'high')),
}
_ENTROPY = [n for n in _CASES if n not in ('poisson',)]
_REPARAMETERISED = [n for n, case in _CASES.items() if case[3]]


def _setup(name):
    cls, make_params, make_x, reparam = _CASES[name]
    rng = numpy.random.RandomState(0)
    params = make_params(rng)
    return cls, list(params), [numpy.asarray(v) for v in params.values()], make_x(rng), reparam


def _check(func, inputs, out_shape):
    gy = numpy.random.RandomState(1).normal(size=out_shape)
    gradient_check.check_backward(func, tuple(inputs), gy, eps=1e-6, atol=1e-5, rtol=1e-4,
                                  dtype=numpy.float64)


@pytest.mark.parametrize('name', sorted(_CASES))
def test_log_prob_backward(name):
    cls, names, values, x, _ = _setup(name)

    def log_prob(*params):
        return cls(**dict(zip(names, params))).log_prob(x)

    _check(log_prob, values, (4,) + _SHAPE)


@pytest.mark.parametrize('name', _ENTROPY)
def test_entropy_backward(name):
    cls, names, values, _, _ = _setup(name)
    _check(lambda *p: cls(**dict(zip(names, p))).entropy, values, _SHAPE)


@pytest.mark.parametrize('name', _REPARAMETERISED)
def test_sample_backward(name):
    cls, names, values, _, reparam = _setup(name)
    fixed = {n: v for n, v in zip(names, values) if n not in reparam}
    varying = [v for n, v in zip(names, values) if n in reparam]

    def sample(*params):
        numpy.random.seed(3)  # the same noise at every evaluation
        return cls(**fixed, **dict(zip(reparam, params))).sample(2)

    event = (3,) if name == 'multivariate_normal' else ()
    _check(sample, varying, (2,) + _SHAPE + event)


@pytest.mark.parametrize('name', sorted(set(_CASES) - {'bernoulli_logit', 'categorical_logit',
                                                        'normal_log_scale', 'chisquare',
                                                        'cauchy'}))
def test_kl_backward(name):
    cls, names, values, _, _ = _setup(name)
    if name == 'uniform':  # keep p's support inside q's: a finite divergence
        other = [values[0] - 0.5, values[1] + 0.5]
    elif name == 'pareto':
        other = [values[0] * 0.8, values[1] + 0.5]
    else:
        other = list(_CASES[name][1](numpy.random.RandomState(7)).values())

    def kl(*params):
        p = cls(**dict(zip(names, params[:len(names)])))
        q = cls(**dict(zip(names, params[len(names):])))
        return chainer.kl_divergence(p, q)

    _check(kl, values + [numpy.asarray(v) for v in other], _SHAPE)
