"""Behaviour of the rnn links beyond the reference outputs (test_reference.py):
gradients over parameters, lazy initialization, states, copies, devices,
serialization and bad input."""
import numpy
import pytest

import chainer
from chainer import gradient_check
import chainer.functions as F
import chainer.links as L
from chainer.utils import type_check

IN, OUT, B = 3, 4, 2
_GRAD = {'dtype': numpy.float64, 'atol': 1e-3, 'rtol': 1e-3}


def _rand(*shape):
    return numpy.random.uniform(-1, 1, shape).astype(numpy.float32)


def _params(link):
    return tuple(link.params())


def _test_mode(f):
    # zoneout draws its masks in training only
    with chainer.using_config('train', False):
        return f()


# name -> (constructor, function of (link, *inputs) -> outputs, input shapes)
def _stateful_with_state(states):
    def run(link, *args):
        vs = [chainer.as_variable(a) for a in args[:len(states)]]
        link.reset_state()
        if vs:
            link.set_state(*vs)
        return link(args[-1])
    return run


BACKWARD_CASES = {
    'StatelessLSTM': (lambda: L.StatelessLSTM(IN, OUT), lambda l, c, h, x: l(c, h, x),
                      [(B, OUT), (B, OUT), (B, IN)]),
    'LSTM': (lambda: L.LSTM(IN, OUT), _stateful_with_state('ch'),
             [(B, OUT), (B, OUT), (B, IN)]),
    'StatelessGRU': (lambda: L.StatelessGRU(IN, OUT), lambda l, h, x: l(h, x),
                     [(B, OUT), (B, IN)]),
    'StatefulGRU': (lambda: L.StatefulGRU(IN, OUT), _stateful_with_state('h'),
                    [(B, OUT), (B, IN)]),
    'StatefulGRU_first': (lambda: L.StatefulGRU(IN, OUT), _stateful_with_state(''), [(B, IN)]),
    'StatelessMGU': (lambda: L.StatelessMGU(IN, OUT), lambda l, h, x: l(h, x),
                     [(B, OUT), (B, IN)]),
    'StatefulMGU': (lambda: L.StatefulMGU(IN, OUT), _stateful_with_state('h'),
                    [(B, OUT), (B, IN)]),
    'StatefulPeepholeLSTM': (lambda: L.StatefulPeepholeLSTM(IN, OUT),
                             lambda l, x: (l.reset_state(), l(x), l(x))[-1], [(B, IN)]),
    'StatefulZoneoutLSTM': (lambda: L.StatefulZoneoutLSTM(IN, OUT),
                            lambda l, x: _test_mode(lambda: (l.reset_state(), l(x), l(x))[-1]),
                            [(B, IN)]),
    'ChildSumTreeLSTM': (lambda: L.ChildSumTreeLSTM(IN, OUT), lambda l, *a: l(*a),
                         [(B, OUT)] * 4 + [(B, IN)]),
    'NaryTreeLSTM': (lambda: L.NaryTreeLSTM(IN, OUT, 2), lambda l, *a: l(*a),
                     [(B, OUT)] * 4 + [(B, IN)]),
}


def _nstep_run(link, hx, *xs):
    with chainer.using_config('train', False):
        if isinstance(link, (L.NStepLSTM, L.NStepBiLSTM)):
            hy, cy, ys = link(hx, hx * 0.5, list(xs))
            return (hy, cy) + tuple(ys)
        hy, ys = link(hx, list(xs))
        return (hy,) + tuple(ys)


for _name in ('NStepLSTM', 'NStepBiLSTM', 'NStepGRU', 'NStepBiGRU', 'NStepRNNTanh',
              'NStepBiRNNReLU'):
    _dirs = 2 if 'Bi' in _name else 1
    BACKWARD_CASES[_name] = (lambda c=_name: getattr(L, c)(2, IN, OUT, 0.0), _nstep_run,
                             [(2 * _dirs, 3, OUT), (2, IN), (3, IN), (1, IN)])


@pytest.mark.parametrize('name', sorted(BACKWARD_CASES))
def test_backward_over_inputs_and_params(name):
    numpy.random.seed(0)
    make, run, shapes = BACKWARD_CASES[name]
    link = make()
    inputs = [_rand(*s) for s in shapes]
    if name.startswith('NStepRNN') or name.startswith('NStepBiRNN'):
        # keep ReLU pre-activations off the kink
        for p in link.params():
            p.array[...] = p.array * 0.5
    outs = run(link, *inputs)
    outs = outs if isinstance(outs, tuple) else (outs,)
    gys = [_rand(*y.shape) for y in outs]
    gradient_check.check_backward(lambda *xs: run(link, *xs), inputs, gys,
                                  params=_params(link), **_GRAD)


@pytest.mark.parametrize('cls', [L.LSTM, L.StatelessLSTM, L.StatefulPeepholeLSTM,
                                 L.StatefulGRU, L.StatelessGRU])
def test_lazy_in_size(cls):
    link = cls(None, OUT)
    first = {'LSTM': 'upward', 'StatelessLSTM': 'upward', 'StatefulPeepholeLSTM': 'upward',
             'StatefulGRU': 'W', 'StatelessGRU': 'W'}[cls.__name__]
    assert getattr(link, first).W.array is None
    x = _rand(B, 5)
    if cls is L.StatelessLSTM:
        link(None, None, x)
    elif cls is L.StatelessGRU:
        link(_rand(B, OUT), x)
    else:
        link(x)
    assert getattr(link, first).W.shape[1] == 5


def test_lstm_single_size_is_lazy_and_flattens_input():
    link = L.LSTM(OUT)
    y = link(_rand(B, 2, 3))
    assert y.shape == (B, OUT)
    assert link.upward.W.shape == (4 * OUT, 6)


def test_lstm_wrong_input_size_after_lazy_init_names_the_link():
    link = L.LSTM(None, OUT)
    link(_rand(B, 5))
    with pytest.raises(type_check.InvalidType) as e:
        link(_rand(B, 6))
    assert 'LSTM' in str(e.value)


def test_lstm_initializers_follow_gate_layout():
    link = L.LSTM(IN, 2, lateral_init=0.1, upward_init=0.2, bias_init=0.3,
                  forget_bias_init=0.7)
    numpy.testing.assert_array_equal(
        link.upward.b.array, numpy.array([0.3, 0.3, 0.7, 0.3] * 2, numpy.float32))
    assert (link.upward.W.array == 0.2).all() and (link.lateral.W.array == 0.1).all()
    default = L.LSTM(IN, 2)
    numpy.testing.assert_array_equal(default.upward.b.array, [0, 0, 1, 0] * 2)


def test_lstm_batch_may_shrink_and_keeps_the_other_rows():
    link = L.LSTM(IN, OUT)
    link(_rand(3, IN))
    h_before = link.h.array.copy()
    y = link(_rand(2, IN))
    assert y.shape == (2, OUT) and link.h.shape == (3, OUT)
    numpy.testing.assert_array_equal(link.h.array[2], h_before[2])
    with pytest.raises(TypeError, match='LSTM'):
        link(_rand(4, IN))


@pytest.mark.parametrize('cls,states', [(L.LSTM, 'ch'), (L.StatefulGRU, 'h'),
                                        (L.StatefulMGU, 'h'), (L.StatefulZoneoutLSTM, 'ch')])
def test_set_and_reset_state(cls, states):
    link = cls(IN, OUT)
    values = [chainer.Variable(_rand(B, OUT)) for _ in states]
    link.set_state(*values)
    for s, v in zip(states, values):
        assert getattr(link, s) is v
    link.reset_state()
    assert all(getattr(link, s) is None for s in states)
    with pytest.raises(TypeError, match=cls.__name__):
        link.set_state(*[_rand(B, OUT) for _ in states])


def test_states_move_with_the_link():
    link = L.StatefulPeepholeLSTM(IN, OUT)
    link(_rand(B, IN))
    state = link.h
    link.to_device('@numpy')
    assert link.h is state and isinstance(link.h.array, numpy.ndarray)
    assert link.h.device == link.device


@pytest.mark.parametrize('name', ['LSTM', 'StatefulGRU', 'NStepLSTM', 'NStepBiGRU',
                                  'NaryTreeLSTM'])
def test_copy_keeps_names_and_nstep_lists(name):
    link = BACKWARD_CASES[name][0]()
    dup = link.copy('copy')
    assert [n for n, _ in dup.namedparams()] == [n for n, _ in link.namedparams()]
    for (_, p), (_, q) in zip(link.namedparams(), dup.namedparams()):
        assert p is not q
        numpy.testing.assert_array_equal(p.array, q.array)
    if hasattr(link, 'ws'):
        assert dup.ws[0][0] is dup[0].w0 and dup.bs[-1][-1] is getattr(dup[-1], 'b%d' % (
            link.n_weights - 1))


@pytest.mark.parametrize('name', ['LSTM', 'StatelessGRU', 'StatefulMGU', 'NStepBiLSTM',
                                  'ChildSumTreeLSTM', 'StatefulZoneoutLSTM'])
def test_serialization_round_trip(name, tmp_path):
    make = BACKWARD_CASES[name][0]
    src, dst = make(), make()
    path = str(tmp_path / 'link.npz')
    chainer.serializers.save_npz(path, src)
    chainer.serializers.load_npz(path, dst)
    for (n, p), (m, q) in zip(src.namedparams(), dst.namedparams()):
        assert n == m
        numpy.testing.assert_array_equal(p.array, q.array)


def test_nstep_shapes_and_unsorted_lengths():
    link = L.NStepBiLSTM(2, IN, OUT, 0.1)
    xs = [_rand(2, IN), _rand(5, IN), _rand(3, IN)]
    hy, cy, ys = link(None, None, xs)
    assert hy.shape == cy.shape == (4, 3, OUT)
    assert [y.shape for y in ys] == [(2, 2 * OUT), (5, 2 * OUT), (3, 2 * OUT)]
    # each sequence alone gives the same output as in the batch
    with chainer.using_config('train', False):
        _, _, ys = link(None, None, xs)
        _, _, alone = link(None, None, [xs[1]])
    numpy.testing.assert_allclose(ys[1].array, alone[0].array, rtol=1e-5, atol=1e-6)
    assert link.n_cells == 2 and L.NStepGRU(1, IN, OUT, 0.).n_cells == 1
    hx = link.init_hx(xs)
    assert hx.shape == (4, 3, OUT) and hx.dtype == numpy.float32


def test_nstep_bad_inputs_name_the_link():
    gru = L.NStepGRU(1, IN, OUT, 0.0)
    lstm = L.NStepLSTM(1, IN, OUT, 0.0)
    xs = [_rand(2, IN)]
    with pytest.raises(TypeError, match='NStepLSTM takes 3 inputs'):
        lstm(None, xs)
    with pytest.raises(TypeError, match='NStepGRU takes 2 inputs'):
        gru(None, None, xs)
    with pytest.raises(TypeError, match='NStepGRU requires xs to be a list'):
        gru(None, _rand(2, IN))
    with pytest.raises(ValueError, match='train argument'):
        gru(None, xs, train=True)
    with pytest.raises(ValueError, match='use_cudnn'):
        L.NStepGRU(1, IN, OUT, 0.0, use_cudnn=True)
    with pytest.raises(ValueError):
        gru(None, [_rand(2, IN + 1)])
    with pytest.raises(TypeError, match='NStepLSTM requires in_size'):
        L.NStepLSTM(1, None, OUT, 0.0)


def test_gru_takes_exactly_one_argument():
    gru = L.GRU(IN, OUT)
    with pytest.raises(ValueError, match='StatelessGRU'):
        gru(_rand(B, OUT), _rand(B, IN))
    with pytest.raises(ValueError):
        gru()
    assert gru(_rand(B, IN)).shape == (B, OUT)


def test_tree_lstm_none_inputs():
    link = L.NaryTreeLSTM(IN, OUT, 2)
    c, h = link(None, None, None, None, _rand(B, IN))
    assert c.shape == h.shape == (B, OUT)
    c, h = link(_rand(B, OUT), None, None, _rand(B, OUT), None)
    assert c.shape == (B, OUT)
    with pytest.raises(ValueError, match='NaryTreeLSTM'):
        link(None, None, None, None, None)
    with pytest.raises(ValueError, match='NaryTreeLSTM requires 5'):
        link(_rand(B, IN))
    leaf = L.ChildSumTreeLSTM(IN, OUT)
    c, h = leaf(_rand(B, IN))
    assert c.shape == (B, OUT)
    with pytest.raises(ValueError, match='ChildSumTreeLSTM'):
        leaf(None, None)


def test_zoneout_lstm_rejects_train_argument():
    with pytest.raises(ValueError, match='train argument'):
        L.StatefulZoneoutLSTM(IN, OUT, train=True)


class _LanguageModel(chainer.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.embed = L.EmbedID(1000, 200)
            self.lstm = L.LSTM(200, 200)
            self.out = L.Linear(200, 1000)

    def forward(self, x):
        return self.out(self.lstm(self.embed(x)))


def test_lstm_language_model_trains():
    # Each target is the token seen one step before: only the LSTM's state can tell it.
    rng = numpy.random.RandomState(0)
    numpy.random.seed(0)
    model = _LanguageModel()
    opt = chainer.optimizers.Adam(alpha=0.01)
    opt.setup(model)
    batch, window = 32, 6
    losses = []
    for step in range(100):
        seq = rng.randint(0, 50, (window, batch)).astype(numpy.int32)
        model.lstm.reset_state()
        loss = 0
        model(seq[0])
        for t in range(1, window):
            y = model(seq[t])
            loss += -F.sum(F.select_item(F.log_softmax(y), seq[t - 1])) / batch
        model.cleargrads()
        loss.backward()
        opt.update()
        losses.append(float(loss.array) / (window - 1))
    assert losses[-1] < losses[0] / 2, (losses[0], losses[-1])
