"""Small helpers shared by the converter modules."""
import numpy

from onnx_chainer import _onnx

onnx = _onnx.require()

INT64_MAX = numpy.iinfo(numpy.int64).max
INT64_MIN = numpy.iinfo(numpy.int64).min


def tensor_type(dtype):
    """ONNX element type of a NumPy dtype."""
    return onnx.helper.np_dtype_to_tensor_dtype(numpy.dtype(dtype))


def in_shape(func, i=0):
    """Shape of the ``i``-th input of ``func`` as traced."""
    return tuple(func.inputs[i].shape)


def in_dtype(func, i=0):
    return numpy.dtype(func.inputs[i].dtype)


def out_shape(func, i=0):
    """Shape of the ``i``-th output of ``func`` as traced (the output must still be in the
    graph, as the outputs that later functions or the network use are)."""
    node = func.outputs[i]()
    if node is None:
        raise RuntimeError('the output {} of {} is not in the graph any more: its shape is '
                           'unknown'.format(i, type(func).__name__))
    return tuple(node.shape)


def scalar(value, dtype):
    """A 0-d array of ``dtype``."""
    return numpy.array(value, dtype=dtype)


def normalize_axis(axis, ndim):
    return axis + ndim if axis < 0 else axis


# -- sizes that follow the dynamic dimensions of ``input_shapes`` (see ``_dynamic``) ----------

def dims(func, context, kind='out', index=0):
    """The shape of input (``kind='in'``) or output ``index`` of ``func``: ints where the size
    is fixed, ``_dynamic.Dim`` where it follows a dynamic dimension of the export."""
    table = getattr(context, 'dims', None)
    found = table.get(func, kind, index) if table is not None else None
    if found is not None:
        return list(found)
    return list(in_shape(func, index) if kind == 'in' else out_shape(func, index))


def is_dim(value):
    """Whether ``value`` is a size that follows a dynamic dimension."""
    from onnx_chainer._dynamic import Dim
    return isinstance(value, Dim)


def dim_value(gb, context, dim):
    """The ONNX name of a 1-element int64 tensor with the run-time value of ``dim``."""
    if not dim.known:
        import warnings
        from onnx_chainer import onnx_helper
        warnings.warn(
            'ONNX-Chainer writes a size of {} as traced ({}): it changes with the dynamic '
            'dimensions in a way it cannot express'.format(onnx_helper.get_func_name(),
                                                           dim.traced), UserWarning)
        return context.add_const(numpy.array([dim.traced], numpy.int64), 'size')
    value = None
    for symbol in dim.symbols:
        size = context.symbol_value(symbol)
        value = size if value is None else gb.op('Mul', [value, size])
    if dim.coeff != 1:
        value = gb.op('Mul', [value, context.add_const(
            numpy.array([dim.coeff], numpy.int64), 'coeff')])
    if dim.offset:
        value = gb.op('Add', [value, context.add_const(
            numpy.array([dim.offset], numpy.int64), 'offset')])
    return value


def shape_input(gb, context, shape, name='shape'):
    """The ONNX name of a 1-D int64 tensor holding ``shape`` (ints, and ``Dim`` computed at
    run time): a constant when every entry is an int."""
    if not any(is_dim(d) for d in shape):
        return context.add_const(numpy.array(shape, numpy.int64), name)
    pieces, run = [], []
    for d in shape:
        if is_dim(d):
            if run:
                pieces.append(context.add_const(numpy.array(run, numpy.int64), name))
                run = []
            pieces.append(dim_value(gb, context, d))
        else:
            run.append(int(d))
    if run:
        pieces.append(context.add_const(numpy.array(run, numpy.int64), name))
    return gb.op('Concat', pieces, axis=0) if len(pieces) > 1 else pieces[0]
