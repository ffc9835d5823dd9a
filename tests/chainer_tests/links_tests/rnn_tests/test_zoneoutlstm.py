"""L.StatefulZoneoutLSTM: the case table, Chainer's outputs (test mode), states, serialization,
arguments."""
import numpy
import pytest

import chainer
import chainer.links as L
from chainer_tests.links_tests import _cases
from chainer_tests.links_tests.rnn_tests import _reference

IN, OUT, B = _cases.IN, _cases.OUT, _cases.B


def _rand(*shape):
    return numpy.random.uniform(-1, 1, shape).astype(numpy.float32)


@_cases.cases('StatefulZoneoutLSTM')
class TestStatefulZoneoutLSTM(_cases.LinkTest):
    # The outputs are checked against Chainer 7.8.1 below (test_outputs_equal_chainer).
    pass


@pytest.mark.parametrize('name', ['StatefulZoneoutLSTM'])
def test_parameter_names_and_shapes_equal_chainer(name):
    _reference.check_parameter_names_and_shapes(name)


@pytest.mark.parametrize('name', ['StatefulZoneoutLSTM'])
def test_outputs_equal_chainer(name):
    _reference.check_outputs(name)


@pytest.mark.parametrize('cls,states', [(L.StatefulZoneoutLSTM, 'ch')])
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


@pytest.mark.parametrize('name', ['StatefulZoneoutLSTM'])
def test_serialization_round_trip(name, tmp_path):
    make = _cases.CASES[name].build
    src, dst = make(), make()
    path = str(tmp_path / 'link.npz')
    chainer.serializers.save_npz(path, src)
    chainer.serializers.load_npz(path, dst)
    for (n, p), (m, q) in zip(src.namedparams(), dst.namedparams()):
        assert n == m
        numpy.testing.assert_array_equal(p.array, q.array)


def test_zoneout_lstm_rejects_train_argument():
    with pytest.raises(ValueError, match='train argument'):
        L.StatefulZoneoutLSTM(IN, OUT, train=True)


def test_module_path():
    assert L.StatefulZoneoutLSTM.__module__ == 'chainer.links.rnn.zoneoutlstm'
