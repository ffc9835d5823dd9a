"""Adam updates its small parameters together, on flat views of their states.

Each case runs the same updates twice, together and one parameter at a time, and requires
the same parameters, states and step counts, bit for bit. The tweaks are the reasons for a
parameter to leave the group (or for the layout to be built again), applied before one of
the updates.
"""
import copy
import io
import pickle

import numpy
import pytest

import chainer
from chainer import optimizers
from chainer import serializers
from chainer.optimizers import _util

SHAPES = [(3, 4), (4,), (), (5, 5), (_util.SMALL + 1,), (2, 3, 2)]
N_SMALL = 5     # all but the one above SMALL
STEPS = 6


class _Params(chainer.Link):

    def __init__(self):
        super().__init__()
        rng = numpy.random.RandomState(0)
        with self.init_scope():
            for i, shape in enumerate(SHAPES):
                setattr(self, f'p{i}', chainer.Parameter(
                    numpy.asarray(rng.randn(*shape), numpy.float32)))


def _save_and_load(model, opt):
    buf = io.BytesIO()
    serializers.save_npz(buf, opt)
    buf.seek(0)
    serializers.load_npz(buf, opt)


def _replace_state(model, opt):
    rule = model.p5.update_rule
    rule.state['m'] = rule.state['m'] * 1.5


def _state_to_float64(model, opt):
    rule = model.p1.update_rule
    rule.state['v'] = rule.state['v'].astype(numpy.float64)


def _to_float64(model, opt):
    model.p3.array = model.p3.array.astype(numpy.float64)
    model.p3.grad = model.p3.grad.astype(numpy.float64)


def _hook(rule, param):
    param.grad *= 0.5


def _setattr(get, name, value):
    return lambda model, opt: setattr(get(model, opt), name, value)


# (case, optimizer, tweak, the update before which it applies)
CASES = [
    ('plain', optimizers.Adam, None, 0),
    ('eta', lambda: optimizers.Adam(alpha=0.01, eta=0.5), None, 0),
    ('AdamW', lambda: optimizers.AdamW(weight_decay_rate=0.1, eta=2.0), None, 0),
    ('AMSGrad', optimizers.AMSGrad, None, 0),
    ('own hyperparameter', optimizers.Adam,
     _setattr(lambda m, o: m.p0.update_rule.hyperparam, 'alpha', 0.01), 2),
    ('optimizer hyperparameters', optimizers.Adam,
     lambda m, o: (setattr(o, 'alpha', 0.003), setattr(o, 'eta', 0.5)), 3),
    ('rule hook', optimizers.Adam, lambda m, o: m.p1.update_rule.add_hook(_hook), 2),
    ('disabled rule', optimizers.Adam, _setattr(lambda m, o: m.p3.update_rule, 'enabled', False),
     2),
    ('rule t apart', optimizers.Adam, lambda m, o: setattr(m.p3.update_rule, 't', 7), 2),
    ('cleared gradient', optimizers.Adam, _setattr(lambda m, o: m.p1, 'grad', None), 3),
    ('loss scale', optimizers.Adam, _setattr(lambda m, o: m.p0, '_loss_scale', 4.0), 3),
    ('state replaced', optimizers.Adam, _replace_state, 3),
    ('state loaded', optimizers.Adam, _save_and_load, 3),
    ('state of another dtype', optimizers.Adam, _state_to_float64, 3),
    ('array to float64', optimizers.Adam, _to_float64, 3),
]


def _run(make, tweak, at, together):
    model = _Params()
    opt = make()
    opt.setup(model)
    if not together:
        opt._update_together = lambda params: params    # each parameter on its own
    rng = numpy.random.RandomState(1)
    for step in range(STEPS):
        for p in model.params():
            p.grad = numpy.asarray(rng.randn(*p.shape), p.dtype)
        if tweak is not None and step == at:
            tweak(model, opt)
        opt.update()
    return model, opt


def _result(model):
    out = {}
    for name, p in model.namedparams():
        out[name] = p.array
        out[name + ':t'] = numpy.asarray(p.update_rule.t)
        for key, value in p.update_rule.state.items():
            out[f'{name}:{key}'] = value
    return out


@pytest.mark.parametrize('case,make,tweak,at', CASES, ids=[c[0] for c in CASES])
def test_together_equals_one_by_one(case, make, tweak, at):
    got = _result(_run(make, tweak, at, True)[0])
    expected = _result(_run(make, tweak, at, False)[0])
    assert got.keys() == expected.keys()
    for key in expected:
        assert got[key].dtype == expected[key].dtype, key
        numpy.testing.assert_array_equal(got[key], expected[key], err_msg=key)


@pytest.mark.parametrize('make,n_together', [
    (optimizers.Adam, N_SMALL), (optimizers.AdamW, N_SMALL), (optimizers.AMSGrad, None),
    (optimizers.AdaBound, None)])
def test_which_are_updated_together(make, n_together):
    model, opt = _run(make, None, 0, True)
    layout = opt._flat_states
    if n_together is None:      # AMSGrad's and AdaBound's steps are their rules' own
        assert layout is None
        return
    assert len(layout.rules) == n_together
    small = [p for p in model.params() if p.size <= _util.SMALL]
    for p, m in zip(small, layout.views[0]):
        assert p.update_rule.state['m'] is m
        assert numpy.shares_memory(m, layout.flats[0])


@pytest.mark.parametrize('copier', [copy.deepcopy, lambda o: pickle.loads(pickle.dumps(o))],
                         ids=['deepcopy', 'pickle'])
def test_copies_build_their_own_layout(copier):
    model, opt = _run(optimizers.Adam, None, 0, True)
    twin = copier((model, opt))
    # The copies' states are arrays of their own: the copied layout matches none of them.
    assert twin[1]._flat_states.rules == []
    rng = numpy.random.RandomState(2)
    for _ in range(2):
        for p, q in zip(model.params(), twin[0].params()):
            q.grad = p.grad = numpy.asarray(rng.randn(*p.shape), numpy.float32)
        opt.update()
        twin[1].update()
    a, b = _result(model), _result(twin[0])
    for key in a:
        numpy.testing.assert_array_equal(a[key], b[key], err_msg=key)
    assert len(twin[1]._flat_states.rules) == N_SMALL
    assert not numpy.shares_memory(opt._flat_states.flats[0], twin[1]._flat_states.flats[0])
