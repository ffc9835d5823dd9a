"""L.BatchNormalization: the case table, statistics, modes, forget."""
import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import testing
from chainer_tests.links_tests import _cases


def _x(*shape, dtype=numpy.float32):
    return numpy.random.uniform(-1, 1, shape).astype(dtype)


@_cases.cases('BatchNormalization', 'BatchNormalization_axis')
class TestBatchNormalization(_cases.LinkTest):
    pass


TestBatchNormalizationChecks = _cases.checks('BatchNormalization', 'BatchNormalization_axis',
                                             lazy=('BatchNormalization',))


def test_batch_normalization_statistics_and_modes():
    x = _x(10, 3)
    bn = L.BatchNormalization(3)
    y = bn(x)
    mean, var = x.mean(0), x.var(0)
    testing.assert_allclose(y.array, (x - mean) / numpy.sqrt(var + 2e-5), atol=1e-5)
    testing.assert_allclose(bn.avg_mean, 0.1 * mean, atol=1e-6)
    testing.assert_allclose(bn.avg_var, 0.9 + 0.1 * var * 10 / 9, atol=1e-6)
    assert bn.N == 0
    bn.start_finetuning()
    bn(x, finetune=True)        # N = 1: the running values become this batch's
    assert bn.N == 1
    testing.assert_allclose(bn.avg_mean, mean, atol=1e-6)
    testing.assert_allclose(bn.avg_var, var * 10 / 9, atol=1e-6)
    with chainer.using_config('train', False):
        testing.assert_allclose(bn(x).array, (x - mean) / numpy.sqrt(var * 10 / 9 + 2e-5),
                                atol=1e-5)
    with pytest.raises(ValueError, match='test argument'):
        bn(x, test=True)
    with pytest.raises(RuntimeError, match='size or axis'):
        L.BatchNormalization()


def test_batch_normalization_without_gamma_beta_and_with_axis():
    bn = L.BatchNormalization(3, use_gamma=False, use_beta=False)
    assert bn.gamma is None and bn.beta is None and not list(bn.params())
    x = _x(6, 3, 2)
    testing.assert_allclose(bn(x).array, F.batch_normalization(
        x, numpy.ones(3, 'f'), numpy.zeros(3, 'f')).array, atol=1e-6)
    lazy = L.BatchNormalization(axis=0)
    lazy(x)
    assert lazy.avg_mean.shape == (3, 2) and lazy.gamma.shape == (3, 2)
    assert str(L.BatchNormalization(3)) == ('BatchNormalization(size=3, decay=0.9, '
                                            'eps=2e-05, dtype=float32, use_gamma=True, '
                                            'use_beta=True)')


@pytest.mark.parametrize('make', [lambda: L.BatchNormalization(3)])
def test_normalization_under_forget_updates_once(make):
    x = _x(4, 3)
    plain, forgetful = make(), make()
    xa, xb = chainer.Variable(x), chainer.Variable(x)
    F.sum(plain(xa, finetune=True) * x).backward()
    F.sum(F.forget(lambda v: forgetful(v, finetune=True), xb) * x).backward()
    testing.assert_allclose(xa.grad, xb.grad, atol=1e-6)
    assert plain.N == forgetful.N == 1
    testing.assert_allclose(plain.avg_mean, forgetful.avg_mean)


def test_module_path():
    assert L.BatchNormalization.__module__ == 'chainer.links.normalization.batch_normalization'
