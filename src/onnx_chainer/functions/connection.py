"""Converters of ``chainer.functions.connection``."""
import numpy

from onnx_chainer import onnx_helper
from onnx_chainer.functions._common import dims
from onnx_chainer.functions._common import in_dtype
from onnx_chainer.functions._common import in_shape
from onnx_chainer.functions._common import scalar
from onnx_chainer.functions._common import shape_input
from onnx_chainer.functions._registry import converts
from onnx_chainer.functions.opset_version import support  # NOQA


def _pads(func, kernel):
    # ONNX pads are (begin..., end...). With cover_all, Chainer adds stride - 1 at the end so
    # that the last partial window counts; the same end padding makes ONNX's output match.
    pad = list(func.pad)
    end = list(pad)
    if getattr(func, 'cover_all', False):
        end = [p + s - 1 for p, s in zip(pad, func.stride)]
    return pad + end


def _conv_attrs(func, kernel, with_dilations):
    attrs = {'group': func.groups, 'kernel_shape': list(kernel), 'pads': _pads(func, kernel),
             'strides': list(func.stride)}
    dilate = list(func.dilate)
    if with_dilations or any(d != 1 for d in dilate):
        attrs['dilations'] = dilate
    return attrs


@converts('Convolution2DFunction')
def convert_Convolution2DFunction(func, opset_version, input_names, output_names, context):
    kernel = in_shape(func, 1)[2:]
    return onnx_helper.make_node('Conv', input_names, output_names,
                                 **_conv_attrs(func, kernel, True)),


@converts('ConvolutionND')
def convert_ConvolutionND(func, opset_version, input_names, output_names, context):
    kernel = in_shape(func, 1)[2:]
    return onnx_helper.make_node('Conv', input_names, output_names,
                                 **_conv_attrs(func, kernel, False)),


def _deconv(func, input_names, output_names):
    kernel = in_shape(func, 1)[2:]
    attrs = {'group': func.groups, 'kernel_shape': list(kernel),
             'output_shape': [int(s) for s in func.outs], 'pads': list(func.pad) * 2,
             'strides': list(func.stride)}
    if any(d != 1 for d in func.dilate):
        attrs['dilations'] = list(func.dilate)
    return onnx_helper.make_node('ConvTranspose', input_names, output_names, **attrs),


@converts('Deconvolution2DFunction')
def convert_Deconvolution2DFunction(func, opset_version, input_names, output_names, context):
    return _deconv(func, input_names, output_names)


@converts('DeconvolutionND')
def convert_DeconvolutionND(func, opset_version, input_names, output_names, context):
    return _deconv(func, input_names, output_names)


@converts('EmbedIDFunction')
def convert_EmbedIDFunction(func, opset_version, input_names, output_names, context):
    x, w = input_names
    ignore = getattr(func, 'ignore_label', None)
    if ignore is None:
        return onnx_helper.make_node('Gather', [w, x], output_names, axis=0),
    # Rows of ignore_label are zeros: look up row 0 there, then mask.
    x_dtype = in_dtype(func, 0)
    gb = onnx_helper.GraphBuilder()
    keep = gb.op('Not', [gb.op('Equal', [x, context.add_const(scalar(ignore, x_dtype),
                                                                  'ignore_label')])])
    index = gb.op('Mul', [x, gb.op('Cast', [keep], to=onnx_helper.onnx.helper.
                                   np_dtype_to_tensor_dtype(x_dtype))])
    rows = gb.op('Gather', [w, index], axis=0)
    mask = gb.op('Cast', [keep], to=onnx_helper.onnx.helper.np_dtype_to_tensor_dtype(
        in_dtype(func, 1)))
    mask = gb.op('Unsqueeze', [mask], axes=[len(in_shape(func, 0))])
    gb.op('Mul', [rows, mask])
    return gb.nodes(output_names)


@converts('LinearFunction', opsets=(1, 6, 7))
def convert_LinearFunction(func, opset_version, input_names, output_names, context):
    x, w = input_names[:2]
    if len(input_names) == 3:
        b = input_names[2]
    else:
        out_size = in_shape(func, 1)[0]
        b = context.add_param(numpy.zeros(out_size, dtype=in_dtype(func, 1)), 'bias')
    attrs = {'alpha': 1.0, 'beta': 1.0, 'transA': 0, 'transB': 1}
    if opset_version < 7:
        attrs['broadcast'] = 1
    x_shape = in_shape(func, 0)
    if len(x_shape) == 2:
        return onnx_helper.make_node('Gemm', [x, w, b], output_names, **attrs),
    # More than one batch axis: Gemm on the flattened batch, then the batch shape back.
    gb = onnx_helper.GraphBuilder()
    n_batch = len(x_shape) - len(in_shape(func, 1)) + 1
    flat = context.add_const(numpy.array([-1, x_shape[-1]], numpy.int64), 'flat_shape')
    h = gb.op('Reshape', [x, flat])
    h = gb.op('Gemm', [h, w, b], **attrs)
    shape = shape_input(gb, context, dims(func, context, 'in')[:n_batch] + [-1], 'out_shape')
    gb.op('Reshape', [h, shape])
    return gb.nodes(output_names)
