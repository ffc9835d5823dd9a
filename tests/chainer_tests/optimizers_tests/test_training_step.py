"""Optimizers on links: update(lossfun), hooks, loss scaling, and training a small MLP."""
import warnings

import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import links as L
from chainer import optimizer_hooks
from chainer import optimizers
from chainer.serializers import npz


class MLP(chainer.Chain):

    def __init__(self, n_in=4, n_hidden=16, n_out=3):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(n_in, n_hidden)
            self.l2 = L.Linear(n_hidden, n_out)

    def forward(self, x):
        return self.l2(F.tanh(self.l1(x)))


def _data(n=64, seed=0):
    rng = numpy.random.RandomState(seed)
    x = rng.randn(n, 4).astype(numpy.float32)
    t = (x[:, 0] > 0).astype(numpy.int32) + (x[:, 1] > 0).astype(numpy.int32)
    return x, t


def _loss(model, x, t):
    # Mean squared error against one-hot targets: no loss function needed from functions part 3.
    y = model(x)
    onehot = numpy.eye(3, dtype=numpy.float32)[t]
    return F.sum(F.square(y - onehot)) / len(x)


# Each optimizer, its settings, and the loss it must reach within 300 steps on this problem.
TRAINING = [
    (optimizers.SGD, {'lr': 0.1}, 0.35),
    (optimizers.MomentumSGD, {'lr': 0.05}, 0.3),
    (optimizers.CorrectedMomentumSGD, {'lr': 0.05}, 0.3),
    (optimizers.NesterovAG, {'lr': 0.05}, 0.3),
    (optimizers.AdaGrad, {'lr': 0.1}, 0.3),
    (optimizers.AdaDelta, {}, 0.45),
    (optimizers.RMSprop, {'lr': 0.01}, 0.3),
    (optimizers.RMSpropGraves, {'lr': 0.001}, 0.3),
    (optimizers.SMORMS3, {'lr': 0.01}, 0.3),
    (optimizers.Adam, {'alpha': 0.01}, 0.3),
    (optimizers.AdamW, {'alpha': 0.01, 'weight_decay_rate': 1e-4}, 0.3),
    (optimizers.AMSGrad, {'alpha': 0.01}, 0.3),
    (optimizers.AdaBound, {'alpha': 0.01}, 0.3),
    (optimizers.AMSBound, {'alpha': 0.01}, 0.3),
    (optimizers.MSVAG, {'lr': 0.1}, 0.35),
]


@pytest.mark.parametrize('cls, kwargs, target', TRAINING,
                         ids=[c.__name__ for c, _, _ in TRAINING])
def test_trains_a_small_mlp(cls, kwargs, target):
    numpy.random.seed(0)
    model = MLP()
    opt = cls(**kwargs)
    opt.setup(model)
    x, t = _data()
    first = float(_loss(model, x, t).array)
    for _ in range(300):
        opt.update(_loss, model, x, t)
    last = float(_loss(model, x, t).array)
    assert last < target < first, (first, last)
    assert opt.t == 300


def test_update_with_lossfun_clears_and_backprops():
    model = MLP()
    opt = optimizers.SGD(lr=0.0)
    opt.setup(model)
    x, t = _data()
    model.l1.W.grad = numpy.full_like(model.l1.W.array, 100.)  # stale: must be cleared
    opt.update(_loss, model, x, t)
    model2 = model.copy(mode='copy')
    model2.cleargrads()
    _loss(model2, x, t).backward()
    numpy.testing.assert_allclose(model.l1.W.grad, model2.l1.W.grad, rtol=1e-6)


def test_update_without_lossfun_uses_existing_grads_and_reallocates():
    model = MLP()
    opt = optimizers.SGD(lr=1.0)
    opt.setup(model)
    before = model.l1.W.array.copy()
    model.cleargrads()
    opt.update()  # no gradients: zeros are allocated, nothing moves
    numpy.testing.assert_array_equal(model.l1.W.array, before)
    assert model.l1.W.grad is not None and not model.l1.W.grad.any()


def test_setup_gives_each_param_a_rule_inheriting_hyperparams():
    model = MLP()
    opt = optimizers.MomentumSGD(lr=0.5).setup(model)
    rules = [p.update_rule for p in model.params()]
    assert len(set(map(id, rules))) == 4
    assert all(r.hyperparam.parent is opt.hyperparam for r in rules)
    model.l1.W.update_rule.hyperparam.lr = 0.0
    x, t = _data()
    before = model.l1.W.array.copy()
    opt.update(_loss, model, x, t)
    numpy.testing.assert_array_equal(model.l1.W.array, before)
    assert not numpy.array_equal(model.l2.W.array, MLP().l2.W.array)


def test_disable_update_freezes_a_link():
    model = MLP()
    opt = optimizers.SGD(lr=0.5).setup(model)
    model.l1.disable_update()
    before1, before2 = model.l1.W.array.copy(), model.l2.W.array.copy()
    x, t = _data()
    opt.update(_loss, model, x, t)
    numpy.testing.assert_array_equal(model.l1.W.array, before1)
    assert not numpy.array_equal(model.l2.W.array, before2)


def test_optimizer_hooks_order_and_per_param_calls():
    model = MLP()
    opt = optimizers.SGD().setup(model)
    calls = []
    opt.add_hook(lambda o: calls.append(('pre', o.t)), name='pre', timing='pre')
    opt.add_hook(lambda o: calls.append(('post', o.t)), name='post', timing='post')

    class PerParam:
        name = 'per_param'
        call_for_each_param = True

        def __call__(self, rule, param):
            calls.append(('param', param.shape))

    opt.add_hook(PerParam())
    opt.update(_loss, model, *_data())
    assert calls[0] == ('pre', 0) and calls[-1] == ('post', 1)
    assert sorted(c[1] for c in calls if c[0] == 'param') == [(3,), (3, 16), (16,), (16, 4)]
    with pytest.raises(KeyError):
        opt.add_hook(lambda o: None, name='pre')
    opt.remove_hook('pre')
    with pytest.raises(KeyError):
        opt.remove_hook('pre')


def test_weight_decay_hook_matches_manual_decay():
    model = MLP()
    ref = model.copy(mode='copy')
    opt = optimizers.SGD(lr=0.1).setup(model)
    opt.add_hook(optimizer_hooks.WeightDecay(0.01))
    x, t = _data()
    opt.update(_loss, model, x, t)
    ref.cleargrads()
    _loss(ref, x, t).backward()
    for p in ref.params():
        p.array -= 0.1 * (p.grad + 0.01 * p.array)
    for (_, p), (_, q) in zip(model.namedparams(), ref.namedparams()):
        numpy.testing.assert_allclose(p.array, q.array, rtol=1e-5, atol=1e-7)


class _Injected:
    """A loss function that can make the next backward produce inf gradients."""

    def __init__(self, model):
        self.model = model
        self.poison = False

    def __call__(self, x, t):
        loss = _loss(self.model, x, t)
        if self.poison:
            loss = loss * numpy.float32(numpy.inf)
        return loss


def test_dynamic_loss_scaling_skips_halves_and_grows():
    model = MLP()
    opt = optimizers.SGD(lr=0.01).setup(model)
    opt.loss_scaling(interval=2)
    lossfun = _Injected(model)
    x, t = _data()
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        scales = []
        for _ in range(3):
            opt.update(lossfun, x, t)
            scales.append(opt._loss_scale)
        assert scales == [2.0, 4.0, 8.0]  # doubles while no overflow was ever seen
        before = model.l1.W.array.copy()
        lossfun.poison = True
        with pytest.warns(UserWarning, match='Non finite'):
            opt.update(lossfun, x, t)
        numpy.testing.assert_array_equal(model.l1.W.array, before)  # skipped
        assert opt._loss_scale == 4.0  # halved
        assert model.l1.W.update_rule.t == 3 and opt.t == 4
        lossfun.poison = False
        opt.update(lossfun, x, t)
        opt.update(lossfun, x, t)
        assert opt._loss_scale == pytest.approx(8.0)  # doubled over `interval` good steps
    assert not numpy.array_equal(model.l1.W.array, before)


def test_static_loss_scale_gives_same_update():
    x, t = _data()
    results = []
    for scale in (None, 128.0):
        numpy.random.seed(1)
        model = MLP()
        opt = optimizers.Adam().setup(model)
        if scale is not None:
            opt.loss_scaling(scale=scale)
        for _ in range(3):
            opt.update(_loss, model, x, t)
        results.append(model.l1.W.array.copy())
    numpy.testing.assert_allclose(results[0], results[1], rtol=1e-4, atol=1e-6)


def test_optimizer_serialization_layout():
    model = MLP()
    opt = optimizers.Adam(amsgrad=True).setup(model)
    opt.update(_loss, model, *_data())
    keys = list(npz.serialize(opt))
    assert keys[:2] == ['t', 'epoch']
    assert keys[2:6] == ['l1/W/t', 'l1/W/m', 'l1/W/v', 'l1/W/vhat']
    assert set(keys) == {'t', 'epoch'} | {f'{p}/{k}' for p in ('l1/W', 'l1/b', 'l2/W', 'l2/b')
                                          for k in ('t', 'm', 'v', 'vhat')}


def test_optimizer_round_trip_continues_identically(tmp_path):
    x, t = _data()
    numpy.random.seed(3)
    model = MLP()
    opt = optimizers.Adam(alpha=0.01).setup(model)
    for _ in range(3):
        opt.update(_loss, model, x, t)
    chainer.serializers.save_npz(str(tmp_path / 'm.npz'), model)
    chainer.serializers.save_npz(str(tmp_path / 'o.npz'), opt)
    model2 = MLP()
    opt2 = optimizers.Adam(alpha=0.01).setup(model2)
    chainer.serializers.load_npz(str(tmp_path / 'm.npz'), model2)
    chainer.serializers.load_npz(str(tmp_path / 'o.npz'), opt2)
    assert opt2.t == 3 and model2.l1.W.update_rule.t == 3
    for _ in range(2):
        opt.update(_loss, model, x, t)
        opt2.update(_loss, model2, x, t)
    numpy.testing.assert_array_equal(model.l1.W.array, model2.l1.W.array)


def test_failed_model_load_leaves_model_unchanged(tmp_path):
    model = MLP()
    target = npz.serialize(model)
    target['l2/W'] = numpy.zeros((5, 5), numpy.float32)
    path = str(tmp_path / 'bad.npz')
    numpy.savez(path, **target)
    fresh = MLP()
    before = {k: v.copy() for k, v in npz.serialize(fresh).items()}
    with pytest.raises(ValueError, match='l2/W'):
        chainer.serializers.load_npz(path, fresh)
    for k, v in npz.serialize(fresh).items():
        numpy.testing.assert_array_equal(v, before[k])


def test_load_initializes_lazy_params(tmp_path):
    model = MLP()
    path = str(tmp_path / 'm.npz')
    chainer.serializers.save_npz(path, model)
    lazy = chainer.Chain()
    with lazy.init_scope():
        lazy.l1 = L.Linear(None, 16)
        lazy.l2 = L.Linear(None, 3)
    chainer.serializers.load_npz(path, lazy)
    numpy.testing.assert_array_equal(lazy.l1.W.array, model.l1.W.array)
