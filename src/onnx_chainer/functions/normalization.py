"""Converters of ``chainer.functions.normalization``."""
import numpy

from onnx_chainer import onnx_helper
from onnx_chainer.functions._common import in_dtype
from onnx_chainer.functions._common import in_shape
from onnx_chainer.functions._common import scalar
from onnx_chainer.functions._registry import converts
from onnx_chainer.functions.opset_version import support  # NOQA
from onnx_chainer.functions.array import get_slice_node


def _check_channel_axis(func):
    # ONNX's BatchNormalization normalizes each channel (axis 1) over all other axes.
    ndim = len(in_shape(func, 0))
    axes = getattr(func, 'axes', None)
    if axes is None:
        axes = getattr(func, 'axis', None)
    expected = (0,) + tuple(range(2, ndim))
    if axes is not None and tuple(axes) != expected:
        raise ValueError(
            'ONNX-Chainer supports batch normalization over the axes {} (one statistic per '
            'channel, axis 1) only, got axes {}'.format(expected, tuple(axes)))


@converts('BatchNormalization', opsets=(1, 6, 7))
def convert_BatchNormalization(func, opset_version, input_names, output_names, context):
    """Batch normalization in training mode, written with the running statistics (ONNX
    runtimes use them outside training)."""
    _check_channel_axis(func)
    x, gamma, beta = input_names
    mean = func.running_mean if func.running_mean is not None else func.mean
    var = func.running_var if func.running_var is not None else func.var
    mean = context._array_input(mean, 'avg_mean')
    var = context._array_input(var, 'avg_var')
    attrs = {'epsilon': float(func.eps), 'momentum': float(func.decay)}
    if opset_version < 7:
        attrs['is_test'] = 0
    return onnx_helper.make_node('BatchNormalization', [x, gamma, beta, mean, var],
                                 output_names, **attrs),


@converts('FixedBatchNormalization', opsets=(1, 6, 7))
def convert_FixedBatchNormalization(func, opset_version, input_names, output_names, context):
    _check_channel_axis(func)
    attrs = {'epsilon': float(func.eps), 'momentum': 0.0}
    if opset_version < 7:
        attrs['is_test'] = 1
    return onnx_helper.make_node('BatchNormalization', input_names, output_names, **attrs),


@converts('GroupNormalization', opsets=(5, 10))
def convert_GroupNormalization(func, opset_version, input_names, output_names, context):
    """Normalizes ``x`` reshaped to ``(batch * groups, -1)``, then scales per channel; the
    shapes come from ``x`` at run time."""
    x, gamma, beta = input_names
    channels = in_shape(func, 0)[1]
    dtype = in_dtype(func)
    group = context.add_const(numpy.array(func.groups, numpy.int64), 'group')
    eps = context.add_const(scalar(func.eps, dtype), 'eps')
    channel = context.add_const(numpy.array([channels], numpy.int64), 'channel')
    neg_one = context.add_const(numpy.array([-1], numpy.int64), 'neg_one')
    gb = onnx_helper.GraphBuilder()
    shape = gb.op('Shape', [x])
    batch = get_slice_node(gb, opset_version, context, [shape], [0], [0], [1], [1])
    rows = gb.op('Concat', [gb.op('Mul', [batch, group]), neg_one], axis=0)
    h = gb.op('Reshape', [x, rows])
    mean = gb.op('Unsqueeze', [gb.op('ReduceMean', [h], axes=[1], keepdims=0)], axes=[1])
    centered = gb.op('Sub', [h, mean])
    var = gb.op('ReduceMean', [gb.op('Mul', [centered, centered])], axes=[1], keepdims=0)
    inv_std = gb.op('Reciprocal', [gb.op('Sqrt', [gb.op('Add', [var, eps])])])
    h = gb.op('Mul', [centered, gb.op('Unsqueeze', [inv_std], axes=[1])])
    h = gb.op('Reshape', [h, gb.op('Concat', [batch, channel, neg_one], axis=0)])
    g = gb.op('Unsqueeze', [gamma], axes=[1])
    b = gb.op('Unsqueeze', [beta], axes=[1])
    h = gb.op('Add', [gb.op('Mul', [h, g]), b])
    gb.op('Reshape', [h, shape])
    return gb.nodes(output_names)


@converts('LocalResponseNormalization')
def convert_LocalResponseNormalization(func, opset_version, input_names, output_names,
                                       context):
    # ONNX divides alpha by the window size; Chainer does not.
    return onnx_helper.make_node(
        'LRN', input_names, output_names, alpha=float(func.alpha) * func.n,
        beta=float(func.beta), bias=float(func.k), size=int(func.n)),


@converts('NormalizeL2')
def convert_NormalizeL2(func, opset_version, input_names, output_names, context):
    axis = func.axis
    if isinstance(axis, tuple):
        if len(axis) != 1:
            raise ValueError('ONNX-Chainer supports NormalizeL2 over one axis only, got axis '
                             '{}'.format(axis))
        axis = axis[0]
    if func.eps != 1e-5:
        raise ValueError(
            "'eps' is not supported in the ONNX's LpNormalization operator, so that "
            "ONNX-Chainer does not accept custom values for 'eps' ({})".format(func.eps))
    return onnx_helper.make_node('LpNormalization', input_names, output_names, axis=int(axis),
                                 p=2),
