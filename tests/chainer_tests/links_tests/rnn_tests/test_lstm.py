"""L.LSTM and L.StatelessLSTM: the case table, Chainer's outputs, lazy sizes, initializers,
batches, states, copies, a language model."""
import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L
from chainer.utils import type_check
from chainer_tests.links_tests import _cases
from chainer_tests.links_tests.rnn_tests import _checks
from chainer_tests.links_tests.rnn_tests import _reference

IN, OUT, B = _cases.IN, _cases.OUT, _cases.B
_rand = _checks.rand


@_cases.cases('LSTM', 'StatelessLSTM')
class TestLSTM(_cases.LinkTest):
    # The outputs are checked against Chainer 7.8.1 below (test_outputs_equal_chainer).
    pass


@pytest.mark.parametrize('name', ['LSTM', 'LSTM_init', 'StatelessLSTM'])
def test_parameter_names_and_shapes_equal_chainer(name):
    _reference.check_parameter_names_and_shapes(name)


@pytest.mark.parametrize('name', ['LSTM', 'LSTM_init', 'StatelessLSTM'])
def test_outputs_equal_chainer(name):
    _reference.check_outputs(name)


@pytest.mark.parametrize('cls', [L.LSTM, L.StatelessLSTM])
def test_lazy_in_size(cls):
    _checks.check_lazy_in_size(cls)


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


@pytest.mark.parametrize('cls,states', [(L.LSTM, 'ch')])
def test_set_and_reset_state(cls, states):
    _checks.check_set_and_reset_state(cls, states)


@pytest.mark.parametrize('name', ['LSTM'])
def test_copy_keeps_names_and_nstep_lists(name):
    _checks.check_copy_keeps_names(name)


@pytest.mark.parametrize('name', ['LSTM'])
def test_serialization_round_trip(name, tmp_path):
    _checks.check_serialization_round_trip(name, tmp_path)


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


def test_reference_fixture_covers_every_case():
    # (tests/fixtures/rnn_links, written by tests/fixtures/make_rnn_links.py)
    _reference.check_fixture_covers_every_case()


def test_module_path():
    for name in ('LSTM', 'StatelessLSTM'):
        assert getattr(L, name).__module__ == 'chainer.links.rnn.lstm'
