"""Converters of ``chainer.functions.loss``."""
import numpy

from onnx_chainer import onnx_helper
from onnx_chainer.functions._common import in_dtype
from onnx_chainer.functions._common import in_shape
from onnx_chainer.functions._registry import converts
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
