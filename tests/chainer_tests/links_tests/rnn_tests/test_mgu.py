"""L.StatelessMGU and L.StatefulMGU: the case table, Chainer's outputs, states, serialization."""
import pytest

import chainer.links as L
from chainer_tests.links_tests import _cases
from chainer_tests.links_tests.rnn_tests import _checks
from chainer_tests.links_tests.rnn_tests import _reference


@_cases.cases('StatelessMGU', 'StatefulMGU')
class TestMGU(_cases.LinkTest):
    # The outputs are checked against Chainer 7.8.1 below (test_outputs_equal_chainer).
    pass


@pytest.mark.parametrize('name', ['StatefulMGU', 'StatelessMGU'])
def test_parameter_names_and_shapes_equal_chainer(name):
    _reference.check_parameter_names_and_shapes(name)


@pytest.mark.parametrize('name', ['StatefulMGU', 'StatelessMGU'])
def test_outputs_equal_chainer(name):
    _reference.check_outputs(name)


@pytest.mark.parametrize('cls,states', [(L.StatefulMGU, 'h')])
def test_set_and_reset_state(cls, states):
    _checks.check_set_and_reset_state(cls, states)


@pytest.mark.parametrize('name', ['StatefulMGU'])
def test_serialization_round_trip(name, tmp_path):
    _checks.check_serialization_round_trip(name, tmp_path)


def test_module_path():
    for name in ('StatelessMGU', 'StatefulMGU'):
        assert getattr(L, name).__module__ == 'chainer.links.rnn.mgu'
