"""Arithmetic on Variables: the operators ``+ - * / // ** @``, unary ``-`` and ``abs``."""
import numbers

import numpy

import chainer
from chainer import _errors
from chainer import function_node
from chainer.functions.math import _elementwise
from chainer.functions.math import matmul as _matmul_mod
from chainer import variable
from chainer.utils import type_check

_Variable = variable.Variable
# Module globals, not attribute lookups, on the hot paths of the operators.
_sum_to = _elementwise.sum_to
_check_float = _elementwise.check_float


def _check_binary(in_types):
    type_check._argname(in_types, ('lhs', 'rhs'))
    type_check.expect(in_types[0].dtype == in_types[1].dtype)
    type_check.expect_broadcast_shapes(in_types[0].shape, in_types[1].shape)


def _check_unary(in_types):
    type_check._argname(in_types, ('x',))


# Light-mode types of a passing unary check, tested inline by the hot operator nodes.
_LightTypes = type_check.LightTypeInfoTuple


def _value_label(value):
    # Negative constants are parenthesized so that labels like '_ - (-1.0)' read right.
    if numpy.isscalar(value):
        return f'({value})' if value < 0 else str(value)
    return 'constant array'


class Neg(function_node.FunctionNode):

    @property
    def label(self):
        return '__neg__'

    def check_type_forward(self, in_types):
        # A passing light check (one input, nothing else asked) returns without calls.
        if in_types.__class__ is not _LightTypes or len(in_types) != 1:
            _check_unary(in_types)

    def forward(self, x):
        return -x[0],

    def backward(self, indexes, gy):
        return Neg().apply(gy)


class Absolute(function_node.FunctionNode):

    @property
    def label(self):
        return '|_|'

    def check_type_forward(self, in_types):
        _check_float(in_types)

    def forward(self, x):
        self.retain_inputs((0,))
        return abs(x[0]),

    def backward(self, indexes, gy):
        x = self.inputs[0].data
        return AbsoluteGrad(x).apply(gy)


class AbsoluteGrad(function_node.FunctionNode):
    """Multiplies by sign(x) for a fixed x; its own gradient is the same map."""

    def __init__(self, x):
        self.x = x

    def forward(self, inputs):
        xp = chainer.backend.get_array_module(self.x)
        return (inputs[0] * xp.sign(self.x).astype(inputs[0].dtype, copy=False)),

    def backward(self, indexes, grad_outputs):
        return AbsoluteGrad(self.x).apply(grad_outputs)


class _VarVar(function_node.FunctionNode):
    """Base of the operator nodes on two Variables; ``_label`` reads like ``'_ + _'``."""

    _label = None

    @property
    def label(self):
        return self._label

    def check_type_forward(self, in_types):
        # A passing light check (two arrays of one dtype and shape) returns without calls.
        if in_types.__class__ is _LightTypes and len(in_types) == 2:
            a, b = in_types
            if a.dtype == b.dtype and a.shape == b.shape:
                return
        _check_binary(in_types)


class _FloatVarVar(_VarVar):
    # Float operands only (Chainer's *, / and **); the kind is checked first, as there.

    def check_type_forward(self, in_types):
        if in_types.__class__ is _LightTypes and len(in_types) == 2:
            a, b = in_types
            if a.dtype == b.dtype and a.dtype.kind == 'f' and a.shape == b.shape:
                return
        type_check._argname(in_types, ('lhs', 'rhs'))
        type_check.expect(in_types[0].dtype.kind == 'f')
        _check_binary(in_types)


class _VarConst(function_node.FunctionNode):
    """Base of the operator nodes between a Variable and a constant ``value``.

    ``_label`` is a format with a slot for the value, like ``'_ + {}'``.
    """

    _label = None

    def __init__(self, value):
        self.value = value

    @property
    def label(self):
        return self._label.format(_value_label(self.value))

    def check_type_forward(self, in_types):
        # A passing light check (one input, nothing else asked) returns without calls.
        if in_types.__class__ is not _LightTypes or len(in_types) != 1:
            _check_unary(in_types)


class _FloatVarConst(_VarConst):

    def check_type_forward(self, in_types):
        _check_float(in_types)


class Add(_VarVar):

    _label = '_ + _'

    def forward(self, x):
        a, b = x
        self.shapes = (a.shape, b.shape)
        return a + b,

    def backward(self, indexes, gy):
        g = gy[0]
        return tuple([_sum_to(g, self.shapes[i]) for i in indexes])


class AddConstant(_VarConst):

    _label = '_ + {}'

    def forward(self, x):
        return x[0] + self.value,

    def backward(self, indexes, gy):
        return gy


class MultiAdd(function_node.FunctionNode):

    @property
    def label(self):
        return '_ + _ + ...'

    def check_type_forward(self, in_types):
        for i, t in enumerate(in_types):
            type_check._argname((t,), (f'x{i}',))
        type_check.expect(*[t.dtype == in_types[0].dtype for t in in_types[1:]])
        type_check.expect_broadcast_shapes(*[t.shape for t in in_types])

    def forward(self, xs):
        self.shapes = [x.shape for x in xs]
        y = xs[0] + xs[1]
        for x in xs[2:]:
            y = y + x
        return y,

    def backward(self, indexes, gy):
        g = gy[0]
        return tuple([_sum_to(g, self.shapes[i]) for i in indexes])


class Sub(_VarVar):

    _label = '_ - _'

    def forward(self, x):
        a, b = x
        self.shapes = (a.shape, b.shape)
        return a - b,

    def backward(self, indexes, gy):
        g = gy[0]
        ret = []
        for i in indexes:
            ret.append(_sum_to(g if i == 0 else -g, self.shapes[i]))
        return tuple(ret)


class SubFromConstant(_VarConst):

    _label = '{} - _'

    def forward(self, x):
        return self.value - x[0],

    def backward(self, indexes, gy):
        return -gy[0],


class Mul(_FloatVarVar):

    _label = '_ * _'

    def forward(self, x):
        self.retain_inputs((0, 1))
        a, b = x
        return a * b,

    def backward(self, indexes, gy):
        a, b = self.get_retained_inputs()
        g = gy[0]
        ret = []
        for i in indexes:
            ret.append(_sum_to(g * b, a.shape) if i == 0 else _sum_to(g * a, b.shape))
        return tuple(ret)


class MulConstant(_VarConst):

    _label = '_ * {}'

    def forward(self, x):
        return x[0] * self.value,

    def backward(self, indexes, gy):
        return MulConstant(self.value).apply(gy)


class Div(_FloatVarVar):

    _label = '_ / _'

    def forward(self, x):
        self.retain_inputs((0, 1))
        a, b = x
        return a / b,

    def backward(self, indexes, gy):
        a, b = self.get_retained_inputs()
        g = gy[0]
        ga = g / b
        ret = []
        if 0 in indexes:
            ret.append(_sum_to(ga, a.shape))
        if 1 in indexes:
            ret.append(_sum_to(-ga * a / b, b.shape))
        return tuple(ret)


class DivFromConstant(_FloatVarConst):

    _label = '{} / _'

    def forward(self, x):
        self.retain_inputs((0,))
        return self.value / x[0],

    def backward(self, indexes, gy):
        x, = self.get_retained_inputs()
        # d(c / x)/dx = -c / x^2
        return gy[0] * (-self.value) / (x * x),


class PowVarVar(_FloatVarVar):

    _label = '_ ** _'

    def forward(self, x):
        self.retain_inputs((0, 1))
        a, b = x
        self.retain_outputs((0,))
        return a ** b,

    def backward(self, indexes, gy):
        a, b = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        g = gy[0]
        ret = []
        if 0 in indexes:
            ret.append(_sum_to(g * b * a ** (b - 1), a.shape))
        if 1 in indexes:
            ret.append(_sum_to(g * chainer.functions.log(a) * y, b.shape))
        return tuple(ret)


class PowVarConst(_FloatVarConst):

    _label = '_ ** {}'

    def forward(self, x):
        self.retain_inputs((0,))
        return x[0] ** self.value,

    def backward(self, indexes, gy):
        x, = self.get_retained_inputs()
        v = self.value
        if numpy.isscalar(v) and v == 2:
            return gy[0] * (x * v),
        return gy[0] * v * x ** (v - 1),


class PowConstVar(_FloatVarConst):

    _label = '{} ** _'

    def forward(self, x):
        self.retain_outputs((0,))
        return self.value ** x[0],

    def backward(self, indexes, gy):
        y, = self.get_retained_outputs()
        log_v = y.dtype.type(numpy.log(self.value))
        return MulConstant(log_v).apply((gy[0] * y,))


class MatMulVarVar(_matmul_mod.MatMul):

    @property
    def label(self):
        return '_ @ _'


# ---------------------------------------------------------------------------
# Operators installed on Variable
# ---------------------------------------------------------------------------

_scalar_types = (int, float, numpy.generic, numbers.Number)
_py_scalars = {int, float}


def _rhs(x, value, op):
    """Converts the other operand: a Variable, an array, or a scalar of x's dtype."""
    if isinstance(value, _Variable):
        return value, True
    if isinstance(value, _scalar_types):
        dtype = x.dtype
        return dtype.type(value), False
    if variable._is_array(value):
        return _Variable(value.astype(x.dtype, copy=False), requires_grad=False), True
    which = _errors.not_an_array(value)
    raise TypeError('Value must be a scalar, `numpy.ndarray`, `cupy.ndarray` or a `Variable`.\n'
                    f'Actual: {type(value)}\n'
                    f'(unsupported operand type for {op}: Variable and {type(value).__name__})'
                    + (f'\n{which}' if which else ''))


def _lhs_array(x):
    if isinstance(x, _Variable):
        return x
    if variable._is_array(x):
        return _Variable(x, requires_grad=False)
    raise TypeError(_errors.not_an_array(x) or
                    f'expected a Variable or an N-dimensional array, got {type(x).__name__}')


def neg(self):
    """Elementwise negation (``-x``)."""
    return Neg().apply((self,))[0]


def absolute(self):
    """Elementwise absolute value.

    Args:
        self (Variable or N-dimensional array): Input.

    Returns:
        ~chainer.Variable: ``|x|``.
    """
    return Absolute().apply((self,))[0]


def _named(fn, name, doc):
    # The operators are built by the factories below; give each its own name
    # and docstring for help() and tracebacks.
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = doc
    return fn


def _operator(name, symbol, var_node, const_node, doc):
    """Builds the method ``x <symbol> rhs`` of a Variable ``x``.

    A Variable or array ``rhs`` gives ``var_node`` on both; a scalar, cast to
    ``x``'s dtype, gives ``const_node(rhs)`` on ``x`` alone.
    """
    def op(self, rhs):
        # The common cases (a Variable, a Python scalar) are tested first and
        # cheaply: every arithmetic expression on Variables comes through here.
        if rhs.__class__ is _Variable:
            return var_node().apply((self, rhs))[0]
        if rhs.__class__ in _py_scalars:
            return const_node(self._array.dtype.type(rhs)).apply((self,))[0]
        rhs, is_var = _rhs(self, rhs, symbol)
        if is_var:
            return var_node().apply((self, rhs))[0]
        return const_node(rhs).apply((self,))[0]
    return _named(op, name, doc)


def _reflected(name, symbol, var_node, const_node, doc):
    """Builds the method ``lhs <symbol> x`` of a Variable ``x`` (Python's ``__r*__``)."""
    def op(self, lhs):
        lhs, is_var = _rhs(self, lhs, symbol)
        if is_var:
            return var_node().apply((lhs, self))[0]
        return const_node(lhs).apply((self,))[0]
    return _named(op, name, doc)


def _add_negated(value):
    # ``x - c`` is recorded as ``x + (-c)``, as Chainer does.
    return AddConstant(-value)


_add = _operator(
    '_add', '+', Add, AddConstant,
    """Elementwise addition (``x + rhs``), broadcasting; scalars take ``x``'s dtype.""")
_radd = _reflected(
    '_radd', '+', Add, AddConstant,
    """Elementwise addition with the Variable on the right (``lhs + x``).""")
_sub = _operator(
    '_sub', '-', Sub, _add_negated,
    """Elementwise subtraction (``x - rhs``), broadcasting; scalars take ``x``'s dtype.""")
_rsub = _reflected(
    '_rsub', '-', Sub, SubFromConstant,
    """Elementwise subtraction with the Variable on the right (``lhs - x``).""")
_mul = _operator(
    '_mul', '*', Mul, MulConstant,
    """Elementwise multiplication (``x * rhs``), broadcasting; scalars take ``x``'s dtype.""")
_rmul = _reflected(
    '_rmul', '*', Mul, MulConstant,
    """Elementwise multiplication with the Variable on the right (``lhs * x``).""")
_rdiv = _reflected(
    '_rdiv', '/', Div, DivFromConstant,
    """Elementwise true division with the Variable on the right (``lhs / x``).""")
_pow = _operator(
    '_pow', '**', PowVarVar, PowVarConst,
    """Elementwise power (``x ** rhs``), broadcasting; scalars take ``x``'s dtype.""")
_rpow = _reflected(
    '_rpow', '**', PowVarVar, PowConstVar,
    """Elementwise power with the Variable as exponent (``lhs ** x``).""")


def add(*xs):
    """Elementwise sum of any number of inputs (with broadcasting).

    With two inputs this is ``xs[0] + xs[1]``: the second one may then also be
    a scalar. Summing three or more inputs in one call is faster than chaining
    ``+``.

    Args:
        xs (Variable or N-dimensional array): Inputs of the same dtype.

    Returns:
        ~chainer.Variable: The sum.
    """
    if len(xs) == 2:
        # Two operands behave as ``+``: the right one may also be a scalar or
        # an array of another dtype (cast to the left one's dtype).
        return _add(_lhs_array(xs[0]), xs[1])
    if len(xs) == 1:
        return chainer.functions.identity(xs[0])
    if not xs:
        raise ValueError('add requires at least one input')
    return MultiAdd().apply(xs)[0]


def _div(self, rhs):
    """Elementwise true division (``x / rhs``), broadcasting; scalars take ``x``'s dtype."""
    if type(rhs) is _Variable:
        return Div().apply((self, rhs))[0]
    rhs, is_var = _rhs(self, rhs, '/')
    if is_var:
        return Div().apply((self, rhs))[0]
    return MulConstant(rhs.dtype.type(1) / rhs).apply((self,))[0] \
        if self.dtype.kind == 'f' else Div().apply(
            (self, _Variable(_full_like(self, rhs), requires_grad=False)))[0]


def _full_like(x, value):
    xp = chainer.backend.get_array_module(x.array)
    return xp.full((), value, dtype=x.dtype)


def _floordiv(self, rhs):
    """Elementwise floor division (``x // rhs``); the result has no gradient."""
    # Floor of the true quotient, as Chainer does; floor cuts the graph, so
    # ``//`` gives no gradient.
    return chainer.functions.floor(_div(self, rhs))


def _rfloordiv(self, lhs):
    """Elementwise floor division with the Variable on the right (``lhs // x``)."""
    return chainer.functions.floor(_rdiv(self, lhs))


def _matmul(self, rhs):
    """Matrix product (``x @ rhs``), see :func:`~chainer.functions.matmul`."""
    # Chainer 7 labels this node 'MatMul' (as F.matmul), not '_ @ _'.
    if not isinstance(rhs, _Variable):
        rhs = _lhs_array(rhs)
    return _matmul_mod.MatMul().apply((self, rhs))[0]


def _rmatmul(self, lhs):
    """Matrix product with the Variable on the right (``lhs @ x``)."""
    return _matmul_mod.MatMul().apply((_lhs_array(lhs), self))[0]


def _module_level(op):
    """``op`` as a function whose left operand may also be an array, as in Chainer."""
    def fn(self, rhs):   # (Chainer's parameter names)
        return op(_lhs_array(self), rhs)
    return _named(fn, op.__name__, op.__doc__)


# The operator functions under Chainer's module-level names, for code that
# imports them from here; ``rsub(x, c)`` is ``c - x`` (``add`` serves ``+``).
sub = _module_level(_sub)
rsub = _module_level(_rsub)
mul = _module_level(_mul)
div = _module_level(_div)
rdiv = _module_level(_rdiv)
floordiv = _module_level(_floordiv)
rfloordiv = _module_level(_rfloordiv)
pow = _module_level(_pow)
rpow = _module_level(_rpow)
matmul = _module_level(_matmul)
rmatmul = _module_level(_rmatmul)


def _pos(self):
    # unary plus is the Variable itself, as in Chainer 7.8.1
    return self


def install_variable_arithmetics():
    """Defines the arithmetic operators of :class:`~chainer.Variable`."""
    V = _Variable
    V.__neg__ = neg
    V.__abs__ = absolute
    V.__pos__ = _pos
    V.__add__ = _add
    V.__radd__ = _radd
    V.__sub__ = _sub
    V.__rsub__ = _rsub
    V.__mul__ = _mul
    V.__rmul__ = _rmul
    V.__truediv__ = _div
    V.__rtruediv__ = _rdiv
    # Python 3 never calls these; Chainer 7 still defined them, and old code
    # may call them by name.
    V.__div__ = _div
    V.__rdiv__ = _rdiv
    V.__floordiv__ = _floordiv
    V.__rfloordiv__ = _rfloordiv
    V.__pow__ = _pow
    V.__rpow__ = _rpow
    V.__matmul__ = _matmul
    V.__rmatmul__ = _rmatmul
