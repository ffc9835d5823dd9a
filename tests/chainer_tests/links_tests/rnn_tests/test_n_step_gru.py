"""L.NStepGRU and L.NStepBiGRU: the case table, Chainer's outputs, copies, bad inputs."""
import pytest

import chainer.links as L
from chainer_tests.links_tests import _cases
from chainer_tests.links_tests.rnn_tests import _checks
from chainer_tests.links_tests.rnn_tests import _reference

IN, OUT = _cases.IN, _cases.OUT


_rand = _checks.rand


@_cases.cases('NStepGRU', 'NStepBiGRU')
class TestNStepGRU(_cases.LinkTest):
    # The outputs are checked against Chainer 7.8.1 below (test_outputs_equal_chainer).
    pass


@pytest.mark.parametrize('name', ['NStepGRU', 'NStepGRU_nohx', 'NStepBiGRU', 'NStepBiGRU_nohx'])
def test_parameter_names_and_shapes_equal_chainer(name):
    _reference.check_parameter_names_and_shapes(name)


@pytest.mark.parametrize('name', ['NStepGRU', 'NStepGRU_nohx', 'NStepBiGRU', 'NStepBiGRU_nohx'])
def test_outputs_equal_chainer(name):
    _reference.check_outputs(name)


@pytest.mark.parametrize('name', ['NStepBiGRU'])
def test_copy_keeps_names_and_nstep_lists(name):
    _checks.check_copy_keeps_names(name)


def test_nstep_bad_inputs_name_the_link():
    gru = L.NStepGRU(1, IN, OUT, 0.0)
    xs = [_rand(2, IN)]
    assert gru.n_cells == 1
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


def test_module_path():
    for name in ('NStepGRU', 'NStepBiGRU'):
        assert getattr(L, name).__module__ == 'chainer.links.rnn.n_step_gru'
