"""L.ChildSumTreeLSTM and L.NaryTreeLSTM: the case table, Chainer's outputs, None inputs, copies,
serialization."""
import pytest

import chainer.links as L
from chainer_tests.links_tests import _cases
from chainer_tests.links_tests.rnn_tests import _checks
from chainer_tests.links_tests.rnn_tests import _reference

IN, OUT, B = _cases.IN, _cases.OUT, _cases.B
_rand = _checks.rand


@_cases.cases('ChildSumTreeLSTM', 'NaryTreeLSTM')
class TestTreeLSTM(_cases.LinkTest):
    # The outputs are checked against Chainer 7.8.1 below (test_outputs_equal_chainer).
    pass


@pytest.mark.parametrize('name', ['ChildSumTreeLSTM', 'ChildSumTreeLSTM_leaf', 'NaryTreeLSTM'])
def test_parameter_names_and_shapes_equal_chainer(name):
    _reference.check_parameter_names_and_shapes(name)


@pytest.mark.parametrize('name', ['ChildSumTreeLSTM', 'ChildSumTreeLSTM_leaf', 'NaryTreeLSTM'])
def test_outputs_equal_chainer(name):
    _reference.check_outputs(name)


@pytest.mark.parametrize('name', ['NaryTreeLSTM'])
def test_copy_keeps_names_and_nstep_lists(name):
    _checks.check_copy_keeps_names(name)


@pytest.mark.parametrize('name', ['ChildSumTreeLSTM'])
def test_serialization_round_trip(name, tmp_path):
    _checks.check_serialization_round_trip(name, tmp_path)


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


def test_module_path():
    for name in ('ChildSumTreeLSTM', 'NaryTreeLSTM'):
        assert getattr(L, name).__module__ == 'chainer.links.rnn.tree_lstm'
