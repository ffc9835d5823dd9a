import numpy
import pytest

import chainer
from chainer import testing
from chainer import utils


@testing.fix_random()
@pytest.mark.parametrize('probs', [[5, 3, 4, 1, 2], [0.1], [0., 2., 0., 1.], [1e-6, 1., 1e3]])
def test_sample_frequencies(probs):
    sampler = utils.WalkerAlias(probs)
    assert not sampler.use_gpu and sampler.xp is numpy
    assert sampler.threshold.dtype == numpy.float32 and sampler.values.dtype == numpy.int32
    assert sampler.threshold.shape == (len(probs),) and sampler.values.shape == (2 * len(probs),)
    s = sampler.sample((400, 250))
    assert s.shape == (400, 250) and s.dtype == numpy.int32
    freq = numpy.bincount(s.ravel(), minlength=len(probs)) / s.size
    p = numpy.asarray(probs, numpy.float64) / numpy.sum(probs)
    numpy.testing.assert_allclose(freq, p, atol=0.005)
    assert (freq[p == 0] == 0).all()


def test_sample_cpu_and_to_cpu():
    sampler = utils.WalkerAlias(numpy.array([1, 2], numpy.int32))
    assert sampler.to_cpu() is sampler
    assert sampler.device == chainer.get_device('@numpy')
    assert set(numpy.unique(sampler.sample_cpu((100,)))) <= {0, 1}


def test_rejects_bad_probabilities():
    for probs in ([], [0, 0], [1, -1]):
        with pytest.raises(ValueError):
            utils.WalkerAlias(probs)


@testing.attr.gpu
def test_sample_gpu():
    import cupy
    sampler = utils.WalkerAlias([1, 3])
    sampler.to_gpu()
    assert sampler.use_gpu and isinstance(sampler.threshold, cupy.ndarray)
    s = sampler.sample((10000,))
    assert isinstance(s, cupy.ndarray)
    freq = numpy.bincount(cupy.asnumpy(s), minlength=2) / s.size
    numpy.testing.assert_allclose(freq, [0.25, 0.75], atol=0.03)
    sampler.to_cpu()
    assert not sampler.use_gpu and isinstance(sampler.sample((3,)), numpy.ndarray)


# Tables Chainer 7.8.1 builds (recorded from it): the same tables give a seeded run the same
# samples.
@pytest.mark.parametrize('probs,threshold,values', [
    ([0.1, 0.5, 0.4], [0.3, 0.5, 1.], [0, 2, 2, 1, 1, 0]),
    ([3, 2, 1, 4], [0.4, 0.8, 0.6, 1.], [2, 0, 1, 3, 0, 3, 3, 0]),
    ([1, 1, 1, 1, 0], [0., 0.25, 0.5, 0.75, 1.], [4, 0, 0, 1, 1, 2, 2, 3, 3, 0]),
])
def test_tables_are_chainers(probs, threshold, values):
    sampler = utils.WalkerAlias(probs)
    numpy.testing.assert_allclose(sampler.threshold, threshold, rtol=1e-6)
    assert sampler.values.tolist() == values
    assert sampler.threshold.dtype == numpy.float32 and sampler.values.dtype == numpy.int32
    # One uniform draw per sample: bucket int(u), its alias when u's fraction is past the
    # threshold.
    numpy.random.seed(3)
    u = numpy.random.uniform(0, len(probs), 20)
    bucket = u.astype(numpy.int32)
    expected = sampler.values[2 * bucket + (u - bucket >= sampler.threshold[bucket])]
    numpy.random.seed(3)
    assert sampler.sample((20,)).tolist() == expected.tolist()
