"""The optimizer framework: hyperparameters, update rules, hooks, serialization, loss scaling."""
import copy
import pickle
import warnings

import numpy
import pytest

import chainer
from chainer import optimizer
from chainer import optimizers
from chainer import serializer


class _Recorder(optimizer.UpdateRule):
    """A rule that records which implementation ran and keeps one state array."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.calls = []

    def init_state(self, param):
        self.state['acc'] = numpy.zeros_like(param.array)

    def update_core_cpu(self, param):
        self.calls.append(('cpu', param))
        if param.grad is not None:
            self.state['acc'] += param.grad


class _TwoStates(_Recorder):

    def init_state(self, param):
        super().init_state(param)
        self.state['extra'] = numpy.ones_like(param.array)


def _param(value=(1., 2., 3.), grad=(1., 1., 1.), dtype=numpy.float32):
    p = chainer.Parameter(numpy.array(value, dtype))
    if grad is not None:
        p.grad = numpy.array(grad, dtype)
    return p


class TestHyperparameter:

    def setup_method(self):
        self.parent = optimizer.Hyperparameter()
        self.parent.a = 1
        self.parent.b = 2
        self.child = optimizer.Hyperparameter(self.parent)
        self.child.b = 20

    def test_lookup_falls_back_to_the_parent(self):
        assert (self.child.a, self.child.b) == (1, 20)
        assert self.child.parent is self.parent
        assert not hasattr(self.parent, 'c')
        self.parent.c = 3
        assert self.child.c == 3

    def test_get_dict_and_repr(self):
        assert self.child.get_dict() == {'a': 1, 'b': 20}
        assert repr(self.child) == 'Hyperparameter(a=1, b=20)'

    def test_copies_keep_the_relation(self):
        parent, child = copy.deepcopy([self.parent, self.child])
        assert child.parent is parent and child.get_dict() == {'a': 1, 'b': 20}
        child2 = pickle.loads(pickle.dumps(self.child))
        assert child2.get_dict() == {'a': 1, 'b': 20}

    def test_proxy(self):
        opt = optimizers.SGD(lr=0.5)
        assert opt.lr == 0.5
        opt.lr = 0.1
        assert opt.hyperparam.lr == 0.1
        assert isinstance(optimizers.SGD.lr, optimizer.HyperparameterProxy)


class TestUpdateRule:

    def test_dispatch_counts_and_state(self):
        rule = _Recorder()
        p = _param()
        rule.update(p)
        rule.update(p)
        assert rule.t == 2 and [c[0] for c in rule.calls] == ['cpu', 'cpu']
        numpy.testing.assert_array_equal(rule.state['acc'], [2, 2, 2])

    def test_disabled_rule_does_nothing(self):
        rule = _Recorder()
        rule.enabled = False
        rule.update(_param())
        assert rule.t == 0 and rule.calls == [] and rule.state is None

    def test_hooks_see_rule_and_param_in_order(self):
        rule = _Recorder()
        seen = []

        def pre(r, p):
            seen.append(('pre', r, p, len(rule.calls)))

        class Post:
            name = 'post_hook'
            timing = 'post'

            def __call__(self, r, p):
                seen.append(('post', r, p, len(rule.calls)))

        rule.add_hook(pre)
        rule.add_hook(Post())
        p = _param()
        rule.update(p)
        assert seen == [('pre', rule, p, 0), ('post', rule, p, 1)]
        rule.remove_hook('pre')
        rule.remove_hook('post_hook')
        rule.update(p)
        assert len(seen) == 2

    def test_hook_errors(self):
        rule = _Recorder()
        with pytest.raises(TypeError):
            rule.add_hook(1)

        class Nameless:
            def __call__(self, r, p):
                pass

        with pytest.raises(ValueError):
            rule.add_hook(Nameless())
        rule.add_hook(lambda r, p: None, name='h')
        with pytest.raises(KeyError):
            rule.add_hook(lambda r, p: None, name='h')
        with pytest.raises(KeyError):
            rule.remove_hook('nope')
        with pytest.raises(ValueError):
            rule.add_hook(lambda r, p: None, name='x', timing='middle')

    def test_loss_scale_is_divided_out(self):
        rule = optimizers.SGD(lr=1.0).create_update_rule()
        p = _param(grad=(4., 8., 12.))
        p._loss_scale = 4.0
        rule.update(p)
        numpy.testing.assert_allclose(p.array, [0, 0, 0])

    def test_fp32_update_keeps_small_steps(self):
        # 1e-4 steps vanish in float16 around 1.0; the float32 master copy accumulates them.
        rule = optimizers.SGD(lr=1e-4).create_update_rule()
        rule.use_fp32_update()
        p = _param(value=(1.,), grad=(1.,), dtype=numpy.float16)
        for _ in range(100):
            p.grad = numpy.ones(1, numpy.float16)
            rule.update(p)
        assert p.dtype == numpy.float16
        assert float(p.array[0]) == pytest.approx(0.99, abs=1e-3)
        plain = optimizers.SGD(lr=1e-4).create_update_rule()
        q = _param(value=(1.,), grad=(1.,), dtype=numpy.float16)
        for _ in range(100):
            q.grad = numpy.ones(1, numpy.float16)
            plain.update(q)
        assert float(q.array[0]) == 1.0

    def test_fp32_update_of_uninitialized_param(self):
        rule = optimizer.UpdateRule()
        seen = []
        rule.update_core = lambda param: seen.append(param)
        rule.use_fp32_update()
        p = chainer.Parameter(chainer.initializers.Zero(numpy.float16))
        rule.update(p)
        assert seen[0] is not p and seen[0].dtype == numpy.float32
        assert p.array is None and p.dtype == numpy.float16


class _DictDeserializer(serializer.Deserializer):

    def __init__(self, target):
        self.target = target

    def __getitem__(self, key):
        raise NotImplementedError

    def __call__(self, key, value):
        loaded = self.target[key]
        if value is None:
            return loaded
        if isinstance(value, numpy.ndarray):
            numpy.copyto(value, loaded)
            return value
        return type(value)(loaded)


class TestUpdateRuleSerialize:

    def test_load_into_fresh_rule_finds_state_keys(self):
        rule = _Recorder()
        rule.serialize(_DictDeserializer({'t': 7, 'acc': numpy.arange(3.)}))
        assert rule.t == 7
        numpy.testing.assert_array_equal(rule.state['acc'], [0, 1, 2])

    def test_partly_missing_state_is_an_error_when_enabled(self):
        saved = {'t': 7, 'acc': numpy.arange(3.)}
        with pytest.raises(KeyError):
            _TwoStates().serialize(_DictDeserializer(saved))
        rule = _TwoStates()
        rule.enabled = False
        rule.serialize(_DictDeserializer(saved))
        assert rule.t == 7 and rule.state is None

    def test_state_saved_before_initialization_loads(self):
        # A rule whose parameter was uninitialized saves only 't' (Chainer 7 cannot read that
        # back); the state then stays None until the first update.
        for rule in (_Recorder(), _TwoStates()):
            rule.serialize(_DictDeserializer({'t': 7}))
            assert rule.t == 7 and rule.state is None

    def test_none_state_stays_uninitialized(self):
        rule = _Recorder()
        rule.serialize(_DictDeserializer({'t': 3, 'acc': None}))
        assert rule.state is None

    def test_save_writes_t_then_state(self):
        from chainer.serializers import npz
        rule = _Recorder()
        rule.update(_param())
        s = npz.DictionarySerializer()
        rule.serialize(s)
        assert list(s.target) == ['t', 'acc']


class TestOptimizerBase:

    def test_new_epoch(self):
        opt = optimizer.Optimizer()
        opt.new_epoch()
        assert opt.epoch == 1
        with pytest.raises(RuntimeError):
            opt.new_epoch(auto=True)
        opt.use_auto_new_epoch = True
        opt.new_epoch(auto=True)
        assert opt.epoch == 2
        with pytest.raises(RuntimeError):
            opt.new_epoch()

    def test_hooks_need_setup(self):
        with pytest.raises(RuntimeError):
            optimizer.Optimizer().add_hook(lambda o: None, 'h')

    def test_setup_refuses_non_links(self):
        with pytest.raises(TypeError):
            optimizers.SGD().setup(object())

    def test_loss_scaling_settings(self):
        opt = optimizers.SGD()
        opt.loss_scaling()
        assert opt._loss_scale == 1.0 and opt._loss_scaling_is_dynamic
        opt.loss_scaling(scale=8.0)
        assert opt._loss_scale == 8.0 and not opt._loss_scaling_is_dynamic

    @pytest.mark.parametrize('name', ['WeightDecay', 'Lasso', 'GradientClipping',
                                      'GradientNoise', 'GradientHardClipping'])
    def test_deprecated_hook_names_warn(self, name):
        cls = getattr(chainer.optimizer, name)
        args = (1., 2.) if name == 'GradientHardClipping' else (1.,)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter('always')
            hook = cls(*args)
        assert [x.category for x in w] == [DeprecationWarning]
        assert isinstance(hook, getattr(chainer.optimizer_hooks, name))
