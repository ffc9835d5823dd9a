"""Converters of ``chainer.functions.loss``."""
import numpy

from onnx_chainer import onnx_helper
from onnx_chainer.functions._common import in_dtype
from onnx_chainer.functions._common import in_shape
from onnx_chainer.functions._common import tensor_type
from onnx_chainer.functions._registry import converts
from onnx_chainer.functions.array import get_slice_node
from onnx_chainer.functions.opset_version import support  # NOQA


@converts('SoftmaxCrossEntropy', opsets=(9,))
def convert_SoftmaxCrossEntropy(func, opset_version, input_names, output_names, context):
    """Mean over the batch of ``-sum(log_softmax(x) * one_hot(t))``.

    Labels equal to ``ignore_label`` are not told apart at run time: the exported graph
    assumes the batch has none.
    """
    x_shape = in_shape(func, 0)
    if len(x_shape) != 2:
        raise ValueError('ONNX-Chainer supports SoftmaxCrossEntropy of 2-dimensional x only, '
                         'got x of shape {}'.format(x_shape))
    if getattr(func, 'class_weight', None) is not None:
        raise ValueError('ONNX-Chainer does not support SoftmaxCrossEntropy with class_weight')
    reduce = getattr(func, 'reduce', 'mean')
    x, t = input_names
    depth = context.add_const(numpy.array([x_shape[1]], numpy.int32), 'depth')
    zeroone = context.add_const(numpy.array([0, 1], in_dtype(func)), 'zeroone')
    gb = onnx_helper.GraphBuilder()
    log_p = gb.op('LogSoftmax', [x])
    target = gb.op('OneHot', [t, depth, zeroone])
    h = gb.op('Neg', [gb.op('Mul', [log_p, target])])
    h = gb.op('ReduceSum', [h], axes=[1], keepdims=0)
    if reduce == 'mean':
        gb.op('ReduceMean', [h], axes=[0], keepdims=0)
    return gb.nodes(output_names)


@converts('MeanSquaredError', opsets=(7,))
def convert_MeanSquaredError(func, opset_version, input_names, output_names, context):
    gb = onnx_helper.GraphBuilder()
    diff = gb.op('Sub', input_names)
    gb.op('ReduceMean', [gb.op('Mul', [diff, diff])], keepdims=0)
    return gb.nodes(output_names)


@converts('SigmoidCrossEntropy', opsets=(9, 10))
def convert_SigmoidCrossEntropy(func, opset_version, input_names, output_names, context):
    """``log(1 + exp(-|x|)) - x * (t - [x >= 0])`` where ``t != -1``, averaged over the
    valid elements (``normalize``) or the batch, or elementwise (``reduce='no'``)."""
    x, t = input_names
    dtype = in_dtype(func)
    float_type = tensor_type(dtype)
    one = context.add_const(numpy.array(1, dtype), 'one')
    zero = context.add_const(numpy.array(0, dtype), 'zero')
    ignore = context.add_const(numpy.array(-1, in_dtype(func, 1)), 'ignore_label')
    gb = onnx_helper.GraphBuilder()
    valid = gb.op('Cast', [gb.op('Not', [gb.op('Equal', [t, ignore])])], to=float_type)
    positive = gb.op('Cast', [gb.op('Not', [gb.op('Less', [x, zero])])], to=float_type)
    softplus = gb.op('Log', [gb.op('Add', [one, gb.op('Exp', [gb.op('Neg', [
        gb.op('Abs', [x])])])])])
    target = gb.op('Sub', [gb.op('Cast', [t], to=float_type), positive])
    loss = gb.op('Mul', [valid, gb.op('Sub', [softplus, gb.op('Mul', [x, target])])])
    if func.reduce == 'mean':
        if func.normalize:
            count = gb.op('Max', [gb.op('ReduceSum', [valid], keepdims=0), one])
        else:
            batch = get_slice_node(gb, opset_version, context,
                                   [gb.op('Shape', [x])], [0], [0], [1], [1])
            count = gb.op('Cast', [gb.op('Squeeze', [batch], axes=[0])], to=float_type)
        gb.op('Div', [gb.op('ReduceSum', [loss], keepdims=0), count])
    return gb.nodes(output_names)
