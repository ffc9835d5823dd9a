"""L.DeformableConvolution2D: the case table, and zero offsets."""
import numpy

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import testing
from chainer_tests.links_tests import _cases


def _x(*shape, dtype=numpy.float32):
    return numpy.random.uniform(-1, 1, shape).astype(dtype)


@_cases.cases('DeformableConvolution2D')
class TestDeformableConvolution2D(_cases.LinkTest):
    pass


TestDeformableConvolution2DChecks = _cases.checks('DeformableConvolution2D',
                                                  lazy=('DeformableConvolution2D',))


def test_deformable_convolution_with_zero_offsets_is_a_convolution():
    d = L.DeformableConvolution2D(2, 3, 3, pad=1, offset_initialW=0,
                                  deform_initialW=chainer.initializers.Normal(1.))
    testing.assert_allclose(d.deform_conv.b.array, 0)
    x = _x(1, 2, 4, 4)
    testing.assert_allclose(d(x).array, F.convolution_2d(
        x, d.deform_conv.W, d.deform_conv.b, pad=1).array, atol=1e-5)
    # By default the sampler's filters start at zero, as Chainer's.
    assert not L.DeformableConvolution2D(2, 3, 3).deform_conv.W.array.any()


def test_module_path():
    assert L.DeformableConvolution2D.__module__ == \
        'chainer.links.connection.deformable_convolution_2d'
