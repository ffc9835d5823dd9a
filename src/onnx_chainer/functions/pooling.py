"""Converters of ``chainer.functions.pooling``."""
import warnings

import numpy

from onnx_chainer import onnx_helper
from onnx_chainer.functions._common import in_dtype
from onnx_chainer.functions._common import in_shape
from onnx_chainer.functions._common import out_shape
from onnx_chainer.functions._common import tensor_type
from onnx_chainer.functions._registry import converts
from onnx_chainer.functions.opset_version import support  # NOQA
from onnx_chainer.functions.array import _resize_nearest
from onnx_chainer.functions.array import get_slice_node


def window(func):
    """``(ksize, stride, pad)`` of a pooling function as tuples: the N-d functions' attributes,
    or the 2-d ones' (``kh, kw``, ``sy, sx``, ``ph, pw``)."""
    if hasattr(func, 'ksize'):
        return tuple(func.ksize), tuple(func.stride), tuple(func.pad)
    return (func.kh, func.kw), (func.sy, func.sx), (func.ph, func.pw)


def _average_pool(func, input_names, output_names):
    # Chainer's pad_value=None averages over the window inside the input only.
    include_pad = 0 if getattr(func, 'pad_value', 0) is None else 1
    ksize, stride, pad = window(func)
    return onnx_helper.make_node(
        'AveragePool', input_names, output_names, count_include_pad=include_pad,
        kernel_shape=list(ksize), pads=list(pad) * 2, strides=list(stride)),


@converts('AveragePooling2D', opsets=(1, 7))
def convert_AveragePooling2D(func, opset_version, input_names, output_names, context):
    return _average_pool(func, input_names, output_names)


@converts('AveragePoolingND', opsets=(1, 7))
def convert_AveragePoolingND(func, opset_version, input_names, output_names, context):
    return _average_pool(func, input_names, output_names)


def _max_pool(func, opset_version, input_names, output_names):
    return onnx_helper.make_node('MaxPool', input_names, output_names,
                                 **_max_pool_attributes(func, opset_version)),


def _max_pool_attributes(func, opset_version):
    ksize, stride, pad = window(func)
    pad = list(pad)
    attrs = {'kernel_shape': list(ksize), 'strides': list(stride)}
    if opset_version >= 8:
        attrs['storage_order'] = 0
    if func.cover_all and opset_version >= 11:
        attrs['ceil_mode'] = 1
        attrs['pads'] = pad + pad
    elif func.cover_all:
        # Padding the end by stride - 1 takes the last partial window, as cover_all does.
        attrs['pads'] = pad + [p + s - 1 for p, s in zip(pad, stride)]
    else:
        attrs['pads'] = pad + pad
    return attrs


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
    """Each input value fills a ``ksize`` block: with ``stride == ksize`` and no padding, a
    nearest-neighbour upsampling, cropped or zero-padded to Chainer's output size
    (``outsize``, ``cover_all``); otherwise as ``UnpoolingND``."""
    ksize, stride, pad = window(func)
    if ksize != stride or any(pad):
        # Overlapping or padded windows: the general form.
        return _unpool_as_col2im(func, opset_version, input_names, output_names, context)
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



def _col2im(gb, context, x, kernels, channels, stride, pad, in_spatial, out_spatial):
    """Chainer's ``col2im`` of ``x``, whose channels hold ``K`` kernel positions per output
    channel (``channels * K`` in all, channel-major).

    A ``ConvTranspose`` with one group per output channel and the constant ``kernels``
    (``(K, *ksize)``, the same for every group) sums the windows' contributions; its pads crop
    (or extend) the result to ``out_spatial``.
    """
    ksize = kernels.shape[1:]
    begin, end, extra = [], [], []
    for n, k, s, p, out in zip(in_spatial, ksize, stride, pad, out_spatial):
        cut = s * (n - 1) + k - p - out
        begin.append(int(p))
        end.append(max(int(cut), 0))
        extra.append(max(-int(cut), 0))
    weight = numpy.tile(kernels[:, None], (channels,) + (1,) * len(ksize) + (1,))
    weight = weight.reshape((channels * len(kernels), 1) + tuple(ksize))
    attrs = {'group': int(channels), 'kernel_shape': [int(k) for k in ksize],
             'strides': [int(v) for v in stride], 'pads': begin + end}
    if any(extra):
        attrs['output_padding'] = extra
    return gb.op('ConvTranspose', [x, context.add_const(weight, 'W')], **attrs)


def _unpool_as_col2im(func, opset_version, input_names, output_names, context):
    # Every input value fills its window: col2im of one all-ones kernel per channel.
    x_shape, y_shape = in_shape(func), out_shape(func)
    ksize, stride, pad = window(func)
    ones = numpy.ones((1,) + ksize, in_dtype(func))
    gb = onnx_helper.GraphBuilder()
    _col2im(gb, context, input_names[0], ones, x_shape[1], stride, pad,
            x_shape[2:], y_shape[2:])
    return gb.nodes(output_names)


@converts('UnpoolingND', opsets=(7,))
def convert_UnpoolingND(func, opset_version, input_names, output_names, context):
    """Chainer's unpooling (each value repeated over its window, overlaps summed) as a
    ``ConvTranspose`` with all-ones kernels, for every ``ksize``, ``stride``, ``pad`` and
    output size."""
    return _unpool_as_col2im(func, opset_version, input_names, output_names, context)


def _pooling_of(context, indexes):
    # The MaxPoolingND of the graph that computed ``indexes`` (None if there is none).
    for f in context.functions:
        if type(f).__name__ in ('MaxPoolingND', 'MaxPooling2D') and (
                getattr(f, 'indexes', None) is indexes):
            return f
    return None


def _window_indices(gb, context, pool, opset_version):
    """The position in its window (``ky * kw + kx``) of each maximum of ``pool``, from the
    indices of an ONNX ``MaxPool`` over ``pool``'s input (flat over the whole input)."""
    x_shape = in_shape(pool)
    y_shape = out_shape(pool)
    h, w = x_shape[2:]
    (kh, kw), (sy, sx), (ph, pw) = window(pool)
    attrs = _max_pool_attributes(pool, opset_version)
    x = context.get_name(pool.inputs[0])
    _, flat = gb.op('MaxPool', [x], num_outputs=2, **attrs)

    def const(value, name):
        return context.add_const(numpy.asarray(value, numpy.int64), name)
    plane = gb.op('Mod', [flat, const(h * w, 'plane')]) if opset_version >= 10 else gb.op(
        'Sub', [flat, gb.op('Mul', [gb.op('Div', [flat, const(h * w, 'plane')]),
                                    const(h * w, 'plane_size')])])
    row = gb.op('Div', [plane, const(w, 'width')])
    col = gb.op('Sub', [plane, gb.op('Mul', [row, const(w, 'row_size')])])
    top = numpy.arange(y_shape[2]).reshape(-1, 1) * sy - ph
    left = numpy.arange(y_shape[3]).reshape(1, -1) * sx - pw
    ky = gb.op('Sub', [row, const(top, 'window_top')])
    kx = gb.op('Sub', [col, const(left, 'window_left')])
    return gb.op('Add', [gb.op('Mul', [ky, const(kw, 'kw')]), kx])


@converts('Upsampling2D', opsets=(7, 8, 10, 11))
def convert_Upsampling2D(func, opset_version, input_names, output_names, context):
    """Each value goes to the position its pooling's maximum came from (overlaps summed).

    When the indexes come from a max pooling of the same graph, they are computed there
    (an ONNX ``MaxPool`` with indices, opset 8 and later); otherwise they are the constant
    Chainer's function holds. Each value is spread over ``kh * kw`` channels, zero except at
    its index, and a ``ConvTranspose`` with one-hot kernels puts them in place.
    """
    x_shape, y_shape = in_shape(func), out_shape(func)
    (kh, kw), stride, pad = window(func)
    n_pos = kh * kw
    gb = onnx_helper.GraphBuilder()
    pool = _pooling_of(context, func.indexes) if opset_version >= 8 else None
    if pool is not None:
        index = _window_indices(gb, context, pool, opset_version)
        positions = numpy.arange(n_pos, dtype=numpy.int64)
    else:
        index = context.add_const(numpy.asarray(func.indexes), 'indexes')
        positions = numpy.arange(n_pos, dtype=numpy.asarray(func.indexes).dtype)
    positions = context.add_const(positions.reshape(1, 1, n_pos, 1, 1), 'positions')
    hit = gb.op('Equal', [gb.op('Unsqueeze', [index], axes=[2]), positions])
    spread = gb.op('Mul', [gb.op('Unsqueeze', [input_names[0]], axes=[2]),
                           gb.op('Cast', [hit], to=tensor_type(in_dtype(func)))])
    channels = x_shape[1]
    shape = context.add_const(numpy.array([0, channels * n_pos] + list(x_shape[2:]),
                                          numpy.int64), 'shape')
    spread = gb.op('Reshape', [spread, shape])
    kernels = numpy.eye(n_pos, dtype=in_dtype(func)).reshape(n_pos, kh, kw)
    _col2im(gb, context, spread, kernels, channels, stride, pad, x_shape[2:],
            y_shape[2:])
    return gb.nodes(output_names)
