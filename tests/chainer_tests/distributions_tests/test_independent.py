import unittest

import numpy
import pytest

import chainer
from chainer import distributions
from chainer import testing


def _normal(shape, seed=0):
    rng = numpy.random.RandomState(seed)
    loc = rng.uniform(-1, 1, shape).astype(numpy.float32)
    scale = numpy.exp(rng.uniform(-1, 1, shape)).astype(numpy.float32)
    return distributions.Normal(loc, scale)


@testing.parameterize(*testing.product({'ndims': [None, 0, 1, 2]}))
class TestIndependent(unittest.TestCase):

    def setUp(self):
        self.base = _normal((2, 3, 4))
        self.dist = distributions.Independent(self.base, self.ndims)
        self.r = 2 if self.ndims is None else self.ndims
        self.axes = tuple(range(-self.r, 0))
        self.x = numpy.random.RandomState(1).normal(size=(5, 2, 3, 4)).astype(numpy.float32)

    def reduce(self, value, op=numpy.sum):
        return op(value, axis=self.axes) if self.r else value

    def test_shapes(self):
        assert self.dist.reinterpreted_batch_ndims == self.r
        assert self.dist.batch_shape + self.dist.event_shape == (2, 3, 4)
        assert len(self.dist.event_shape) == self.r
        assert self.dist.sample(5).shape == (5, 2, 3, 4)

    def test_reductions(self):
        base, dist, x = self.base, self.dist, self.x
        testing.assert_allclose(dist.log_prob(x).array,
                                self.reduce(base.log_prob(x).array), rtol=1e-5)
        testing.assert_allclose(dist.prob(x).array,
                                self.reduce(base.prob(x).array, numpy.prod), rtol=1e-4)
        testing.assert_allclose(dist.cdf(x).array,
                                self.reduce(base.cdf(x).array, numpy.prod), rtol=1e-4)
        testing.assert_allclose(dist.log_cdf(x).array,
                                self.reduce(base.log_cdf(x).array), rtol=1e-5)
        testing.assert_allclose(dist.survival_function(x).array,
                                self.reduce(base.survival_function(x).array, numpy.prod),
                                rtol=1e-4)
        testing.assert_allclose(dist.log_survival_function(x).array,
                                self.reduce(base.log_survival_function(x).array), rtol=1e-5)
        testing.assert_allclose(dist.entropy.array, self.reduce(base.entropy.array), rtol=1e-5)
        for name in ('mean', 'variance', 'stddev', 'mode'):
            testing.assert_allclose(getattr(dist, name).array, getattr(base, name).array)
        assert dist.support == 'real' and dist.params.keys() == base.params.keys()

    def test_icdf_only_without_reinterpretation(self):
        u = numpy.full((2, 3, 4), 0.3, numpy.float32)
        if self.r:
            with pytest.raises(RuntimeError, match='not invertible'):
                self.dist.icdf(u)
        else:
            testing.assert_allclose(self.dist.icdf(u).array, self.base.icdf(u).array)

    def test_covariance_is_block_diagonal(self):
        cov = self.dist.covariance.array
        m = int(numpy.prod(self.dist.event_shape))
        assert cov.shape == self.dist.batch_shape + (m, m)
        expected = numpy.zeros_like(cov)
        variance = self.base.variance.array.reshape(self.dist.batch_shape + (m,))
        idx = numpy.arange(m)
        expected[..., idx, idx] = variance
        testing.assert_allclose(cov, expected)

    def test_kl_sums_the_base_divergences(self):
        other = distributions.Independent(_normal((2, 3, 4), seed=5), self.ndims)
        base_kl = chainer.kl_divergence(self.base, other.distribution).array
        testing.assert_allclose(chainer.kl_divergence(self.dist, other).array,
                                self.reduce(base_kl), rtol=1e-5)


def test_covariance_of_multivariate_blocks():
    scale_tril = numpy.array([numpy.eye(2), [[1, 0], [0.5, 2]]], numpy.float32)
    base = distributions.MultivariateNormal(numpy.zeros((2, 2), numpy.float32),
                                            scale_tril=scale_tril)
    cov = distributions.Independent(base, 1).covariance.array
    expected = numpy.zeros((4, 4), numpy.float32)
    expected[:2, :2] = numpy.eye(2)
    expected[2:, 2:] = [[1, 0.5], [0.5, 4.25]]
    testing.assert_allclose(cov, expected)


def test_bad_reinterpreted_batch_ndims():
    for bad in (3, -1):
        with pytest.raises(ValueError, match='reinterpreted_batch_ndims'):
            distributions.Independent(_normal((2, 3)), bad)


def test_kl_needs_matching_event_shapes():
    with pytest.raises(ValueError, match='Event shapes do not match'):
        chainer.kl_divergence(distributions.Independent(_normal((2, 3)), 1),
                              distributions.Independent(_normal((2, 3)), 2))


testing.run_module(__name__, __file__)
