"""Hierarchical softmax over a binary tree of the classes."""
import heapq
import itertools

import numpy

import chainer
from chainer.backends import cuda
from chainer.functions.activation import softplus
from chainer.functions.array import cast
from chainer.functions.array import get_item
from chainer.functions.math import sum as sum_mod
from chainer import initializers
from chainer import link
from chainer import variable


class BinaryHierarchicalSoftmaxFunction:
    """The paths of a binary tree, and the loss they give (used by the link).

    Internal nodes are numbered in pre-order (the root is 0). For each leaf the
    nodes on its path are ``paths[begins[leaf]:begins[leaf + 1]]``, with
    ``codes`` ``+1`` for a left turn and ``-1`` for a right one.

    Args:
        tree: The tree as nested pairs; leaves are the class ids ``0 .. n-1``.
        dtype: Data type of ``codes``.
    """

    def __init__(self, tree, dtype):
        paths, codes, internal = {}, {}, []
        self._walk(tree, [], [], paths, codes, internal)
        self.parser_size = len(internal)
        n_leaves = len(paths)
        if sorted(paths) != list(range(n_leaves)):
            raise ValueError('BinaryHierarchicalSoftmax: the leaves of the tree must be the '
                             f'class ids 0 .. {n_leaves - 1}, got {sorted(paths)}')
        lengths = [len(paths[i]) for i in range(n_leaves)]
        self.begins = numpy.concatenate([[0], numpy.cumsum(lengths)]).astype(numpy.int32)
        self.paths = numpy.array(
            [n for i in range(n_leaves) for n in paths[i]], numpy.int32)
        self.codes = numpy.array(
            [c for i in range(n_leaves) for c in codes[i]], dtype)

    def _walk(self, node, path, code, paths, codes, internal):
        # Pre-order: an internal node gets its number before its subtrees.
        if isinstance(node, tuple):
            if len(node) != 2:
                raise ValueError('BinaryHierarchicalSoftmax: each internal node of the tree '
                                 f'must be a pair, got {node!r}')
            index = len(internal)
            internal.append(node)
            self._walk(node[0], path + [index], code + [1.], paths, codes, internal)
            self._walk(node[1], path + [index], code + [-1.], paths, codes, internal)
        else:
            if node in paths:
                raise ValueError(f'BinaryHierarchicalSoftmax: leaf {node!r} appears twice '
                                 'in the tree')
            paths[node] = path
            codes[node] = code

    def __call__(self, x, t, W):
        """Summed negative log-likelihood of the labels ``t`` given ``x``."""
        t_host = cuda.to_cpu(variable.as_array(t)).astype(numpy.int64).ravel()
        n_leaves = len(self.begins) - 1
        if t_host.size and (t_host.min() < 0 or t_host.max() >= n_leaves):
            raise IndexError('BinaryHierarchicalSoftmax: labels must be in [0, '
                             f'{n_leaves}), got {t_host.min()} .. {t_host.max()}')
        starts, ends = self.begins[t_host], self.begins[t_host + 1]
        lengths = ends - starts
        # One row per (example, node on its path).
        picks = numpy.concatenate([numpy.arange(s, e) for s, e in zip(starts, ends)]
                                  or [numpy.zeros(0, numpy.int64)]).astype(numpy.int64)
        rows = numpy.repeat(numpy.arange(len(t_host)), lengths)
        xp = chainer.backend.get_array_module(x)
        nodes = xp.asarray(self.paths[picks])
        codes = cuda.to_cpu(self.codes)[picks]
        x_rows = get_item.get_item(x, xp.asarray(rows))
        w_rows = get_item.get_item(W, nodes)
        score = sum_mod.sum(x_rows * w_rows, axis=1)
        # the loss has the promoted dtype of the codes (the link's ``dtype``) and the score,
        # as in Chainer 7.8.1
        dtype = numpy.promote_types(codes.dtype, score.dtype)
        if score.dtype != dtype:
            score = cast.cast(score, dtype)
        codes = xp.asarray(codes.astype(dtype, copy=False))
        return sum_mod.sum(softplus.softplus(-codes * score))


class BinaryHierarchicalSoftmax(link.Link):
    """Hierarchical softmax: class probabilities as products of binary choices down a tree.

    Each internal node has a weight row; the loss of a label is the sum over its
    path of ``softplus(-code * x.w_node)``. Calls return the loss summed over the batch.

    Args:
        in_size (int): Input size.
        tree: A binary tree of the class ids as nested pairs (see
            :meth:`create_huffman_tree`).
        dtype: Data type of the tree's codes (default ``chainer.config.dtype``);
            ``W`` has ``chainer.config.dtype``.

    Attributes:
        W (~chainer.Parameter): Shape ``(number of internal nodes, in_size)``.
    """

    def __init__(self, in_size, tree, dtype=None):
        super().__init__()
        dtype = chainer.get_dtype(dtype)
        self._func = BinaryHierarchicalSoftmaxFunction(tree, dtype)
        with self.init_scope():
            # W follows chainer.config.dtype, not ``dtype`` (as in Chainer 7.8.1)
            self.W = variable.Parameter(initializers.Uniform(1),
                                        (self._func.parser_size, in_size))

    def forward(self, x, t):
        """Loss of the labels ``t`` (shape ``(n,)``) for inputs ``x`` (``(n, in_size)``)."""
        return self._func(x, t, self.W)

    @staticmethod
    def create_huffman_tree(word_counts):
        """Builds a Huffman tree: frequent words get short paths.

        Args:
            word_counts (dict): Maps each word (leaf) to its count.

        Returns:
            The tree as nested pairs of words.
        """
        if not word_counts:
            raise ValueError('create_huffman_tree: word_counts is empty')
        order = itertools.count()
        heap = [(count, next(order), word) for word, count in word_counts.items()]
        heapq.heapify(heap)
        while len(heap) > 1:
            c1, _, n1 = heapq.heappop(heap)
            c2, _, n2 = heapq.heappop(heap)
            heapq.heappush(heap, (c1 + c2, next(order), (n1, n2)))
        return heap[0][2]
