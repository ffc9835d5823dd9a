"""Samples are drawn from NumPy's global generator as Chainer 7.8.1 draws them (the calls it
makes, in its order), so that a seeded script gets the same samples and the generator ends in
the same place."""
import numpy
import pytest

from chainer import distributions as D


def _p(shape):
    p = numpy.random.RandomState(0).uniform(0.1, 1, shape).astype(numpy.float32)
    return p / p.sum(axis=-1, keepdims=True)


def _same_stream(sample, reference):
    numpy.random.seed(7)
    got = sample()
    after = numpy.random.random_sample()
    numpy.random.seed(7)
    expected = reference()
    assert numpy.random.random_sample() == after
    return got, expected


@pytest.mark.parametrize('shape', [(5,), (3, 4), (2, 3, 4)])
@pytest.mark.parametrize('n', [1, 3])
def test_categorical_draws_choice_row_by_row(shape, n):
    p = _p(shape)
    rows = p.reshape(-1, shape[-1]).astype(numpy.float64)
    got, expected = _same_stream(
        lambda: D.Categorical(p).sample(n).array,
        lambda: numpy.stack([numpy.random.choice(shape[-1], n, p=r / r.sum()) for r in rows],
                            axis=1).reshape((n,) + shape[:-1]))
    numpy.testing.assert_array_equal(got, expected)
    assert got.dtype == numpy.int64


@pytest.mark.parametrize('n', [1, 3])
def test_one_hot_categorical_draws_as_categorical(n):
    p = _p((3, 4))
    got, expected = _same_stream(lambda: D.OneHotCategorical(p).sample(n).array,
                                 lambda: D.Categorical(p).sample(n).array)
    numpy.testing.assert_array_equal(got.argmax(axis=-1), expected)
    assert got.dtype == numpy.float32


@pytest.mark.parametrize('shape', [(4,), (3, 4)])
@pytest.mark.parametrize('n', [1, 3])
def test_dirichlet_draws_dirichlet_row_by_row(shape, n):
    alpha = _p(shape) * 4 + 0.5
    rows = alpha.reshape(-1, shape[-1])
    got, expected = _same_stream(
        lambda: D.Dirichlet(alpha).sample(n).array,
        lambda: numpy.stack([numpy.random.dirichlet(r, n) for r in rows],
                            axis=1).reshape((n,) + shape))
    numpy.testing.assert_allclose(got, expected, rtol=1e-5)
    assert got.dtype == numpy.float32


@pytest.mark.parametrize('n', [1, 3])
def test_bernoulli_draws_binomial(n):
    p = _p((3, 4))
    got, expected = _same_stream(lambda: D.Bernoulli(p).sample(n).array,
                                 lambda: numpy.random.binomial(1, p, (n, 3, 4)))
    numpy.testing.assert_array_equal(got, expected)
    assert got.dtype == numpy.int64
