"""Converters of ``chainer.functions.array``."""
import numpy

from onnx_chainer import onnx_helper
from onnx_chainer.functions._common import dims
from onnx_chainer.functions._common import in_dtype
from onnx_chainer.functions._common import in_shape
from onnx_chainer.functions._common import INT64_MAX
from onnx_chainer.functions._common import INT64_MIN
from onnx_chainer.functions._common import is_dim
from onnx_chainer.functions._common import normalize_axis
from onnx_chainer.functions._common import out_shape
from onnx_chainer.functions._common import shape_input
from onnx_chainer.functions._common import tensor_type
from onnx_chainer.functions._registry import converts
from onnx_chainer.functions.opset_version import support  # NOQA

_int64 = numpy.int64

# ONNX's tensor element types by number (``TensorProto.DataType``), up to the ones the opsets of
# onnx_chainer 7.8.1 know; a public table of this module in 7.8.1.
TENSOR_TYPE_TO_NAME = dict(enumerate((
    'UNDEFINED', 'FLOAT', 'UINT8', 'INT8', 'UINT16', 'INT16', 'INT32', 'INT64', 'STRING', 'BOOL',
    'FLOAT16', 'DOUBLE', 'UINT32', 'UINT64', 'COMPLEX64', 'COMPLEX128')))


def get_slice_node(gb, opset_version, context, input_names, axes, starts, ends, steps):
    """Adds a ``Slice`` node to ``gb`` in the form of ``opset_version``.

    Before opset 10 the bounds are attributes; from 10 they are constant inputs, with the
    steps when one is not 1 (from 11 always).

    Args:
        gb (~onnx_chainer.onnx_helper.GraphBuilder): Where to add it.
        opset_version (int): The form to write.
        context (~onnx_chainer.context.Context): For the constants.
        input_names (list of str): The sliced input (first name).
        axes, starts, ends, steps (list of int): The slice.

    Returns:
        str: The output name.
    """
    if opset_version < 10:
        return gb.op('Slice', input_names[:1], axes=list(axes), starts=list(starts),
                     ends=list(ends))
    inputs = [input_names[0],
              context.add_const(numpy.array(starts, _int64), 'starts'),
              context.add_const(numpy.array(ends, _int64), 'ends'),
              context.add_const(numpy.array(axes, _int64), 'axes')]
    if opset_version >= 11 or any(s != 1 for s in steps):
        inputs.append(context.add_const(numpy.array(steps, _int64), 'steps'))
    return gb.op('Slice', inputs)


def _concat(func, input_names, output_names, axis, unsqueeze_axes=None):
    gb = onnx_helper.GraphBuilder()
    names = input_names
    if unsqueeze_axes is not None:
        names = [gb.op('Unsqueeze', [n], axes=list(unsqueeze_axes)) for n in input_names]
    gb.op('Concat', names, axis=axis)
    return gb.nodes(output_names)


def _transpose(output_names, input_names, perm):
    return onnx_helper.make_node('Transpose', input_names, output_names,
                                 perm=[int(p) for p in perm]),


@converts('BroadcastTo', opsets=(8,))
def convert_BroadcastTo(func, opset_version, input_names, output_names, context):
    out = dims(func, context)
    if not any(is_dim(d) for d in out):
        shape = context.add_const(numpy.array(out_shape(func), _int64), 'shape')
        return onnx_helper.make_node('Expand', [input_names[0], shape], output_names),
    # A dynamic size the input already has is kept by Expand's broadcasting (1).
    x = dims(func, context, 'in')
    x = [None] * (len(out) - len(x)) + x
    target = [1 if is_dim(d) and d == a else d for d, a in zip(out, x)]
    gb = onnx_helper.GraphBuilder()
    gb.op('Expand', [input_names[0], shape_input(gb, context, target)])
    return gb.nodes(output_names)


@converts('Cast', opsets=(1, 6))
def convert_Cast(func, opset_version, input_names, output_names, context):
    return onnx_helper.make_node('Cast', input_names, output_names,
                                 to=tensor_type(func.type)),


@converts('Concat', opsets=(1, 4))
def convert_Concat(func, opset_version, input_names, output_names, context):
    return onnx_helper.make_node('Concat', input_names, output_names, axis=func.axis),


@converts('Copy')
def convert_Copy(func, opset_version, input_names, output_names, context):
    return onnx_helper.make_node('Identity', input_names, output_names),


@converts('Depth2Space')
def convert_Depth2Space(func, opset_version, input_names, output_names, context):
    return onnx_helper.make_node('DepthToSpace', input_names, output_names, blocksize=func.r),


@converts('Space2Depth')
def convert_Space2Depth(func, opset_version, input_names, output_names, context):
    return onnx_helper.make_node('SpaceToDepth', input_names, output_names, blocksize=func.r),


@converts('Dstack')
def convert_Dstack(func, opset_version, input_names, output_names, context):
    ndim = len(in_shape(func))
    unsqueeze = {1: (0, 2), 2: (2,)}.get(ndim)
    return _concat(func, input_names, output_names, 2, unsqueeze)


@converts('Hstack')
def convert_Hstack(func, opset_version, input_names, output_names, context):
    ndim = len(in_shape(func))
    return _concat(func, input_names, output_names, 0 if ndim == 1 else 1)


@converts('Vstack')
def convert_Vstack(func, opset_version, input_names, output_names, context):
    ndim = len(in_shape(func))
    return _concat(func, input_names, output_names, 0, (0,) if ndim == 1 else None)


@converts('Stack')
def convert_Stack(func, opset_version, input_names, output_names, context):
    axis = normalize_axis(func.axis, len(in_shape(func)) + 1)
    source = context.unpacked_source(input_names, axis)
    if source is not None:      # the slices of one tensor, stacked back
        return onnx_helper.make_node('Identity', [source], output_names),
    return _concat(func, input_names, output_names, axis, (axis,))


@converts('ExpandDims')
def convert_ExpandDims(func, opset_version, input_names, output_names, context):
    axis = normalize_axis(func.axis, len(in_shape(func)) + 1)
    return onnx_helper.make_node('Unsqueeze', input_names, output_names, axes=[axis]),


def _parse_slices(slices, shape):
    # Splits a NumPy index into a Slice, at most one Gather, a Squeeze of the integer axes
    # and an Unsqueeze of the new axes; returns them as plain lists.
    if not isinstance(slices, tuple):
        slices = (slices,)
    ndim = len(shape)
    consuming = [s for s in slices if s is not None and s is not Ellipsis]
    if any(s is Ellipsis for s in slices):
        i = next(k for k, s in enumerate(slices) if s is Ellipsis)
        fill = (slice(None),) * (ndim - len(consuming))
        slices = slices[:i] + fill + slices[i + 1:]
    sl = {'axes': [], 'starts': [], 'ends': [], 'steps': []}
    squeeze, unsqueeze, gathers = [], [], []
    dim = out_dim = 0
    for s in slices:
        if s is None:
            unsqueeze.append(out_dim)
            out_dim += 1
            continue
        if isinstance(s, slice):
            if s == slice(None):
                dim += 1
                out_dim += 1
                continue
            step = 1 if s.step is None else int(s.step)
            start = s.start if s.start is not None else (0 if step > 0 else INT64_MAX)
            stop = s.stop if s.stop is not None else (INT64_MAX if step > 0 else INT64_MIN)
            for k, v in zip(('axes', 'starts', 'ends', 'steps'), (dim, start, stop, step)):
                sl[k].append(int(v))
            dim += 1
            out_dim += 1
        elif isinstance(s, (int, numpy.integer)) and not isinstance(s, bool):
            s = int(s)
            for k, v in zip(('axes', 'starts', 'ends', 'steps'),
                            (dim, s, INT64_MAX if s == -1 else s + 1, 1)):
                sl[k].append(v)
            squeeze.append(dim)
            dim += 1
        else:
            index = numpy.asarray(s)
            if index.dtype.kind not in 'iu' or index.ndim != 1:
                raise ValueError(
                    'ONNX-Chainer supports only one-dimensional integer arrays as advanced '
                    'indices of GetItem, got {} of shape {}'.format(index.dtype, index.shape))
            gathers.append((dim, index))
            dim += 1
            out_dim += 1
    if len(gathers) > 1 or (gathers and squeeze):
        raise ValueError('ONNX-Chainer supports GetItem with one advanced index (an integer '
                         'array) and no integer index beside it, got {}'.format(slices))
    return sl, squeeze, unsqueeze, gathers


@converts('GetItem', opsets=(1, 10, 11))
def convert_GetItem(func, opset_version, input_names, output_names, context):
    sl, squeeze, unsqueeze, gathers = _parse_slices(func.slices, in_shape(func))
    if opset_version < 11 and any(step != 1 for step in sl['steps']):
        raise ValueError('GetItem with n-step slicing is supported from opset11, opset{} is '
                         'not supported'.format(opset_version))
    gb = onnx_helper.GraphBuilder()
    x = input_names[0]
    if sl['axes']:
        x = get_slice_node(gb, opset_version, context, [x], sl['axes'], sl['starts'],
                           sl['ends'], sl['steps'])
    for axis, index in gathers:
        indices = context.add_const(index.astype(_int64), 'indices')
        x = gb.op('Gather', [x, indices], axis=axis)
    if squeeze:
        x = gb.op('Squeeze', [x], axes=squeeze)
    if unsqueeze:
        x = gb.op('Unsqueeze', [x], axes=unsqueeze)
    if x == input_names[0]:
        gb.op('Identity', [x])
    return gb.nodes(output_names)


def _normalize_axes(axes, ndim):
    axes = axes if isinstance(axes, (tuple, list)) else (axes,)
    return [normalize_axis(int(a), ndim) for a in axes]


@converts('Moveaxis')
def convert_Moveaxis(func, opset_version, input_names, output_names, context):
    ndim = len(in_shape(func))
    source = _normalize_axes(func.source, ndim)
    destination = _normalize_axes(func.destination, ndim)
    perm = [a for a in range(ndim) if a not in source]
    for dst, src in sorted(zip(destination, source)):
        perm.insert(dst, src)
    return _transpose(output_names, input_names, perm)


@converts('Rollaxis')
def convert_Rollaxis(func, opset_version, input_names, output_names, context):
    ndim = len(in_shape(func))
    axis = normalize_axis(func.axis, ndim)
    start = normalize_axis(func.start, ndim)
    if axis < start:
        start -= 1
    perm = [a for a in range(ndim) if a != axis]
    perm.insert(start, axis)
    return _transpose(output_names, input_names, perm)


@converts('Swapaxes')
def convert_Swapaxes(func, opset_version, input_names, output_names, context):
    ndim = len(in_shape(func))
    perm = list(range(ndim))
    a, b = normalize_axis(func.axis1, ndim), normalize_axis(func.axis2, ndim)
    perm[a], perm[b] = perm[b], perm[a]
    return _transpose(output_names, input_names, perm)


@converts('Transpose')
def convert_Transpose(func, opset_version, input_names, output_names, context):
    if func.axes is None:
        return onnx_helper.make_node('Transpose', input_names, output_names),
    return _transpose(output_names, input_names, func.axes)


_PAD_MODES = ('constant', 'reflect', 'edge')


@converts('Pad', opsets=(1, 2, 11))
def convert_Pad(func, opset_version, input_names, output_names, context):
    if func.mode not in _PAD_MODES:
        raise ValueError('{} mode is not supported in ONNX\'s Pad operation (supported: '
                         '{})'.format(func.mode, ', '.join(_PAD_MODES)))
    ndim = len(in_shape(func))
    widths = numpy.broadcast_to(numpy.asarray(func.pad_width, dtype=_int64), (ndim, 2))
    pads = [int(v) for v in widths[:, 0]] + [int(v) for v in widths[:, 1]]
    value = numpy.asarray(func.keywords.get('constant_values', 0))
    if value.size != 1 and len(numpy.unique(value)) != 1:
        raise ValueError('ONNX-Chainer supports Pad with one constant value, got '
                         'constant_values={}'.format(func.keywords['constant_values']))
    value = float(value.ravel()[0])
    if opset_version < 11:
        attrs = {'mode': func.mode, 'pads': pads}
        if func.mode == 'constant' and value != 0:
            attrs['value'] = value
        return onnx_helper.make_node('Pad', input_names, output_names, **attrs),
    inputs = [input_names[0], context.add_const(numpy.array(pads, _int64), 'pads')]
    if func.mode == 'constant' and value != 0:
        inputs.append(context.add_const(numpy.array(value, in_dtype(func)), 'constant_value'))
    return onnx_helper.make_node('Pad', inputs, output_names, mode=func.mode),


@converts('Permutate', opsets=(1, 9, 11))
def convert_Permutate(func, opset_version, input_names, output_names, context):
    """A ``Gather`` of the permutation; a constant permutation is inverted here (and one
    that keeps the order is an ``Identity``), one computed in the graph with a scatter (from
    opset 9)."""
    x, indices = input_names
    gb = onnx_helper.GraphBuilder()
    value = context.constant_value(func.inputs[1])
    if value is not None:
        value = numpy.asarray(value)
        if (value == numpy.arange(len(value))).all():
            return onnx_helper.make_node('Identity', [x], output_names),
        if func.inv:
            indices = context.add_const(numpy.argsort(value).astype(value.dtype), 'indices')
    elif func.inv:
        if opset_version < 9:
            raise RuntimeError('ONNX-Chainer cannot convert `Permutate` with inv=True and a '
                               'permutation computed in the graph with ONNX opset_version '
                               '{} (9 or later)'.format(context.opset_version))
        # The inverse permutation: inv[indices[i]] = i.
        n = in_shape(func, 1)[0]
        arange = context.add_const(numpy.arange(n, dtype=in_dtype(func, 1)), 'arange')
        scatter = 'Scatter' if opset_version < 11 else 'ScatterElements'
        indices = gb.op(scatter, [indices, indices, arange], axis=0)
    gb.op('Gather', [x, indices], axis=func.axis)
    return gb.nodes(output_names)


def _resize_nearest(gb, opset_version, context, x, scales, output_names=None):
    # Nearest-neighbour upsampling by integer factors, in the operator of each opset.
    scales = [float(s) for s in scales]
    if opset_version < 9:
        node_inputs, attrs, op = [x], {'scales': scales}, 'Upsample'
    else:
        node_inputs = [x, context.add_const(numpy.array(scales, numpy.float32), 'scales')]
        attrs, op = {}, 'Upsample' if opset_version < 10 else 'Resize'
        if opset_version >= 11:
            roi = context.add_const(numpy.array([], numpy.float64), 'roi')
            node_inputs.insert(1, roi)
    if gb is None:
        return onnx_helper.make_node(op, node_inputs, output_names, **attrs)
    return gb.op(op, node_inputs, **attrs)


@converts('Repeat', opsets=(7, 9, 10, 11))
def convert_Repeat(func, opset_version, input_names, output_names, context):
    repeats = func.repeats
    if not isinstance(repeats, (int, numpy.integer)):
        if len(repeats) != 1:
            return _repeat_elementwise(func, input_names, output_names, context)
        repeats = repeats[0]
    gb = onnx_helper.GraphBuilder()
    x = input_names[0]
    if func.axis is None:
        shape = context.add_const(numpy.array([-1], _int64), 'shape')
        x = gb.op('Reshape', [x, shape])
        scales = [repeats]
    else:
        ndim = len(in_shape(func))
        scales = [1] * ndim
        scales[normalize_axis(func.axis, ndim)] = repeats
    _resize_nearest(gb, opset_version, context, x, scales)
    return gb.nodes(output_names)


def _repeat_elementwise(func, input_names, output_names, context):
    # One count per element: a Gather of each index repeated its count of times.
    gb = onnx_helper.GraphBuilder()
    x = input_names[0]
    if func.axis is None:
        x = gb.op('Reshape', [x, context.add_const(numpy.array([-1], _int64), 'shape')])
        axis = 0
    else:
        axis = normalize_axis(func.axis, len(in_shape(func)))
    indices = numpy.repeat(numpy.arange(len(func.repeats)), func.repeats).astype(_int64)
    gb.op('Gather', [x, context.add_const(indices, 'indices')], axis=axis)
    return gb.nodes(output_names)


def reshape_target(func, context, gb, out, in_dims=None):
    """The target shape of a ``Reshape`` to the dims ``out`` that works at every size of the
    dynamic dimensions: a size equal to the input's at the same axis is copied (0), a single
    remaining dynamic size is inferred (-1), and the others are computed at run time."""
    target = list(out)
    if in_dims is not None:
        target = [0 if is_dim(d) and k < len(in_dims) and in_dims[k] == d else d
                  for k, d in enumerate(out)]
    rest = [k for k, d in enumerate(target) if is_dim(d)]
    if len(rest) == 1:
        target[rest[0]] = -1
    return shape_input(gb, context, target)


@converts('Reshape', opsets=(1, 5))
def convert_Reshape(func, opset_version, input_names, output_names, context):
    out = dims(func, context)
    if any(is_dim(d) for d in out):
        gb = onnx_helper.GraphBuilder()
        target = reshape_target(func, context, gb, out, dims(func, context, 'in'))
        gb.op('Reshape', [input_names[0], target])
        return gb.nodes(output_names)
    shape = context.add_const(numpy.array(func.shape, _int64), 'shape')
    return onnx_helper.make_node('Reshape', [input_names[0], shape], output_names),


@converts('ResizeImages', opsets=(7,))
def convert_ResizeImages(func, opset_version, input_names, output_names, context):
    # Both interpolation modes are linear maps along each axis: y = A_h x A_w^T with
    # constant (out, in) matrices, which two MatMuls compute exactly at every opset.
    from chainer.functions.array.resize_images import _AxisPlan
    _, _, h, w = in_shape(func)
    dtype = in_dtype(func)
    mode = getattr(func, 'mode', 'bilinear')
    align = getattr(func, 'align_corners', True)
    a_h = _AxisPlan(h, func.out_H, mode, align).matrix().astype(dtype)
    a_w = _AxisPlan(w, func.out_W, mode, align).matrix().astype(dtype)
    gb = onnx_helper.GraphBuilder()
    rows = gb.op('MatMul', [context.add_const(a_h, 'rows'), input_names[0]])
    gb.op('MatMul', [rows, context.add_const(numpy.ascontiguousarray(a_w.T), 'columns')])
    return gb.nodes(output_names)


@converts('SelectItem', opsets=(9, 11))
def convert_SelectItem(func, opset_version, input_names, output_names, context):
    x, t = input_names
    gb = onnx_helper.GraphBuilder()
    if opset_version >= 11:
        t = gb.op('Unsqueeze', [t], axes=[1])
        h = gb.op('GatherElements', [x, t], axis=1)
        gb.op('Squeeze', [h], axes=[1])
        return gb.nodes(output_names)
    # y[i] = x.flatten()[i * n_class + t[i]], with the row numbers built from t's shape.
    one = context.add_const(numpy.array([1], _int64), 'one_2')
    t = gb.op('Cast', [t], to=tensor_type(_int64))
    rows = gb.op('Shape', [t])
    rows = gb.op('ConstantOfShape', [rows], value=onnx_helper.onnx.numpy_helper.from_array(
        numpy.array([1], numpy.float32)))
    rows = gb.op('NonZero', [rows])
    rows = gb.op('Squeeze', [rows])
    n_class = gb.op('Gather', [gb.op('Shape', [x]), one], axis=0)
    flat = gb.op('Flatten', [x], axis=2)
    flat = gb.op('Squeeze', [flat])
    offsets = gb.op('Mul', [rows, n_class])
    index = gb.op('Add', [t, offsets])
    gb.op('Gather', [flat, index], axis=0)
    return gb.nodes(output_names)


def _unstack(gb, context, source, output_names, axis):
    # The slices of ``source`` along ``axis``, recorded as its packed form.
    parts = gb.op('Split', [source], num_outputs=len(output_names), axis=axis)
    if len(output_names) == 1:
        parts = (parts,)
    for part, name in zip(parts, output_names):
        gb.op_output_named('Squeeze', [part], [name], axes=[axis])
    context.set_packed(output_names, source, axis)


@converts('Separate')
def convert_Separate(func, opset_version, input_names, output_names, context):
    gb = onnx_helper.GraphBuilder()
    axis = normalize_axis(func.axis, len(in_shape(func)))
    _unstack(gb, context, input_names[0], output_names, axis)
    return gb.nodes()


@converts('Shape')
def convert_Shape(func, opset_version, input_names, output_names, context):
    return onnx_helper.make_node('Shape', input_names, output_names),


@converts('SplitAxis', opsets=(1, 2))
def convert_SplitAxis(func, opset_version, input_names, output_names, context):
    shape = in_shape(func)
    axis = normalize_axis(func.axis, len(shape))
    size = shape[axis]
    ios = func.sections if func.sections is not None else func.indices
    if isinstance(ios, (int, numpy.integer)):
        if is_dim(dims(func, context, 'in')[axis]):
            # Equal parts of a dynamic axis: Split's default, whatever its size.
            return onnx_helper.make_node('Split', input_names, output_names, axis=axis),
        split = [size // int(ios)] * int(ios)
    else:
        bounds = [0] + [min(max(int(i), 0), size) for i in ios] + [size]
        split = [b - a for a, b in zip(bounds[:-1], bounds[1:])]
    return onnx_helper.make_node('Split', input_names, output_names, axis=axis, split=split),


@converts('Squeeze')
def convert_Squeeze(func, opset_version, input_names, output_names, context):
    shape = in_shape(func)
    if func.axis is None:
        # A dynamic size traced as 1 is not squeezed: it is another size at run time.
        axes = [i for i, d in enumerate(dims(func, context, 'in')) if d == 1 and not is_dim(d)]
    else:
        axis = func.axis if isinstance(func.axis, tuple) else (func.axis,)
        axes = sorted(normalize_axis(a, len(shape)) for a in axis)
    return onnx_helper.make_node('Squeeze', input_names, output_names, axes=axes),


@converts('Tile', opsets=(1, 6))
def convert_Tile(func, opset_version, input_names, output_names, context):
    # NumPy's tile aligns the repetitions to the last axes and adds leading axes when there
    # are more repetitions than axes; ONNX's Tile takes exactly one per axis.
    reps = func.reps
    reps = (int(reps),) if isinstance(reps, (int, numpy.integer)) else tuple(map(int, reps))
    ndim = len(in_shape(func))
    x = input_names[0]
    nodes = []
    if len(reps) > ndim:
        gb = onnx_helper.GraphBuilder()
        shape = shape_input(gb, context, [1] * (len(reps) - ndim) + dims(func, context, 'in'))
        x = gb.op('Reshape', [x, shape])
        nodes = list(gb.nodes())
    reps = (1,) * (ndim - len(reps)) + reps
    tiles = context.add_const(numpy.array(reps, _int64), 'tiles')
    return tuple(nodes) + (onnx_helper.make_node('Tile', [x, tiles], output_names),)


def pad_node(gb, opset_version, context, x, pads):
    """Adds a zero ``Pad`` of ``x`` (``pads``: begins, then ends) in the form of
    ``opset_version`` (an attribute before 11, an input from 11)."""
    if opset_version < 11:
        return gb.op('Pad', [x], pads=list(pads))
    return gb.op('Pad', [x, context.add_const(numpy.array(pads, _int64), 'pads')])


@converts('TransposeSequence', opsets=(1, 10, 11), own_signature=True)
def convert_TransposeSequence(func, opset_version, input_names, output_names, context):
    """The sequences stacked (the shorter ones padded with zeros), transposed and split
    again, each output cut to its length."""
    shapes = [tuple(node.shape) for node in func.inputs]
    ndim = len(shapes[0])
    gb = onnx_helper.GraphBuilder()
    if len(set(shapes)) == 1:
        h = context.unpacked_source(input_names, 0)
        if h is None:
            h = gb.op('Concat', [gb.op('Unsqueeze', [x], axes=[0]) for x in input_names],
                      axis=0)
        h = gb.op('Transpose', [h], perm=[1, 0] + list(range(2, ndim + 1)))
        _unstack(gb, context, h, output_names, 0)
        return gb.nodes()
    longest = shapes[0][0]
    xs = []
    for x, shape in zip(input_names, shapes):
        if shape[0] < longest:
            x = pad_node(gb, opset_version, context, x,
                         [0] * ndim + [longest - shape[0]] + [0] * (ndim - 1))
        xs.append(gb.op('Unsqueeze', [x], axes=[0]))
    h = gb.op('Transpose', [gb.op('Concat', xs, axis=0)], perm=[1, 0] + list(range(2, ndim + 1)))
    parts = gb.op('Split', [h], num_outputs=len(output_names), axis=0)
    if len(output_names) == 1:
        parts = (parts,)
    for k, (part, name) in enumerate(zip(parts, output_names)):
        size = out_shape(func, k)[0]
        if size < len(input_names):
            part = get_slice_node(gb, opset_version, context, [part], [1], [0], [size], [1])
        gb.op_output_named('Squeeze', [part], [name], axes=[0])
    return gb.nodes()


@converts('Where', opsets=(9,))
def convert_Where(func, opset_version, input_names, output_names, context):
    if len(input_names) == 3:       # the condition as an input, as in Chainer
        return onnx_helper.make_node('Where', input_names, output_names),
    condition = context.add_const(numpy.asarray(func.condition, dtype=bool), 'condition')
    return onnx_helper.make_node('Where', [condition] + list(input_names), output_names),


def _flip(func, opset_version, input_names, output_names, context, axis):
    gb = onnx_helper.GraphBuilder()
    axis = normalize_axis(axis, len(in_shape(func)))
    get_slice_node(gb, opset_version, context, input_names, [axis], [INT64_MAX], [INT64_MIN],
                   [-1])
    return gb.nodes(output_names)


@converts('Flip', opsets=(10,))
def convert_Flip(func, opset_version, input_names, output_names, context):
    return _flip(func, opset_version, input_names, output_names, context, func.axis)


@converts('FlipLR', opsets=(10,))
def convert_FlipLR(func, opset_version, input_names, output_names, context):
    return _flip(func, opset_version, input_names, output_names, context, 1)


@converts('FlipUD', opsets=(10,))
def convert_FlipUD(func, opset_version, input_names, output_names, context):
    return _flip(func, opset_version, input_names, output_names, context, 0)


@converts('SumTo')
def convert_SumTo(func, opset_version, input_names, output_names, context):
    """Sums the leading axes away and the axes where the target has size 1."""
    shape, target = dims(func, context, 'in'), dims(func, context)
    lead = len(shape) - len(target)
    gb = onnx_helper.GraphBuilder()
    x = input_names[0]
    if lead:
        x = gb.op('ReduceSum', [x], axes=list(range(lead)), keepdims=0)
    axes = [i for i, (s, t) in enumerate(zip(shape[lead:], target))
            if t == 1 and not is_dim(t) and (s != 1 or is_dim(s))]
    if axes:
        x = gb.op('ReduceSum', [x], axes=axes, keepdims=1)
    if x == input_names[0]:
        gb.op('Identity', [x])
    return gb.nodes(output_names)
