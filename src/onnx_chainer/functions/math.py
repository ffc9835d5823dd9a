"""Converters of ``chainer.functions.math`` and of the operators of Variable."""
import numpy

from onnx_chainer import onnx_helper
from onnx_chainer.functions._common import in_dtype
from onnx_chainer.functions._common import in_shape
from onnx_chainer.functions._common import scalar
from onnx_chainer.functions._common import tensor_type
from onnx_chainer.functions._registry import converts
# convert_BroadcastTo lived in this module in Chainer's onnx_chainer.
from onnx_chainer.functions.array import convert_BroadcastTo  # NOQA
from onnx_chainer.functions.opset_version import support  # NOQA


def _unary(op):
    def convert(func, opset_version, input_names, output_names, context):
        return onnx_helper.make_node(op, input_names, output_names),
    return convert


def _binary(op):
    def convert(func, opset_version, input_names, output_names, context):
        return onnx_helper.make_node(op, input_names, output_names),
    return convert


def _with_constant(op, constant_first):
    # ``x <op> c`` or ``c <op> x`` with the constant ``func.value`` in x's dtype.
    def convert(func, opset_version, input_names, output_names, context):
        value = context.add_const(scalar(func.value, in_dtype(func)), 'value')
        inputs = [value, input_names[0]] if constant_first else [input_names[0], value]
        return onnx_helper.make_node(op, inputs, output_names),
    return convert


convert_Absolute = converts('Absolute', opsets=(1, 6))(_unary('Abs'))
convert_Arccos = converts('Arccos', opsets=(7,))(_unary('Acos'))
convert_Arcsin = converts('Arcsin', opsets=(7,))(_unary('Asin'))
convert_Arctan = converts('Arctan', opsets=(7,))(_unary('Atan'))
convert_Cos = converts('Cos', opsets=(7,))(_unary('Cos'))
convert_Cosh = converts('Cosh', opsets=(9,))(_unary('Cosh'))
convert_Exp = converts('Exp', opsets=(1, 6))(_unary('Exp'))
convert_Log = converts('Log', opsets=(6,))(_unary('Log'))
convert_Neg = converts('Neg', opsets=(1, 6))(_unary('Neg'))
convert_sign = converts('sign', opsets=(9,))(_unary('Sign'))
convert_Sin = converts('Sin', opsets=(7,))(_unary('Sin'))
convert_Sinh = converts('Sinh', opsets=(9,))(_unary('Sinh'))
convert_Sqrt = converts('Sqrt', opsets=(1, 6))(_unary('Sqrt'))
convert_Tan = converts('Tan', opsets=(7,))(_unary('Tan'))

convert_Add = converts('Add', opsets=(1, 6, 7))(_binary('Add'))
convert_Div = converts('Div', opsets=(1, 6, 7))(_binary('Div'))
convert_Maximum = converts('Maximum', opsets=(1, 6, 8))(_binary('Max'))
convert_Minimum = converts('Minimum', opsets=(1, 6, 8))(_binary('Min'))
convert_Mul = converts('Mul', opsets=(1, 6, 7))(_binary('Mul'))
convert_PowVarVar = converts('PowVarVar', opsets=(1, 7))(_binary('Pow'))
convert_Sub = converts('Sub', opsets=(1, 6, 7))(_binary('Sub'))

convert_AddConstant = converts('AddConstant', opsets=(1, 6, 7))(_with_constant('Add', False))
convert_DivFromConstant = converts('DivFromConstant', opsets=(1, 6, 7))(
    _with_constant('Div', True))
convert_MulConstant = converts('MulConstant', opsets=(1, 6, 7))(_with_constant('Mul', False))
convert_PowConstVar = converts('PowConstVar', opsets=(1, 7))(_with_constant('Pow', True))
convert_PowVarConst = converts('PowVarConst', opsets=(1, 7))(_with_constant('Pow', False))
convert_SubFromConstant = converts('SubFromConstant', opsets=(1, 6, 7))(
    _with_constant('Sub', True))

for _name, _fn in list(globals().items()):
    if _name.startswith('convert_'):
        _fn.__name__ = _fn.__qualname__ = _name
del _name, _fn


def _arg_reduction(op, func, input_names, output_names, context):
    gb = onnx_helper.GraphBuilder()
    x = input_names[0]
    axis = func.axis
    if axis is None:
        shape = context.add_const(numpy.array([-1], numpy.int64), 'shape')
        x = gb.op('Reshape', [x, shape])
        axis = 0
    h = gb.op(op, [x], axis=axis, keepdims=0)
    gb.op('Cast', [h], to=tensor_type(numpy.int32))
    return gb.nodes(output_names)


@converts('ArgMax', opsets=(6,))
def convert_ArgMax(func, opset_version, input_names, output_names, context):
    return _arg_reduction('ArgMax', func, input_names, output_names, context)


@converts('ArgMin', opsets=(6,))
def convert_ArgMin(func, opset_version, input_names, output_names, context):
    return _arg_reduction('ArgMin', func, input_names, output_names, context)


@converts('Clip', opsets=(1, 6, 11))
def convert_Clip(func, opset_version, input_names, output_names, context):
    if opset_version < 11:
        return onnx_helper.make_node('Clip', input_names, output_names,
                                     min=float(func.x_min), max=float(func.x_max)),
    dtype = in_dtype(func)
    lo = context.add_const(scalar(func.x_min, dtype), 'x_min')
    hi = context.add_const(scalar(func.x_max, dtype), 'x_max')
    return onnx_helper.make_node('Clip', [input_names[0], lo, hi], output_names),


@converts('Identity')
def convert_Identity(func, opset_version, input_names, output_names, context):
    if len(input_names) == 1:
        return onnx_helper.make_node('Identity', input_names, output_names),
    gb = onnx_helper.GraphBuilder()
    for i, o in zip(input_names, output_names):
        gb.op_output_named('Identity', [i], [o])
    return gb.nodes()


@converts('LinearInterpolate', opsets=(1, 6, 7))
def convert_LinearInterpolate(func, opset_version, input_names, output_names, context):
    p, x, y = input_names
    one = context.add_const(scalar(1, in_dtype(func)), 'one')
    gb = onnx_helper.GraphBuilder()
    q = gb.op('Sub', [one, p])
    px = gb.op('Mul', [p, x])
    qy = gb.op('Mul', [q, y])
    gb.op('Add', [px, qy])
    return gb.nodes(output_names)


def _reduction(op):
    def convert(func, opset_version, input_names, output_names, context):
        attrs = {'keepdims': int(bool(getattr(func, 'keepdims', False)))}
        if func.axis is not None:
            attrs['axes'] = list(func.axis) if isinstance(func.axis, tuple) else [func.axis]
        return onnx_helper.make_node(op, input_names, output_names, **attrs),
    return convert


convert_LogSumExp = converts('LogSumExp')(_reduction('ReduceLogSumExp'))
convert_Max = converts('Max')(_reduction('ReduceMax'))
convert_Mean = converts('Mean')(_reduction('ReduceMean'))
convert_Min = converts('Min')(_reduction('ReduceMin'))
convert_Prod = converts('Prod')(_reduction('ReduceProd'))
convert_Sum = converts('Sum')(_reduction('ReduceSum'))
for _name in ('LogSumExp', 'Max', 'Mean', 'Min', 'Prod', 'Sum'):
    globals()['convert_' + _name].__name__ = 'convert_' + _name
    globals()['convert_' + _name].__qualname__ = 'convert_' + _name
del _name


@converts('MatMul')
def convert_MatMul(func, opset_version, input_names, output_names, context):
    gb = onnx_helper.GraphBuilder()
    a, b = input_names
    if func.transa:
        a = gb.op('Transpose', [a], perm=_swap_last(len(in_shape(func, 0))))
    if func.transb:
        b = gb.op('Transpose', [b], perm=_swap_last(len(in_shape(func, 1))))
    gb.op('MatMul', [a, b])
    return gb.nodes(output_names)


def _swap_last(ndim):
    perm = list(range(ndim))
    if ndim >= 2:
        perm[-1], perm[-2] = perm[-2], perm[-1]
    return perm


@converts('RsqrtGPU', 'Rsqrt')
def convert_RsqrtGPU(func, opset_version, input_names, output_names, context):
    gb = onnx_helper.GraphBuilder()
    gb.op('Reciprocal', [gb.op('Sqrt', input_names)])
    return gb.nodes(output_names)


@converts('Square', opsets=(1, 6, 7))
def convert_Square(func, opset_version, input_names, output_names, context):
    return onnx_helper.make_node('Mul', [input_names[0], input_names[0]], output_names),


# -- functions Chainer 7.8.1's onnx_chainer did not convert -------------------------------------

convert_Arctanh = converts('Arctanh', opsets=(9,))(_unary('Atanh'))
convert_Erf = converts('Erf', opsets=(9,))(_unary('Erf'))
for _name in ('Arctanh', 'Erf'):
    globals()['convert_' + _name].__name__ = 'convert_' + _name
    globals()['convert_' + _name].__qualname__ = 'convert_' + _name
del _name


@converts('Log1p', opsets=(7,))
def convert_Log1p(func, opset_version, input_names, output_names, context):
    one = context.add_const(scalar(1, in_dtype(func)), 'one')
    gb = onnx_helper.GraphBuilder()
    gb.op('Log', [gb.op('Add', [input_names[0], one])])
    return gb.nodes(output_names)


@converts('Expm1', opsets=(7,))
def convert_Expm1(func, opset_version, input_names, output_names, context):
    one = context.add_const(scalar(1, in_dtype(func)), 'one')
    gb = onnx_helper.GraphBuilder()
    gb.op('Sub', [gb.op('Exp', input_names), one])
    return gb.nodes(output_names)


@converts('BatchMatMul', opsets=(7,))
def convert_BatchMatMul(func, opset_version, input_names, output_names, context):
    """Chainer's ``batch_matmul``: a matrix product per batch row, where a 2-d operand
    ``(B, N)`` is the column vectors ``(B, N, 1)``."""
    gb = onnx_helper.GraphBuilder()
    names = []
    for k, (name, trans) in enumerate(zip(input_names, (func.transa, func.transb))):
        if len(in_shape(func, k)) == 2:
            name = gb.op('Unsqueeze', [name], axes=[2])
        if trans:
            name = gb.op('Transpose', [name], perm=[0, 2, 1])
        names.append(name)
    gb.op('MatMul', names)
    return gb.nodes(output_names)


@converts('EinSum', opsets=(12,))
def convert_EinSum(func, opset_version, input_names, output_names, context):
    in_subs = func.in_subs
    if not isinstance(in_subs, str):
        in_subs = ','.join(in_subs)
    equation = '{}->{}'.format(in_subs, func.out_sub)
    return onnx_helper.make_node('Einsum', input_names, output_names, equation=equation),


@converts('Cumsum', opsets=(11,))
def convert_Cumsum(func, opset_version, input_names, output_names, context):
    if func.axis is None:       # over the flattened input
        gb = onnx_helper.GraphBuilder()
        flat = gb.op('Reshape', [input_names[0], context.add_const(
            numpy.array([-1], numpy.int64), 'shape')])
        gb.op('CumSum', [flat, context.add_const(numpy.array(0, numpy.int64), 'axis')])
        return gb.nodes(output_names)
    axis = context.add_const(numpy.array(func.axis, numpy.int64), 'axis')
    return onnx_helper.make_node('CumSum', [input_names[0], axis], output_names),
