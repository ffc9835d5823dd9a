"""L.StatefulPeepholeLSTM: the case table, Chainer's outputs, lazy size, states on devices."""
import numpy
import pytest

import chainer.links as L
from chainer_tests.links_tests import _cases
from chainer_tests.links_tests.rnn_tests import _reference

IN, OUT, B = _cases.IN, _cases.OUT, _cases.B


def _rand(*shape):
    return numpy.random.uniform(-1, 1, shape).astype(numpy.float32)


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


def test_states_move_with_the_link():
    link = L.StatefulPeepholeLSTM(IN, OUT)
    link(_rand(B, IN))
    state = link.h
    link.to_device('@numpy')
    assert link.h is state and isinstance(link.h.array, numpy.ndarray)
    assert link.h.device == link.device


def test_module_path():
    assert L.StatefulPeepholeLSTM.__module__ == 'chainer.links.rnn.peephole'
