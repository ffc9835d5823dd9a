"""L.MLPConvolution2D: the case table, the activations, arguments."""
import numpy
import pytest

import chainer.functions as F
import chainer.links as L
from chainer import testing
from chainer_tests.links_tests import _cases


def _x(*shape, dtype=numpy.float32):
    return numpy.random.uniform(-1, 1, shape).astype(dtype)


@_cases.cases('MLPConvolution2D')
class TestMLPConvolution2D(_cases.LinkTest):
    pass


TestMLPConvolution2DChecks = _cases.checks('MLPConvolution2D', lazy=('MLPConvolution2D',))


def test_no_activation_after_the_last_convolution():
    mlp = L.MLPConvolution2D(2, (3, 4), 1, activation=F.sigmoid)
    x = _x(1, 2, 3, 3)
    h = F.sigmoid(mlp[0](x))
    testing.assert_allclose(mlp(x).array, mlp[1](h).array)


def test_arguments():
    with pytest.raises(ValueError, match='wscale'):
        L.MLPConvolution2D(2, (3,), wscale=1)
    with pytest.raises(TypeError):
        L.MLPConvolution2D(2, (3,), None, 1, 0, F.relu, 1)


def test_module_path():
    assert L.MLPConvolution2D.__module__ == 'chainer.links.connection.mlp_convolution_2d'
