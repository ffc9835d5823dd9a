"""L.Convolution2D: the case table, and what it computes and accepts."""
import numpy
import pytest

import chainer.functions as F
import chainer.links as L
from chainer import testing
from chainer_tests.links_tests import _cases


def _x(*shape, dtype=numpy.float32):
    return numpy.random.uniform(-1, 1, shape).astype(dtype)


@_cases.cases('Convolution2D', 'Convolution2D_groups', 'Convolution2D_dilate')
class TestConvolution2D(_cases.LinkTest):
    pass


TestConvolution2DChecks = _cases.checks('Convolution2D', 'Convolution2D_groups',
                                        'Convolution2D_dilate',
                                        lazy=('Convolution2D', 'Convolution2D_short',))


def test_calls_its_function():
    x = _x(2, 4, 6, 6)
    conv = L.Convolution2D(4, 6, 3, stride=2, pad=1, dilate=1, groups=2)
    testing.assert_allclose(conv(x).array, F.convolution_2d(
        x, conv.W, conv.b, 2, 1, groups=2).array)


def test_arguments():
    conv = L.Convolution2D(3, 4)      # (out_channels, ksize): lazy input channels
    assert conv.W.array is None and conv.out_channels == 3 and conv.ksize == 4
    assert list(L.Convolution2D(2, 3, 3).printable_specs) == [
        ('in_channels', 2), ('out_channels', 3), ('ksize', 3), ('stride', (1, 1)),
        ('pad', (0, 0)), ('nobias', False), ('dilate', (1, 1)), ('groups', 1)]
    with pytest.raises(ValueError, match='deterministic'):
        L.Convolution2D(2, 3, 3, deterministic=True)
    with pytest.raises(TypeError, match='foo'):
        L.Convolution2D(2, 3, 3, foo=1)
    with pytest.raises(ValueError, match='divisible by the number of groups'):
        L.Convolution2D(3, 6, 3, groups=2)


def test_from_params_keeps_values_and_groups():
    W = _x(6, 2, 3, 3)
    b = _x(6)
    conv = L.Convolution2D.from_params(W, b, stride=2, groups=3)
    assert conv.W.shape == (6, 2, 3, 3) and conv.groups == 3 and conv.stride == (2, 2)
    testing.assert_allclose(conv.W.array, W)
    testing.assert_allclose(conv.b.array, b)


def test_module_path():
    assert L.Convolution2D.__module__ == 'chainer.links.connection.convolution_2d'
