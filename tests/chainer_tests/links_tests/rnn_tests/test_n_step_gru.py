"""L.NStepGRU and L.NStepBiGRU: the case table, Chainer's outputs, copies, bad inputs."""
import numpy
import pytest

import chainer.links as L
from chainer_tests.links_tests import _cases
from chainer_tests.links_tests.rnn_tests import _reference

IN, OUT, B = _cases.IN, _cases.OUT, _cases.B


def _rand(*shape):
    return numpy.random.uniform(-1, 1, shape).astype(numpy.float32)


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
    link = _cases.CASES[name].build()
    dup = link.copy('copy')
    assert [n for n, _ in dup.namedparams()] == [n for n, _ in link.namedparams()]
    for (_, p), (_, q) in zip(link.namedparams(), dup.namedparams()):
        assert p is not q
        numpy.testing.assert_array_equal(p.array, q.array)
    if hasattr(link, 'ws'):
        assert dup.ws[0][0] is dup[0].w0 and dup.bs[-1][-1] is getattr(dup[-1], 'b%d' % (
            link.n_weights - 1))


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
