"""L.NStepLSTM and L.NStepBiLSTM: the case table, Chainer's outputs, shapes and lengths, copies,
bad inputs."""
import numpy
import pytest

import chainer
import chainer.links as L
from chainer_tests.links_tests import _cases
from chainer_tests.links_tests.rnn_tests import _checks
from chainer_tests.links_tests.rnn_tests import _reference

IN, OUT = _cases.IN, _cases.OUT


_rand = _checks.rand


@_cases.cases('NStepLSTM', 'NStepBiLSTM')
class TestNStepLSTM(_cases.LinkTest):
    # The outputs are checked against Chainer 7.8.1 below (test_outputs_equal_chainer).
    pass


@pytest.mark.parametrize('name', ['NStepLSTM', 'NStepLSTM_nohx', 'NStepBiLSTM',
                                  'NStepBiLSTM_nohx'])
def test_parameter_names_and_shapes_equal_chainer(name):
    _reference.check_parameter_names_and_shapes(name)


@pytest.mark.parametrize('name', ['NStepLSTM', 'NStepLSTM_nohx', 'NStepBiLSTM',
                                  'NStepBiLSTM_nohx'])
def test_outputs_equal_chainer(name):
    _reference.check_outputs(name)


@pytest.mark.parametrize('name', ['NStepLSTM'])
def test_copy_keeps_names_and_nstep_lists(name):
    _checks.check_copy_keeps_names(name)


@pytest.mark.parametrize('name', ['NStepBiLSTM'])
def test_serialization_round_trip(name, tmp_path):
    _checks.check_serialization_round_trip(name, tmp_path)


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
    assert link.n_cells == 2
    hx = link.init_hx(xs)
    assert hx.shape == (4, 3, OUT) and hx.dtype == numpy.float32


def test_nstep_bad_inputs_name_the_link():
    lstm = L.NStepLSTM(1, IN, OUT, 0.0)
    xs = [_rand(2, IN)]
    with pytest.raises(TypeError, match='NStepLSTM takes 3 inputs'):
        lstm(None, xs)
    with pytest.raises(TypeError, match='NStepLSTM requires in_size'):
        L.NStepLSTM(1, None, OUT, 0.0)


def test_module_path():
    for name in ('NStepLSTM', 'NStepBiLSTM'):
        assert getattr(L, name).__module__ == 'chainer.links.rnn.n_step_lstm'
