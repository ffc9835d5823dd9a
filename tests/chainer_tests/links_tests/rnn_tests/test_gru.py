"""L.StatelessGRU, L.StatefulGRU and L.GRU: the case table, Chainer's outputs, lazy sizes, states,
copies, arguments."""
import pytest

import chainer.links as L
from chainer_tests.links_tests import _cases
from chainer_tests.links_tests.rnn_tests import _checks
from chainer_tests.links_tests.rnn_tests import _reference

IN, OUT, B = _cases.IN, _cases.OUT, _cases.B
_rand = _checks.rand


@_cases.cases('StatelessGRU', 'StatefulGRU', 'StatefulGRU_first')
class TestGRU(_cases.LinkTest):
    # The outputs are checked against Chainer 7.8.1 below (test_outputs_equal_chainer).
    pass


@pytest.mark.parametrize('name', ['StatefulGRU', 'StatelessGRU'])
def test_parameter_names_and_shapes_equal_chainer(name):
    _reference.check_parameter_names_and_shapes(name)


@pytest.mark.parametrize('name', ['StatefulGRU', 'StatelessGRU'])
def test_outputs_equal_chainer(name):
    _reference.check_outputs(name)


@pytest.mark.parametrize('cls', [L.StatefulGRU, L.StatelessGRU])
def test_lazy_in_size(cls):
    _checks.check_lazy_in_size(cls)


@pytest.mark.parametrize('cls,states', [(L.StatefulGRU, 'h')])
def test_set_and_reset_state(cls, states):
    _checks.check_set_and_reset_state(cls, states)


@pytest.mark.parametrize('name', ['StatefulGRU'])
def test_copy_keeps_names_and_nstep_lists(name):
    _checks.check_copy_keeps_names(name)


@pytest.mark.parametrize('name', ['StatelessGRU'])
def test_serialization_round_trip(name, tmp_path):
    _checks.check_serialization_round_trip(name, tmp_path)


def test_gru_takes_exactly_one_argument():
    gru = L.GRU(IN, OUT)
    with pytest.raises(ValueError, match='StatelessGRU'):
        gru(_rand(B, OUT), _rand(B, IN))
    with pytest.raises(ValueError):
        gru()
    assert gru(_rand(B, IN)).shape == (B, OUT)


def test_module_path():
    for name in ('GRU', 'StatelessGRU', 'StatefulGRU'):
        assert getattr(L, name).__module__ == 'chainer.links.rnn.gru'
