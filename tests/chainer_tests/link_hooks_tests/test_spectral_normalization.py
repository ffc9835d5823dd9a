import sys
import types

import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L
from chainer.link_hooks import SpectralNormalization


def _sigma(W, axis=0):
    m = numpy.moveaxis(W, axis, 0).reshape(W.shape[axis], -1)
    return numpy.linalg.svd(m.astype(numpy.float64), compute_uv=False)[0]


def test_weight_is_divided_by_its_largest_singular_value():
    lin = L.Linear(5, 4, nobias=True)
    hook = SpectralNormalization(n_power_iteration=50)
    lin.add_hook(hook)
    assert lin.W_u.shape == (4,) and 'W_u' in lin._persistent
    y = lin(numpy.eye(5, dtype=numpy.float32))
    numpy.testing.assert_allclose(y.array.T, lin.W.array / _sigma(lin.W.array), rtol=1e-4)
    assert isinstance(lin.W, chainer.Parameter)


def test_gradient_reaches_the_raw_weight():
    lin = L.Linear(3, 2).add_hook(SpectralNormalization())
    lin.cleargrads()     # fresh parameters start with NaN gradients, as in Chainer
    F.sum(lin(numpy.ones((1, 3), numpy.float32))).backward()
    assert lin.W.grad is not None and numpy.isfinite(lin.W.grad).all()


def test_u_advances_only_in_training():
    lin = L.Linear(3, 2).add_hook(SpectralNormalization())
    x = numpy.ones((1, 3), numpy.float32)
    u0 = lin.W_u.copy()
    with chainer.using_config('train', False):
        lin(x)
    numpy.testing.assert_array_equal(lin.W_u, u0)
    lin(x)
    assert not numpy.array_equal(lin.W_u, u0)


def test_gamma_lazy_init_and_delete():
    lin = L.Linear(None, 3)
    hook = SpectralNormalization(use_gamma=True)
    lin.add_hook(hook)
    assert not hasattr(lin, 'W_u') and not hasattr(lin, 'gamma')
    lin(numpy.ones((2, 4), numpy.float32))
    assert lin.W_u.shape == (3,) and lin.gamma.shape == ()
    assert '/gamma' in [n for n, _ in lin.namedparams()]
    numpy.testing.assert_allclose(lin.gamma.array, _sigma(lin.W.array), rtol=1e-5)
    lin.delete_hook(hook.name)
    assert not hasattr(lin, 'W_u') and not hasattr(lin, 'gamma')


def test_errors():
    with pytest.raises(ValueError, match="'V' does not exist"):
        L.Linear(2, 2).add_hook(SpectralNormalization(weight_name='V'))
    with pytest.raises(ValueError, match=r'W.shape\[0\] > 0'):
        L.Linear(2, 0).add_hook(SpectralNormalization())
    with pytest.raises(NotImplementedError):
        with SpectralNormalization():
            pass
    with pytest.raises(AssertionError):
        SpectralNormalization(n_power_iteration=0)


class _Deconv(chainer.Link):
    # A stand-in for Deconvolution2D (weights (in_channels, out_channels, k, k)).

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.W = chainer.Parameter(numpy.random.randn(3, 5, 2, 2).astype(numpy.float32))

    def forward(self, x):
        return F.sum(self.W * 1)


def test_deconvolution_weights_are_read_along_axis_1(monkeypatch):
    module = types.ModuleType('chainer.links.connection.deconvolution_2d')
    module.Deconvolution2D = _Deconv
    monkeypatch.setitem(sys.modules, module.__name__, module)
    link = _Deconv()
    hook = SpectralNormalization(n_power_iteration=100)
    link.add_hook(hook)
    assert hook.axis == 1 and link.W_u.shape == (5,)
    W = hook.normalize_weight(link)
    numpy.testing.assert_allclose(_sigma(W.array, axis=1), 1.0, rtol=1e-4)


def test_forget_recomputes_with_the_same_vectors():
    x = numpy.random.randn(2, 3).astype(numpy.float32)
    plain = L.Linear(3, 2)
    plain.add_hook(SpectralNormalization())
    recomputed = plain.copy('copy')     # with its own copy of the hook and of W_u
    assert recomputed.local_link_hooks['SpectralNormalization'] is not \
        plain.local_link_hooks['SpectralNormalization']
    for link in (plain, recomputed):
        link.cleargrads()
    F.sum(plain(x) ** 2).backward()
    F.sum(F.forget(recomputed, x) ** 2).backward()
    numpy.testing.assert_allclose(recomputed.W.grad, plain.W.grad, rtol=1e-5)
    numpy.testing.assert_array_equal(recomputed.W_u, plain.W_u)
