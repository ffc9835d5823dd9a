"""L.ChildSumTreeLSTM and L.NaryTreeLSTM: the case table, Chainer's outputs, None inputs, copies,
serialization."""
import numpy
import pytest

import chainer
import chainer.links as L
from chainer_tests.links_tests import _cases
from chainer_tests.links_tests.rnn_tests import _reference

IN, OUT, B = _cases.IN, _cases.OUT, _cases.B


def _rand(*shape):
    return numpy.random.uniform(-1, 1, shape).astype(numpy.float32)


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
    link = _cases.CASES[name].build()
    dup = link.copy('copy')
    assert [n for n, _ in dup.namedparams()] == [n for n, _ in link.namedparams()]
    for (_, p), (_, q) in zip(link.namedparams(), dup.namedparams()):
        assert p is not q
        numpy.testing.assert_array_equal(p.array, q.array)
    if hasattr(link, 'ws'):
        assert dup.ws[0][0] is dup[0].w0 and dup.bs[-1][-1] is getattr(dup[-1], 'b%d' % (
            link.n_weights - 1))


@pytest.mark.parametrize('name', ['ChildSumTreeLSTM'])
def test_serialization_round_trip(name, tmp_path):
    make = _cases.CASES[name].build
    src, dst = make(), make()
    path = str(tmp_path / 'link.npz')
    chainer.serializers.save_npz(path, src)
    chainer.serializers.load_npz(path, dst)
    for (n, p), (m, q) in zip(src.namedparams(), dst.namedparams()):
        assert n == m
        numpy.testing.assert_array_equal(p.array, q.array)


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
