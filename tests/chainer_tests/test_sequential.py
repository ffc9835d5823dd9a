import copy
import pickle

import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L


def _seq():
    return chainer.Sequential(L.Linear(2, 3), F.relu, L.Linear(3, 4))


def test_call_chains_layers_and_spreads_tuples():
    seq = _seq()
    x = numpy.ones((1, 2), numpy.float32)
    expected = seq[2](F.relu(seq[0](x)))
    numpy.testing.assert_allclose(seq(x).array, expected.array)
    pair = chainer.Sequential(lambda a: (a, 2 * a), lambda a, b: a + b)
    numpy.testing.assert_array_equal(pair(numpy.ones(2)), [3, 3])
    with pytest.raises(RuntimeError, match='any layer'):
        chainer.Sequential()(x)


def test_children_are_the_links_in_order():
    seq = _seq()
    assert [n for n, _ in seq.namedparams()] == ['/0/W', '/0/b', '/1/W', '/1/b']
    seq.insert(0, L.Linear(5, 2))
    assert [c.name for c in seq.children()] == ['0', '1', '2']
    assert seq[1].name == '1'
    seq.pop(0)
    assert [c.name for c in seq.children()] == ['0', '1']
    seq[0] = F.tanh
    assert len(list(seq.children())) == 1 and seq[2].name == '0'
    del seq[0]
    assert len(seq) == 2


def test_list_operations():
    seq = _seq()
    assert isinstance(seq[1:], list) and len(seq[1:]) == 2
    assert F.relu in seq and seq.index(F.relu) == 1 and seq.count(F.relu) == 1
    seq.append(F.relu)
    seq.extend([F.tanh])
    assert seq.count_by_layer_type('relu') == 2 and seq.count_by_layer_type('Linear') == 2
    seq.remove(F.tanh)
    seq.remove_by_layer_type('relu')
    assert len(seq) == 2 and all(isinstance(layer, L.Linear) for layer in seq)
    seq.reverse()
    assert seq[0].out_size == 4 and seq[0].name == '0'
    seq.clear()
    assert len(seq) == 0 and list(seq.children()) == []


def test_add_flatten_and_errors():
    a, b = _seq(), chainer.Sequential(F.tanh)
    c = a + b
    assert len(c) == 4 and c[0] is a[0]
    a += b
    assert len(a) == 4
    with pytest.raises(ValueError, match='Sequential'):
        a + F.relu
    nested = chainer.Sequential(_seq(), F.relu)
    assert [n for n, _ in nested.namedparams()][0] == '/0/0/W'
    flat = nested.flatten()
    assert len(flat) == 4 and [n for n, _ in flat.namedparams()][0] == '/0/W'
    with pytest.raises(ValueError, match='callable'):
        chainer.Sequential(3)


def test_copy_copies_links_and_shares_functions():
    seq = _seq()
    c = seq.copy('copy')
    assert isinstance(c, chainer.Sequential) and c[1] is F.relu
    assert c[0] is not seq[0] and c[0].W.array is not seq[0].W.array
    assert list(c.children())[0] is c[0]
    other = _seq()
    other.copyparams(seq)
    numpy.testing.assert_array_equal(other[2].W.array, seq[2].W.array)
    with pytest.raises(ValueError, match='Sequential'):
        other.copyparams(L.Linear(2, 3))


def test_deepcopy_and_pickle_keep_children_and_layers_together():
    seq = _seq()
    for c in (copy.deepcopy(seq), pickle.loads(pickle.dumps(seq))):
        assert list(c.children())[1] is c[2]
        numpy.testing.assert_array_equal(c[0].W.array, seq[0].W.array)


def test_str():
    seq = chainer.Sequential(L.Linear(2, 3), F.relu)
    text = str(seq)
    assert text.startswith('Sequential(\n  (0): Linear(in_size=2, out_size=3, nobias=False),\n'
                           '  (1): <function relu at ')
    assert str(chainer.Sequential()) == 'Sequential()'
