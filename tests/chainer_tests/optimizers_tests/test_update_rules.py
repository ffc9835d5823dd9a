"""Each update rule against a plain-NumPy transcription of its published formula."""
import math
import os

import numpy
import pytest

import chainer
from chainer import optimizers


def _sgd(p, g, s, t, lr=0.01):
    return p - lr * g


def _momentum(p, g, s, t, lr=0.01, momentum=0.9):
    s['v'] = momentum * s.get('v', 0) - lr * g
    return p + s['v']


def _corrected_momentum(p, g, s, t, lr=0.01, momentum=0.9):
    s['v'] = momentum * s.get('v', 0) - g
    return p + lr * s['v']


def _nesterov(p, g, s, t, lr=0.01, momentum=0.9):
    s['v'] = momentum * s.get('v', 0) - lr * g
    return p + momentum ** 2 * s['v'] - (1 + momentum) * lr * g


def _adagrad(p, g, s, t, lr=0.001, eps=1e-8):
    s['h'] = s.get('h', 0) + g * g
    return p - lr * g / (numpy.sqrt(s['h']) + eps)


def _adadelta(p, g, s, t, rho=0.95, eps=1e-6):
    s['msg'] = rho * s.get('msg', 0) + (1 - rho) * g * g
    dx = numpy.sqrt((s.get('msdx', 0) + eps) / (s['msg'] + eps)) * g
    s['msdx'] = rho * s.get('msdx', 0) + (1 - rho) * dx * dx
    return p - dx


def _rmsprop(p, g, s, t, lr=0.01, alpha=0.99, eps=1e-8, eps_inside_sqrt=False):
    s['ms'] = alpha * s.get('ms', 0) + (1 - alpha) * g * g
    denom = numpy.sqrt(s['ms'] + eps) if eps_inside_sqrt else numpy.sqrt(s['ms']) + eps
    return p - lr * g / denom


def _rmsprop_graves(p, g, s, t, lr=1e-4, alpha=0.95, momentum=0.9, eps=1e-4):
    s['n'] = alpha * s.get('n', 0) + (1 - alpha) * g * g
    s['g'] = alpha * s.get('g', 0) + (1 - alpha) * g
    s['delta'] = momentum * s.get('delta', 0) - lr * g / numpy.sqrt(s['n'] - s['g'] ** 2 + eps)
    return p + s['delta']


def _smorms3(p, g, s, t, lr=0.001, eps=1e-16):
    mem = s.get('mem', 1)
    r = 1 / (mem + 1)
    s['g'] = (1 - r) * s.get('g', 0) + r * g
    s['g2'] = (1 - r) * s.get('g2', 0) + r * g * g
    x = s['g'] ** 2 / (s['g2'] + eps)
    s['mem'] = 1 + mem * (1 - x)
    return p - g * numpy.minimum(lr, x) / (numpy.sqrt(s['g2']) + eps)


def _adam(p, g, s, t, alpha=0.001, beta1=0.9, beta2=0.999, eps=1e-8, eta=1.0,
          weight_decay_rate=0, amsgrad=False, adabound=False, final_lr=0.1, gamma=1e-3):
    s['m'] = beta1 * s.get('m', 0) + (1 - beta1) * g
    s['v'] = beta2 * s.get('v', 0) + (1 - beta2) * g * g
    v = s['v']
    if amsgrad:
        v = s['vhat'] = numpy.maximum(s.get('vhat', 0), v)
    alpha_t = alpha * math.sqrt(1 - beta2 ** t) / (1 - beta1 ** t)
    step = alpha_t / (numpy.sqrt(v) + eps)
    if adabound:
        step = numpy.clip(step, final_lr * (1 - 1 / (gamma * t + 1)),
                          final_lr * (1 + 1 / (gamma * t)))
    return p - eta * (step * s['m'] + weight_decay_rate * p)


def _msvag(p, g, s, t, lr=0.1, beta=0.9, eta=1.0, weight_decay_rate=0):
    s['m'] = beta * s.get('m', 0) + (1 - beta) * g
    s['v'] = beta * s.get('v', 0) + (1 - beta) * g * g
    mt = s['m'] / (1 - beta ** t)
    vt = s['v'] / (1 - beta ** t)
    rho = min((1 - beta) * (1 + beta ** t) / ((1 + beta) * (1 - beta ** t)), 1 - 1e-4)
    var = (vt - mt ** 2) / (1 - rho)
    with numpy.errstate(divide='ignore', invalid='ignore'):
        factor = numpy.nan_to_num(numpy.clip(mt ** 2 / (mt ** 2 + rho * var), 0, 1), nan=0.0)
    return p - eta * (lr * mt * factor + weight_decay_rate * p)


CASES = [
    (optimizers.SGD, {}, _sgd),
    (optimizers.SGD, {'lr': 0.3}, _sgd),
    (optimizers.MomentumSGD, {}, _momentum),
    (optimizers.MomentumSGD, {'lr': 0.1, 'momentum': 0.5}, _momentum),
    (optimizers.CorrectedMomentumSGD, {'lr': 0.1}, _corrected_momentum),
    (optimizers.NesterovAG, {'lr': 0.1}, _nesterov),
    (optimizers.AdaGrad, {'lr': 0.1}, _adagrad),
    (optimizers.AdaDelta, {}, _adadelta),
    (optimizers.RMSprop, {}, _rmsprop),
    (optimizers.RMSprop, {'eps_inside_sqrt': True, 'eps': 1e-2}, _rmsprop),
    (optimizers.RMSpropGraves, {'lr': 0.01}, _rmsprop_graves),
    (optimizers.SMORMS3, {'lr': 0.01}, _smorms3),
    (optimizers.Adam, {}, _adam),
    (optimizers.Adam, {'alpha': 0.1, 'weight_decay_rate': 0.01, 'eta': 0.5}, _adam),
    (optimizers.Adam, {'amsgrad': True}, _adam),
    (optimizers.Adam, {'adabound': True}, _adam),
    (optimizers.AdamW, {'weight_decay_rate': 0.1}, _adam),
    (optimizers.AMSGrad, {}, lambda *a, **k: _adam(*a, amsgrad=True, **k)),
    (optimizers.AdaBound, {'final_lr': 0.5}, lambda *a, **k: _adam(*a, adabound=True, **k)),
    (optimizers.AMSBound, {}, lambda *a, **k: _adam(*a, amsgrad=True, adabound=True, **k)),
    (optimizers.MSVAG, {}, _msvag),
    (optimizers.MSVAG, {'weight_decay_rate': 0.1}, _msvag),
]


@pytest.mark.parametrize('shape', [(3, 4), ()])   # 0-d: NumPy returns scalars, not arrays
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
@pytest.mark.parametrize('cls, kwargs, reference', CASES,
                         ids=[f'{c.__name__}-{i}' for i, (c, _, _) in enumerate(CASES)])
def test_rule_follows_its_formula(cls, kwargs, reference, dtype, shape):
    rng = numpy.random.RandomState(0)
    p0 = numpy.asarray(rng.uniform(-1, 1, shape))
    param = chainer.Parameter(p0.astype(dtype))
    rule = cls(**kwargs).create_update_rule()
    expected, state = p0.copy(), {}
    for t in range(1, 6):
        g = numpy.asarray(rng.uniform(-1, 1, shape))
        param.grad = g.astype(dtype)
        rule.update(param)
        expected = reference(expected, g, state, t, **kwargs)
        assert rule.t == t
    tol = 1e-5 if dtype == numpy.float32 else 1e-10
    if cls is optimizers.MSVAG and dtype == numpy.float32:
        tol = 1e-3  # its variance estimate v - m ** 2 cancels digits
    numpy.testing.assert_allclose(param.array, expected, rtol=tol, atol=tol)
    assert param.array.dtype == dtype
    # The state holds what the formula keeps, under Chainer's names.
    assert sorted(rule.state) == sorted(state)


@pytest.mark.parametrize('cls', [c for c, _, _ in CASES])
def test_rule_without_grad_changes_nothing(cls):
    param = chainer.Parameter(numpy.ones(3, numpy.float32))
    rule = cls().create_update_rule()
    rule.update(param)
    numpy.testing.assert_array_equal(param.array, numpy.ones(3))


def test_adam_learning_rate_properties():
    opt = optimizers.Adam(alpha=0.1)
    with pytest.raises(RuntimeError):
        opt.alpha_t
    opt.t = 2
    expected = 0.1 * math.sqrt(1 - 0.999 ** 2) / (1 - 0.9 ** 2)
    assert opt.alpha_t == pytest.approx(expected)
    with pytest.warns(DeprecationWarning):
        assert opt.lr == pytest.approx(expected)
    rule = opt.create_update_rule()
    rule.t = 2
    assert rule.alpha_t == pytest.approx(expected)


def test_adabound_bounds_follow_alpha_changes():
    opt = optimizers.AdaBound(alpha=0.01, final_lr=0.1, gamma=0.5)
    rule = opt.create_update_rule()
    param = chainer.Parameter(numpy.zeros(2, numpy.float32))
    param.grad = numpy.ones(2, numpy.float32)
    rule.update(param)
    assert rule.bounds == pytest.approx((0.1 * (1 - 1 / 1.5), 0.1 * 3))
    opt.alpha = 0.005  # a schedule halves alpha: the final learning rate follows
    assert rule.bounds[0] == pytest.approx(0.05 * (1 - 1 / 1.5))


def test_hyperparameters_are_inherited_and_overridable():
    opt = optimizers.MomentumSGD(lr=0.5)
    rule = opt.create_update_rule()
    assert rule.hyperparam.lr == 0.5
    opt.lr = 0.25
    assert rule.hyperparam.lr == 0.25
    rule.hyperparam.lr = 1.0
    assert opt.lr == 0.25 and rule.hyperparam.lr == 1.0
    assert opt.hyperparam.get_dict() == {'lr': 0.25, 'momentum': 0.9}


def test_optimizer_module_paths():
    for name in ('AdaDelta', 'AdaGrad', 'Adam', 'AdamW', 'AMSGrad', 'AdaBound', 'AMSBound',
                 'CorrectedMomentumSGD', 'MomentumSGD', 'NesterovAG', 'MSVAG', 'RMSprop',
                 'RMSpropGraves', 'SGD', 'SMORMS3'):
        cls = getattr(optimizers, name)
        assert cls.__module__.startswith('chainer.optimizers.')
        assert isinstance(cls(), chainer.optimizer.GradientMethod)


class _ComputedHyperparameter(chainer.optimizer.Hyperparameter):
    """A set whose ``alpha`` is computed: the rules must read it through attributes."""

    @property
    def alpha(self):
        return 0.5


def _adam_step(rule, param):
    param.grad = numpy.full(3, 0.5, numpy.float32)
    rule.update(param)
    return param.array.copy()


@pytest.mark.parametrize('where', ['rule', 'optimizer', 'computed', 'alpha_t'])
def test_adam_reads_hyperparameters_from_anywhere_in_the_chain(where):
    # The expected step comes from the formula with alpha = 0.5 at t = 1.
    opt = optimizers.Adam()
    rule = opt.create_update_rule()
    if where == 'rule':
        rule.hyperparam.alpha = 0.5
    elif where == 'optimizer':
        opt.alpha = 0.5
    elif where == 'computed':
        rule.hyperparam._parent = _ComputedHyperparameter(opt.hyperparam)
    else:
        class HalfAlphaRule(optimizers.adam.AdamRule):
            @property
            def alpha_t(self):     # a subclass's step size is the one used
                return 0.5 * math.sqrt(1 - 0.999 ** self.t) / (1 - 0.9 ** self.t)
        rule = HalfAlphaRule(opt.hyperparam)
    param = chainer.Parameter(numpy.zeros(3, numpy.float32))
    got = _adam_step(rule, param)
    m, v = 0.1 * 0.5, 0.001 * 0.25
    alpha_t = 0.5 * math.sqrt(1 - 0.999) / (1 - 0.9)
    numpy.testing.assert_allclose(got, -alpha_t * m / (math.sqrt(v) + 1e-8), rtol=1e-6)


def test_adam_missing_hyperparameter_is_named():
    parent = chainer.optimizer.Hyperparameter()
    for name, value in optimizers.Adam().hyperparam.get_dict().items():
        if name != 'alpha':
            setattr(parent, name, value)
    rule = optimizers.adam.AdamRule(parent)
    param = chainer.Parameter(numpy.zeros(3, numpy.float32))
    with pytest.raises(AttributeError, match="'alpha'"):
        _adam_step(rule, param)


def test_rule_hooks_added_during_an_update_run_in_it():
    rule = optimizers.SGD().create_update_rule()
    calls = []

    def post(rule, param):
        calls.append('post')

    def pre(rule, param):
        calls.append('pre')
        if 'post' not in rule._hooks._post:
            rule.add_hook(post, name='post', timing='post')
    rule.add_hook(pre, name='pre', timing='pre')
    param = chainer.Parameter(numpy.zeros(3, numpy.float32))
    param.grad = numpy.ones(3, numpy.float32)
    rule.update(param)
    rule.update(param)
    assert calls == ['pre', 'post', 'pre', 'post']


def _recorded_steps():
    from fixtures import make_optimizer_steps as fixture
    path = os.path.join(os.path.dirname(fixture.__file__), 'optimizer_steps.npz')
    with numpy.load(path) as recorded:
        return fixture, {k: recorded[k] for k in recorded.files}


_FIXTURE, _RECORDED = _recorded_steps()


@pytest.mark.parametrize('name,kwargs', _FIXTURE.CASES,
                         ids=[_FIXTURE.key(n, kw) for n, kw in _FIXTURE.CASES])
def test_updates_round_as_chainer_does(name, kwargs):
    # Chainer 7.8.1's parameter after the same seeded updates (tests/fixtures/
    # make_optimizer_steps.py), compared bit for bit: the order of each formula's
    # operations decides the rounding.
    got = _FIXTURE.run(name, kwargs)
    numpy.testing.assert_array_equal(got, _RECORDED[_FIXTURE.key(name, kwargs)])
