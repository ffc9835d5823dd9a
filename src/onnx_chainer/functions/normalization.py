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


@converts('BatchNormalization', opsets=(1, 6, 7, 14))
def convert_BatchNormalization(func, opset_version, input_names, output_names, context):
    """Batch normalization in training mode, written with the running statistics.

    Up to opset 13 the node is ONNX's inference form (runtimes normalize with the running
    statistics). From 14 it is marked ``training_mode=1`` with the running statistics as
    extra outputs, which is Chainer's function (runtimes built for inference, ONNX Runtime's
    among them, still use the running statistics).
    """
    _check_channel_axis(func)
    x, gamma, beta = input_names
    mean = func.running_mean if func.running_mean is not None else func.mean
    var = func.running_var if func.running_var is not None else func.var
    mean = context._array_input(mean, 'avg_mean')
    var = context._array_input(var, 'avg_var')
    attrs = {'epsilon': float(func.eps), 'momentum': float(func.decay)}
    outputs = list(output_names)
    if opset_version < 7:
        attrs['is_test'] = 0
    elif opset_version >= 14:
        attrs['training_mode'] = 1
        outputs += [outputs[0] + '_running_mean', outputs[0] + '_running_var']
    return onnx_helper.make_node('BatchNormalization', [x, gamma, beta, mean, var],
                                 outputs, **attrs),


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


@converts('LayerNormalization', opsets=(7, 17))
def convert_LayerNormalization(func, opset_version, input_names, output_names, context):
    """ONNX's LayerNormalization over the last axis from opset 17; before, its formula
    written out."""
    x, gamma, beta = input_names
    if opset_version >= 17:
        return onnx_helper.make_node('LayerNormalization', input_names, output_names, axis=-1,
                                     epsilon=float(func.eps)),
    eps = context.add_const(scalar(func.eps, in_dtype(func)), 'eps')
    gb = onnx_helper.GraphBuilder()
    centered = gb.op('Sub', [x, gb.op('ReduceMean', [x], axes=[-1], keepdims=1)])
    var = gb.op('ReduceMean', [gb.op('Mul', [centered, centered])], axes=[-1], keepdims=1)
    std = gb.op('Sqrt', [gb.op('Add', [var, eps])])
    gb.op('Add', [gb.op('Mul', [gb.op('Div', [centered, std]), gamma]), beta])
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
    """``LpNormalization`` for the default ``eps`` over one axis (Chainer 7.8.1's graph);
    otherwise Chainer's formula ``x / (||x|| + eps)`` written out."""
    axis = func.axis
    axes = list(axis) if isinstance(axis, (tuple, list)) else [axis]
    if func.eps == 1e-5 and len(axes) == 1:
        return onnx_helper.make_node('LpNormalization', input_names, output_names,
                                     axis=int(axes[0]), p=2),
    eps = context.add_const(scalar(func.eps, in_dtype(func)), 'eps')
    gb = onnx_helper.GraphBuilder()
    norm = gb.op('ReduceL2', input_names, axes=[int(a) for a in axes], keepdims=1)
    gb.op('Div', [input_names[0], gb.op('Add', [norm, eps])])
    return gb.nodes(output_names)
