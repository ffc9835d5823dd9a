"""A small serializable object tree for the serializer tests (no links needed)."""
import numpy


class Leaf:

    def __init__(self, scale=1.0):
        self.w = numpy.arange(6, dtype=numpy.float32).reshape(2, 3) * scale
        self.count = 3
        self.rate = 0.5
        self.flag = True
        self.nothing = None

    def serialize(self, s):
        s('w', self.w)
        self.count = s('count', self.count)
        self.rate = s('rate', self.rate)
        self.flag = s('flag', self.flag)
        self.nothing = s('nothing', self.nothing)


class Tree:

    def __init__(self, scale=1.0):
        self.a = Leaf(scale)
        self.b = Leaf(2 * scale)
        self.t = 10

    def serialize(self, s):
        self.t = s('t', self.t)
        self.a.serialize(s['a'])
        self.b.serialize(s['b'])


def state(tree):
    return (tree.t, tree.a.w.copy(), tree.a.count, tree.a.rate, tree.a.flag, tree.a.nothing,
            tree.b.w.copy(), tree.b.count)


def assert_same_state(x, y):
    for u, v in zip(state(x), state(y)):
        numpy.testing.assert_array_equal(u, v)


def modified():
    tree = Tree(scale=5.0)
    tree.t = 99
    tree.a.count = 7
    tree.a.rate = 0.25
    tree.a.flag = False
    return tree
