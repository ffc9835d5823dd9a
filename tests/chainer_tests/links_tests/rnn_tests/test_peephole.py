"""L.StatefulPeepholeLSTM: the case table, Chainer's outputs, lazy size, states on devices."""
import numpy
import pytest

import chainer.links as L
from chainer_tests.links_tests import _cases
from chainer_tests.links_tests.rnn_tests import _checks
from chainer_tests.links_tests.rnn_tests import _reference

IN, OUT, B = _cases.IN, _cases.OUT, _cases.B
_rand = _checks.rand


@_cases.cases('StatefulPeepholeLSTM')
class TestStatefulPeepholeLSTM(_cases.LinkTest):
    # The outputs are checked against Chainer 7.8.1 below (test_outputs_equal_chainer).
    pass


@pytest.mark.parametrize('name', ['StatefulPeepholeLSTM'])
def test_parameter_names_and_shapes_equal_chainer(name):
    _reference.check_parameter_names_and_shapes(name)


@pytest.mark.parametrize('name', ['StatefulPeepholeLSTM'])
def test_outputs_equal_chainer(name):
    _reference.check_outputs(name)


@pytest.mark.parametrize('cls', [L.StatefulPeepholeLSTM])
def test_lazy_in_size(cls):
    _checks.check_lazy_in_size(cls)


def test_states_move_with_the_link():
    link = L.StatefulPeepholeLSTM(IN, OUT)
    link(_rand(B, IN))
    state = link.h
    link.to_device('@numpy')
    assert link.h is state and isinstance(link.h.array, numpy.ndarray)
    assert link.h.device == link.device


def test_module_path():
    assert L.StatefulPeepholeLSTM.__module__ == 'chainer.links.rnn.peephole'
