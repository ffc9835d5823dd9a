"""Optimizer hooks against their formulas, applied to single parameters."""
import numpy
import pytest

import chainer
from chainer import optimizer_hooks


def _param(seed=0, shape=(2, 3)):
    rng = numpy.random.RandomState(seed)
    p = chainer.Parameter(rng.uniform(-3, 3, shape).astype(numpy.float32))
    p.grad = rng.uniform(-3, 3, shape).astype(numpy.float32)
    return p


def _apply(hook, p):
    before = p.array.copy(), p.grad.copy()
    hook(None, p)
    return before


def test_weight_decay():
    p = _param()
    w, g = _apply(optimizer_hooks.WeightDecay(0.1), p)
    numpy.testing.assert_allclose(p.grad, g + 0.1 * w, rtol=1e-6)
    numpy.testing.assert_array_equal(p.array, w)


def test_lasso():
    p = _param()
    w, g = _apply(optimizer_hooks.Lasso(0.1), p)
    numpy.testing.assert_allclose(p.grad, g + 0.1 * numpy.sign(w), rtol=1e-6)


def test_hard_clipping():
    p = _param()
    _, g = _apply(optimizer_hooks.GradientHardClipping(-1., 0.5), p)
    numpy.testing.assert_array_equal(p.grad, numpy.clip(g, -1, 0.5))


@pytest.mark.parametrize('threshold, weight_decay', [(0.01, 0.), (100., 0.1), (0.01, 0.2)])
def test_lars(threshold, weight_decay):
    p = _param()
    w, g = _apply(optimizer_hooks.GradientLARS(threshold, weight_decay), p)
    ratio = numpy.linalg.norm(w) / (1e-9 + numpy.linalg.norm(g)
                                    + weight_decay * numpy.linalg.norm(w))
    rate = ratio if ratio > threshold else 1.0
    numpy.testing.assert_allclose(p.grad, rate * (g + weight_decay * w), rtol=1e-5)


def test_gradient_noise_uses_noise_func():
    p = _param()
    calls = []

    def noise(xp, shape, dtype, hook, rule):
        calls.append((xp, shape, dtype, hook, rule))
        return xp.full(shape, 0.5, dtype)

    hook = optimizer_hooks.GradientNoise(0.01, noise_func=noise)
    rule = object()
    g = p.grad.copy()
    hook(rule, p)
    numpy.testing.assert_allclose(p.grad, g + 0.5)
    assert calls == [(numpy, (2, 3), numpy.dtype(numpy.float32), hook, rule)]


def test_default_gradient_noise_variance_decays():
    class Rule:
        t = 0

    p = chainer.Parameter(numpy.zeros(20000, numpy.float32))
    p.grad = numpy.zeros(20000, numpy.float32)
    numpy.random.seed(0)
    optimizer_hooks.GradientNoise(0.5)(Rule(), p)
    assert p.grad.std() == pytest.approx(numpy.sqrt(0.5), rel=0.03)
    Rule.t = 99
    p.grad[...] = 0
    optimizer_hooks.GradientNoise(0.5)(Rule(), p)
    assert p.grad.std() == pytest.approx(numpy.sqrt(0.5 / 100 ** 0.55), rel=0.03)


@pytest.mark.parametrize('threshold', [1.0, 100.0])
def test_gradient_clipping_by_global_norm(threshold):
    params = [_param(1), _param(2, (4,))]

    class Target:
        def params(self, include_uninit=True):
            return iter(params)

    class Opt:
        target = Target()

    grads = [p.grad.copy() for p in params]
    norm = numpy.sqrt(sum((g.astype(numpy.float64) ** 2).sum() for g in grads))
    optimizer_hooks.GradientClipping(threshold)(Opt())
    scale = min(1.0, threshold / norm)
    for p, g in zip(params, grads):
        numpy.testing.assert_allclose(p.grad, g * scale, rtol=1e-5)


@pytest.mark.parametrize('hook', [optimizer_hooks.WeightDecay(1.), optimizer_hooks.Lasso(1.),
                                  optimizer_hooks.GradientHardClipping(0, 1),
                                  optimizer_hooks.GradientLARS()])
def test_hooks_skip_params_without_grad(hook):
    p = chainer.Parameter(numpy.ones(3, numpy.float32))
    hook(None, p)
    assert p.grad is None


def test_hook_attributes():
    for cls, each in [(optimizer_hooks.WeightDecay, True), (optimizer_hooks.Lasso, True),
                      (optimizer_hooks.GradientHardClipping, True),
                      (optimizer_hooks.GradientLARS, True), (optimizer_hooks.GradientNoise, True),
                      (optimizer_hooks.GradientClipping, False)]:
        assert cls.timing == 'pre' and cls.name == cls.__name__
        assert getattr(cls, 'call_for_each_param', False) is each
        assert cls.__module__.startswith('chainer.optimizer_hooks.')


@pytest.mark.parametrize('hook', [optimizer_hooks.WeightDecay(0.1), optimizer_hooks.Lasso(0.1)])
def test_regularizers_account_for_the_loss_scale(hook):
    # Before the update rule divides the scale out, the gradient is still scaled: the
    # regularization term must be scaled too, so that the result does not depend on it.
    plain, scaled = _param(), _param()
    scaled.grad *= 4
    scaled._loss_scale = 4.0
    hook(None, plain)
    hook(None, scaled)
    numpy.testing.assert_allclose(scaled.grad / 4, plain.grad, rtol=1e-6)
