"""Converters of ``chainer.functions.pooling``."""
import warnings

import numpy

from onnx_chainer import onnx_helper
from onnx_chainer.functions._common import in_shape
from onnx_chainer.functions._common import out_shape
from onnx_chainer.functions._registry import converts
from onnx_chainer.functions.opset_version import support  # NOQA
from onnx_chainer.functions.array import _resize_nearest
from onnx_chainer.functions.array import get_slice_node


def _average_pool(func, input_names, output_names):
    # Chainer's pad_value=None averages over the window inside the input only.
    include_pad = 0 if getattr(func, 'pad_value', 0) is None else 1
    pad = list(func.pad)
    return onnx_helper.make_node(
        'AveragePool', input_names, output_names, count_include_pad=include_pad,
        kernel_shape=list(func.ksize), pads=pad + pad, strides=list(func.stride)),


@converts('AveragePooling2D', opsets=(1, 7))
def convert_AveragePooling2D(func, opset_version, input_names, output_names, context):
    return _average_pool(func, input_names, output_names)


@converts('AveragePoolingND', opsets=(1, 7))
def convert_AveragePoolingND(func, opset_version, input_names, output_names, context):
    return _average_pool(func, input_names, output_names)


def _max_pool(func, opset_version, input_names, output_names):
    pad = list(func.pad)
    attrs = {'kernel_shape': list(func.ksize), 'strides': list(func.stride)}
    if opset_version >= 8:
        attrs['storage_order'] = 0
    if func.cover_all and opset_version >= 11:
        attrs['ceil_mode'] = 1
        attrs['pads'] = pad + pad
    elif func.cover_all:
        # Padding the end by stride - 1 takes the last partial window, as cover_all does.
        attrs['pads'] = pad + [p + s - 1 for p, s in zip(pad, func.stride)]
    else:
        attrs['pads'] = pad + pad
    return onnx_helper.make_node('MaxPool', input_names, output_names, **attrs),


@converts('MaxPooling2D', opsets=(1, 8, 11))
def convert_MaxPooling2D(func, opset_version, input_names, output_names, context):
    return _max_pool(func, opset_version, input_names, output_names)


@converts('MaxPoolingND', opsets=(1, 8, 11))
def convert_MaxPoolingND(func, opset_version, input_names, output_names, context):
    return _max_pool(func, opset_version, input_names, output_names)


@converts('ROIPooling2D')
def convert_ROIPooling2D(func, opset_version, input_names, output_names, context):
    warnings.warn(
        "It's possible that output does not match with Chainer, please check each runtime's "
        'implementation. For example, when input x has negative values, some runtimes set '
        'max(output, 0) unlike Chainer.', UserWarning)
    return onnx_helper.make_node(
        'MaxRoiPool', input_names, output_names, pooled_shape=[func.outh, func.outw],
        spatial_scale=float(func.spatial_scale)),


@converts('Unpooling2D', opsets=(7, 9, 10, 11))
def convert_Unpooling2D(func, opset_version, input_names, output_names, context):
    """Each input value fills a ``ksize`` block: a nearest-neighbour upsampling, cropped or
    zero-padded to Chainer's output size (``outsize``, ``cover_all``)."""
    ksize, stride, pad = tuple(func.ksize), tuple(func.stride), tuple(func.pad)
    if ksize != stride or any(pad):
        raise RuntimeError(
            'ONNX-Chainer supports Unpooling2D with stride equal to ksize and no pad only, got '
            'ksize={} stride={} pad={}'.format(ksize, stride, pad))
    x_shape = in_shape(func)
    upsampled = [d * k for d, k in zip(x_shape[2:], ksize)]
    actual = list(out_shape(func)[2:])
    scales = [1, 1] + list(ksize)
    if actual == upsampled:
        return _resize_nearest(None, opset_version, context, input_names[0], scales,
                               output_names),
    gb = onnx_helper.GraphBuilder()
    h = _resize_nearest(gb, opset_version, context, input_names[0], scales)
    if any(a < u for a, u in zip(actual, upsampled)):
        ends = [min(a, u) for a, u in zip(actual, upsampled)]
        h = get_slice_node(gb, opset_version, context, [h], [2, 3], [0, 0], ends, [1, 1])
    if any(a > u for a, u in zip(actual, upsampled)):
        extra = [max(a - u, 0) for a, u in zip(actual, upsampled)]
        pads = [0, 0, 0, 0, 0, 0] + extra
        if opset_version < 11:
            gb.op('Pad', [h], mode='constant', pads=pads)
        else:
            gb.op('Pad', [h, context.add_const(numpy.array(pads, numpy.int64), 'pads')],
                  mode='constant')
    return gb.nodes(output_names)
