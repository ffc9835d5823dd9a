"""L.DecorrelatedBatchNormalization: the case table, modes, old files, forget."""
import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import testing
from chainer_tests.links_tests import _cases


def _x(*shape, dtype=numpy.float32):
    return numpy.random.uniform(-1, 1, shape).astype(dtype)


@_cases.cases('DecorrelatedBatchNormalization')
class TestDecorrelatedBatchNormalization(_cases.LinkTest):
    pass


TestDecorrelatedBatchNormalizationChecks = _cases.checks('DecorrelatedBatchNormalization')


def test_decorrelated_batch_normalization_modes():
    x = _x(20, 4)
    dbn = L.DecorrelatedBatchNormalization(4, groups=2)
    y = dbn(x).array.reshape(20, 2, 2)
    for g in range(2):
        cov = y[:, g].T @ y[:, g] / 20
        testing.assert_allclose(cov, numpy.eye(2), atol=1e-3)   # whitened per group
    with chainer.using_config('train', False):
        y = dbn(x)
    testing.assert_allclose(y.array, F.fixed_decorrelated_batch_normalization(
        x, dbn.avg_mean, dbn.avg_projection, groups=2).array)
    with pytest.raises(ValueError, match='groups'):
        L.DecorrelatedBatchNormalization(5, groups=2)


def test_decorrelated_batch_normalization_loads_single_group_files(tmp_path):
    path = str(tmp_path / 'old.npz')
    numpy.savez(path, avg_mean=numpy.arange(2, dtype='f'),
                avg_projection=3 * numpy.eye(2, dtype='f'), N=numpy.array(0))
    dbn = L.DecorrelatedBatchNormalization(4, groups=2)
    with pytest.warns(UserWarning, match='old DecorrelatedBatchNormalization'):
        chainer.serializers.load_npz(path, dbn)
    testing.assert_allclose(dbn.avg_mean, [[0, 1], [0, 1]])
    testing.assert_allclose(dbn.avg_projection[1], 3 * numpy.eye(2))


@pytest.mark.parametrize('make', [lambda: L.DecorrelatedBatchNormalization(3, groups=3)])
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
    assert L.DecorrelatedBatchNormalization.__module__ == \
        'chainer.links.normalization.decorrelated_batch_normalization'
