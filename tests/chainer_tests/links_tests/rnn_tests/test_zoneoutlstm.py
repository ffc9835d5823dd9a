"""L.StatefulZoneoutLSTM: the case table, Chainer's outputs (test mode), states, serialization,
arguments."""
import pytest

import chainer.links as L
from chainer_tests.links_tests import _cases
from chainer_tests.links_tests.rnn_tests import _checks
from chainer_tests.links_tests.rnn_tests import _reference

IN, OUT = _cases.IN, _cases.OUT


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
    _checks.check_set_and_reset_state(cls, states)


@pytest.mark.parametrize('name', ['StatefulZoneoutLSTM'])
def test_serialization_round_trip(name, tmp_path):
    _checks.check_serialization_round_trip(name, tmp_path)


def test_zoneout_lstm_rejects_train_argument():
    with pytest.raises(ValueError, match='train argument'):
        L.StatefulZoneoutLSTM(IN, OUT, train=True)


def test_module_path():
    assert L.StatefulZoneoutLSTM.__module__ == 'chainer.links.rnn.zoneoutlstm'
