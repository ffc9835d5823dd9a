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
