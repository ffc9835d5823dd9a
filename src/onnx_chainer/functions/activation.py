"""Converters of ``chainer.functions.activation``."""
from onnx_chainer import onnx_helper
from onnx_chainer.functions._common import in_dtype
from onnx_chainer.functions._common import in_shape
from onnx_chainer.functions._common import scalar
from onnx_chainer.functions._registry import converts
from onnx_chainer.functions.opset_version import support  # NOQA


@converts('ClippedReLU', opsets=(1, 6, 11))
def convert_ClippedReLU(func, opset_version, input_names, output_names, context):
    if opset_version < 11:
        return onnx_helper.make_node('Clip', input_names, output_names, min=0.0,
                                     max=float(func.cap)),
    dtype = in_dtype(func)
    zero = context.add_const(scalar(0, dtype), 'zero')
    cap = context.add_const(scalar(func.cap, dtype), 'clip_z')
    return onnx_helper.make_node('Clip', [input_names[0], zero, cap], output_names),


@converts('ELU', opsets=(1, 6))
def convert_ELU(func, opset_version, input_names, output_names, context):
    return onnx_helper.make_node('Elu', input_names, output_names, alpha=float(func.alpha)),


@converts('HardSigmoid', opsets=(1, 6))
def convert_HardSigmoid(func, opset_version, input_names, output_names, context):
    return onnx_helper.make_node('HardSigmoid', input_names, output_names, alpha=0.2,
                                 beta=0.5),


@converts('LeakyReLU', opsets=(1, 6))
def convert_LeakyReLU(func, opset_version, input_names, output_names, context):
    return onnx_helper.make_node('LeakyRelu', input_names, output_names,
                                 alpha=float(func.slope)),


def _softmax_like(op, func, opset_version, input_names, output_names):
    # Before opset 13, (Log)Softmax flattens the axes from ``axis`` on, which is Chainer's
    # softmax only over the last axis: other axes are swapped to the end and back. From 13 it
    # normalizes over ``axis`` alone, as Chainer does.
    ndim = len(in_shape(func))
    axis = func.axis + ndim if func.axis < 0 else func.axis
    if axis == ndim - 1 or opset_version >= 13:
        return onnx_helper.make_node(op, input_names, output_names, axis=axis),
    perm = list(range(ndim))
    perm[axis], perm[-1] = perm[-1], perm[axis]
    gb = onnx_helper.GraphBuilder()
    h = gb.op('Transpose', input_names, perm=perm)
    h = gb.op(op, [h], axis=ndim - 1)
    gb.op('Transpose', [h], perm=perm)
    return gb.nodes(output_names)


@converts('LogSoftmax', opsets=(1, 13), own_signature=True)
def convert_LogSoftmax(func, opset_version, input_names, output_names, context):
    return _softmax_like('LogSoftmax', func, opset_version, input_names, output_names)


@converts('Softmax', opsets=(1, 13), own_signature=True)
def convert_Softmax(func, opset_version, input_names, output_names, context):
    return _softmax_like('Softmax', func, opset_version, input_names, output_names)


@converts('PReLUFunction', opsets=(1, 6, 7))
def convert_PReLUFunction(func, opset_version, input_names, output_names, context):
    gb = onnx_helper.GraphBuilder()
    w = _channel_parameter(gb, func, input_names[1], len(in_shape(func, 0)),
                           len(in_shape(func, 1)))
    if w == input_names[1]:
        return onnx_helper.make_node('PRelu', input_names, output_names),
    gb.op('PRelu', [input_names[0], w])
    return gb.nodes(output_names)


def _channel_parameter(gb, func, name, x_ndim, w_ndim):
    # Chainer broadcasts a parameter of W.ndim axes over the axes after 1 + W.ndim; ONNX
    # aligns it to the last axes, so it gets trailing unit axes where it is shorter.
    if 0 < w_ndim < x_ndim - 1:
        return gb.op('Unsqueeze', [name], axes=list(range(w_ndim, x_ndim - 1)))
    return name


@converts('CReLU', opsets=(7,))
def convert_CReLU(func, opset_version, input_names, output_names, context):
    gb = onnx_helper.GraphBuilder()
    x = input_names[0]
    positive = gb.op('Relu', [x])
    negative = gb.op('Relu', [gb.op('Neg', [x])])
    gb.op('Concat', [positive, negative], axis=func.axis)
    return gb.nodes(output_names)


@converts('ReLU', opsets=(1, 6))
def convert_ReLU(func, opset_version, input_names, output_names, context):
    return onnx_helper.make_node('Relu', input_names, output_names),


@converts('Selu', 'SELU', opsets=(1, 6))
def convert_Selu(func, opset_version, input_names, output_names, context):
    alpha = getattr(func, 'alpha', 1.6732632423543772)
    gamma = getattr(func, 'scale', getattr(func, 'gamma', 1.0507009873554805))
    return onnx_helper.make_node('Selu', input_names, output_names, alpha=float(alpha),
                                 gamma=float(gamma)),


@converts('Sigmoid', opsets=(1, 6))
def convert_Sigmoid(func, opset_version, input_names, output_names, context):
    return onnx_helper.make_node('Sigmoid', input_names, output_names),


@converts('Softplus')
def convert_Softplus(func, opset_version, input_names, output_names, context):
    beta = float(getattr(func, 'beta', 1.0))
    if beta == 1.0:
        return onnx_helper.make_node('Softplus', input_names, output_names),
    # ONNX's Softplus has no beta: softplus(x; beta) = softplus(beta * x) / beta.
    dtype = in_dtype(func)
    b = context.add_const(scalar(beta, dtype), 'beta')
    gb = onnx_helper.GraphBuilder()
    h = gb.op('Mul', [input_names[0], b])
    h = gb.op('Softplus', [h])
    gb.op('Div', [h, b])
    return gb.nodes(output_names)


@converts('Swish', opsets=(7,))
def convert_Swish(func, opset_version, input_names, output_names, context):
    """``x * sigmoid(beta * x)``, ``beta`` broadcast as Chainer does (from axis 1)."""
    x, beta = input_names
    gb = onnx_helper.GraphBuilder()
    beta = _channel_parameter(gb, func, beta, len(in_shape(func, 0)), len(in_shape(func, 1)))
    gate = gb.op('Sigmoid', [gb.op('Mul', [x, beta])])
    gb.op('Mul', [x, gate])
    return gb.nodes(output_names)


@converts('Tanh', opsets=(1, 6))
def convert_Tanh(func, opset_version, input_names, output_names, context):
    return onnx_helper.make_node('Tanh', input_names, output_names),

