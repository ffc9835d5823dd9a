"""L.Parameter: a link that holds one array."""
import numpy

import chainer.links as L


def test_returns_a_variable_on_its_parameter():
    p = L.Parameter(numpy.arange(3, dtype=numpy.float64))
    # a new Variable on W's array, whose gradient reaches W (as in Chainer 7.8.1)
    y = p()
    assert y is not p.W and y.array is p.W.array and p.W.dtype == numpy.float64
    y.grad = numpy.ones(3)
    y.backward()
    numpy.testing.assert_array_equal(p.W.grad, numpy.ones(3))


def test_module_path():
    assert L.Parameter.__module__ == 'chainer.links.connection.parameter'
