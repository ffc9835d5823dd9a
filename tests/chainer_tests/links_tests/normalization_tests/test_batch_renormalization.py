"""L.BatchRenormalization: the case table, the corrections, forget."""
import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import testing
from chainer_tests.links_tests import _cases


def _x(*shape, dtype=numpy.float32):
    return numpy.random.uniform(-1, 1, shape).astype(dtype)


@_cases.cases('BatchRenormalization')
class TestBatchRenormalization(_cases.LinkTest):
    pass


TestBatchRenormalizationChecks = _cases.checks('BatchRenormalization')


def test_batch_renormalization_corrects_towards_running_statistics():
    x = _x(6, 3)
    brn = L.BatchRenormalization(3, rmax=2, dmax=1)
    brn.avg_mean[...] = 0.3
    brn.avg_var[...] = 0.5
    mu, sigma = x.mean(0), numpy.sqrt(x.var(0) + 2e-5)
    running_std = numpy.sqrt(0.5 + 2e-5)
    r = numpy.clip(sigma / running_std, 0.5, 2)
    d = numpy.clip((mu - 0.3) / running_std, -1, 1)
    testing.assert_allclose(brn(x).array, (x - mu) / sigma * r + d, atol=1e-5)
    testing.assert_allclose(brn.avg_mean, 0.9 * 0.3 + 0.1 * mu, atol=1e-6)


@pytest.mark.parametrize('make', [lambda: L.BatchRenormalization(3, rmax=2, dmax=1)])
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
    assert L.BatchRenormalization.__module__ == 'chainer.links.normalization.batch_renormalization'
