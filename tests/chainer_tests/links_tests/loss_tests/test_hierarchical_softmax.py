"""L.BinaryHierarchicalSoftmax: the case table, the Huffman tree, a distribution."""
import numpy
import pytest

import chainer.links as L
from chainer import testing
from chainer_tests.links_tests import _cases


def _x(*shape, dtype=numpy.float32):
    return numpy.random.uniform(-1, 1, shape).astype(dtype)


@_cases.cases('BinaryHierarchicalSoftmax')
class TestBinaryHierarchicalSoftmax(_cases.LinkTest):
    pass


TestBinaryHierarchicalSoftmaxChecks = _cases.checks('BinaryHierarchicalSoftmax')


def test_huffman_tree():
    with pytest.raises(ValueError):
        L.BinaryHierarchicalSoftmax.create_huffman_tree({})
    tree = L.BinaryHierarchicalSoftmax.create_huffman_tree(
        {'x': 8, 'y': 6, 'z': 5, 'w': 4, 'v': 3})
    assert tree == (('z', 'y'), (('v', 'w'), 'x'))


def test_hierarchical_softmax_is_a_distribution():
    tree = ((0, 1), ((2, 3), 4))
    hs = L.BinaryHierarchicalSoftmax(3, tree)
    assert hs.W.shape == (4, 3)
    x = _x(1, 3)
    total = sum(numpy.exp(-float(hs(x, numpy.array([i], 'i')).array)) for i in range(5))
    assert abs(total - 1) < 1e-5
    # The loss of a batch is the sum of the examples' losses.
    xs = _x(2, 3)
    t = numpy.array([0, 3], 'i')
    testing.assert_allclose(hs(xs, t).array, hs(xs[:1], t[:1]).array + hs(xs[1:], t[1:]).array,
                            rtol=1e-5)
    f = hs._func
    testing.assert_allclose(f.begins, [0, 2, 4, 7, 10, 12])
    with pytest.raises(IndexError, match='labels'):
        hs(x, numpy.array([5], 'i'))
    with pytest.raises(ValueError, match='twice'):
        L.BinaryHierarchicalSoftmax(3, ((0, 1), (0, 2)))


def test_module_path():
    assert L.BinaryHierarchicalSoftmax.__module__ == 'chainer.links.loss.hierarchical_softmax'
