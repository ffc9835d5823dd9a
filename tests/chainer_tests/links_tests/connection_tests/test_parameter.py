"""L.Parameter: a link that holds one array."""
import numpy

import chainer.links as L


def test_returns_its_parameter():
    p = L.Parameter(numpy.arange(3, dtype=numpy.float64))
    assert p() is p.W and p.W.dtype == numpy.float64


def test_module_path():
    assert L.Parameter.__module__ == 'chainer.links.connection.parameter'
