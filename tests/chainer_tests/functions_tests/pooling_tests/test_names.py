"""The classes and functions Chainer 7.8.1's pooling modules define exist at the same paths."""
import importlib

import pytest

import chainer

_NAMES = {
    'pooling_nd': '_PoolingND',
    'pooling_2d': 'Pooling2D',
    'max_pooling_nd': 'MaxPoolingND MaxPoolingNDGrad MaxPoolingNDWithIndexes max_pooling_nd '
                      'max_pooling_1d max_pooling_2d max_pooling_3d',
    'average_pooling_2d': 'AveragePooling2D AveragePooling2DGrad average_pooling_2d',
    'average_pooling_nd': 'AveragePoolingND AveragePoolingNDGrad average_pooling_nd '
                          'average_pooling_1d average_pooling_3d',
    'unpooling_2d': 'Unpooling2D Unpooling2DGrad unpooling_2d',
    'unpooling_nd': 'UnpoolingND UnpoolingNDGrad unpooling_nd unpooling_1d unpooling_3d',
    'upsampling_2d': 'Upsampling2D Upsampling2DGrad upsampling_2d',
    'spatial_pyramid_pooling_2d': 'spatial_pyramid_pooling_2d',
    'roi_pooling_2d': 'ROIPooling2D ROIPooling2DGrad roi_pooling_2d',
    'roi_max_pooling_2d': 'ROIMaxPooling2D roi_max_pooling_2d',
    'roi_average_pooling_2d': 'ROIAveragePooling2D roi_average_pooling_2d',
    'roi_max_align_2d': 'ROIMaxAlign2D roi_max_align_2d',
    'roi_average_align_2d': 'ROIAverageAlign2D roi_average_align_2d',
}
# Old-style Functions in Chainer (no double backprop); the rest are FunctionNodes.
_OLD_STYLE = {'ROIMaxPooling2D', 'ROIAveragePooling2D', 'ROIMaxAlign2D', 'ROIAverageAlign2D'}


@pytest.mark.parametrize('module, names', sorted(_NAMES.items()))
def test_names_at_chainer_paths(module, names):
    mod = importlib.import_module('chainer.functions.pooling.' + module)
    for name in names.split():
        value = getattr(mod, name)
        if name.lstrip('_')[:1].isupper():
            base = chainer.Function if name in _OLD_STYLE else chainer.FunctionNode
            assert issubclass(value, base), name


def test_2d_classes_share_the_pooling_2d_base():
    from chainer.functions.pooling import (average_pooling_2d, pooling_2d, unpooling_2d,
                                           upsampling_2d)
    for cls in (average_pooling_2d.AveragePooling2D, unpooling_2d.Unpooling2D,
                upsampling_2d.Upsampling2D):
        assert issubclass(cls, pooling_2d.Pooling2D)
