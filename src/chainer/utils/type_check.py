"""The type-checking DSL behind ``check_type_forward``.

A function states its input contract as expressions over the input types::

    type_check._argname(in_types, ('x',))
    x_type, = in_types
    type_check.expect(x_type.dtype.kind == 'f', x_type.ndim >= 2)

The same code runs in two modes:

* **full mode** -- ``in_types`` comes from :func:`get_types` and holds
  :class:`Variable` nodes over :class:`TypeInfo`; every attribute access,
  index, call and operator builds an expression tree, so a failing
  :func:`expect` can print both the expression and the values it saw
  (``Expect: x.dtype.kind == f`` / ``Actual: i != f``).
* **light mode** -- ``in_types`` comes from :func:`get_light_types` and holds
  the arrays themselves, so the same expressions evaluate eagerly to plain
  Python values and a passing check costs a few hundred nanoseconds.

The core runs the light check first and, only when it raises, re-runs the
check in full mode to build the message.
"""
import math
import operator
import threading

import numpy

_thread_local = threading.local()


class InvalidType(Exception):
    """Raised when the types of a function's inputs break its contract.

    Args:
        expect (str): Description of the expected condition.
        actual (str): Description of what was actually found.
        msg (str): Full message; built from ``expect`` and ``actual`` when
            omitted.

    Inside :func:`get_function_check_context` the message is prefixed with
    the line ``Invalid operation is performed in: <label> (Forward)``.
    """

    def __init__(self, expect, actual, msg=None):
        if msg is None:
            msg = f'Expect: {expect}\nActual: {actual}'
        function = getattr(_thread_local, 'current_function', None)
        if function is not None:
            label = getattr(function, 'label', type(function).__name__)
            msg = f'\nInvalid operation is performed in: {label} (Forward)\n\n{msg}'
        super().__init__(msg)
        self.expect = expect
        self.actual = actual

    def __reduce__(self):
        # Rebuild from the final message so unpickling never re-adds the prefix.
        return _rebuild_invalid_type, (type(self), self.args, self.expect, self.actual)


def _rebuild_invalid_type(cls, args, expect, actual):
    error = cls.__new__(cls)
    error.args = args
    error.expect = expect
    error.actual = actual
    return error


class _FunctionCheckContext:
    __slots__ = ('_function', '_previous')

    def __init__(self, function):
        self._function = function
        self._previous = None

    def __enter__(self):
        self._previous = getattr(_thread_local, 'current_function', None)
        _thread_local.current_function = self._function

    def __exit__(self, *exc_info):
        _thread_local.current_function = self._previous


def get_function_check_context(function):
    """Returns a context in which :class:`InvalidType` names ``function``.

    Args:
        function: Object with a ``label`` attribute (a ``FunctionNode``'s
            label defaults to its class name).
    """
    return _FunctionCheckContext(function)


class _LightMode:
    """Context manager under which :func:`get_types` returns light types."""

    def __enter__(self):
        _thread_local.light_mode = getattr(_thread_local, 'light_mode', 0) + 1

    def __exit__(self, *exc_info):
        _thread_local.light_mode -= 1


light_mode = _LightMode()


def in_light_mode():
    """Returns ``True`` inside a ``with type_check.light_mode:`` block."""
    return getattr(_thread_local, 'light_mode', 0) > 0


# ----------------------------------------------------------------------------
# Type information

class TypeInfo:
    """Shape and dtype of one input, as seen by a full-mode type check.

    Attributes:
        shape (tuple of ints): Shape of the array.
        dtype (numpy.dtype): Data type, or ``None`` for a missing input.
        ndim (int): Number of dimensions.
        size (int): Number of elements.
    """

    __slots__ = ('shape', 'dtype', 'ndim', 'size')

    def __init__(self, shape, dtype):
        self.shape = shape
        self.dtype = dtype
        self.ndim = len(shape)
        self.size = math.prod(shape)

    def __repr__(self):
        return f'TypeInfo(shape={self.shape}, dtype={self.dtype})'


class TypeInfoTuple(tuple):
    """Tuple of full-mode input types; :meth:`size` is an expression."""

    name = None

    def _set_name(self, name):
        self.name = name

    def size(self):
        """Returns an expression for the number of inputs."""
        return Variable(len(self), f'{self.name}.size')


class LightTypeInfoTuple(tuple):
    """Tuple of the input arrays themselves, for the cheap light-mode check.

    Arrays already expose ``shape``, ``dtype``, ``ndim`` and ``size``, so check
    code written for :class:`TypeInfoTuple` runs unchanged on plain values.
    """

    __slots__ = ()

    def size(self):
        """Returns the number of inputs as an int."""
        return len(self)


def get_types(data, name, accept_none, shapes=None):
    """Builds the full-mode type information of a sequence of arrays.

    Args:
        data (tuple of arrays): The arrays to describe.
        name (str): Name of the tuple in messages (e.g. ``'in_types'``); the
            i-th entry is called ``'<name>[i]'``.
        accept_none (bool): Whether ``None`` entries are allowed; they get an
            empty shape and a ``None`` dtype.
        shapes (sequence of tuples): Shapes to report instead of the arrays'
            own.

    Returns:
        TypeInfoTuple: One :class:`Variable` per entry (or the arrays
        themselves, as a :class:`LightTypeInfoTuple`, in light mode).
    """
    if in_light_mode():
        return get_light_types(data)
    info = TypeInfoTuple(
        _get_type(name, i, x, accept_none, None if shapes is None else shapes[i])
        for i, x in enumerate(data))
    info._set_name(name)
    return info


def _get_type(name, index, array, accept_none, shape):
    var = f'{name}[{index}]'
    if array is None:
        if accept_none:
            return Variable(TypeInfo((), None), var)
        raise TypeError(f'{var} is None, but an array is required')
    if not (hasattr(array, 'shape') and hasattr(array, 'dtype')):
        raise TypeError(f'{var} must be an array, got {type(array).__name__}')
    return Variable(TypeInfo(array.shape if shape is None else tuple(shape), array.dtype), var)


def get_light_types(in_data):
    """Wraps the input arrays for a light-mode type check.

    Args:
        in_data (tuple of arrays): Input arrays.

    Returns:
        LightTypeInfoTuple: The arrays themselves; ``size()`` is their count.
    """
    return LightTypeInfoTuple(in_data)


# ----------------------------------------------------------------------------
# Expression trees

# Binding strength of each node kind, following Python's own precedence, so
# that printed expressions carry exactly the parentheses Python would need.
_COMPARE, _OR, _XOR, _AND, _SHIFT, _ADD, _MUL, _UNARY, _POW, _ATOM = range(1, 11)


def _wrap(value):
    return value if isinstance(value, Expr) else Constant(value)


def eval(exp):
    """Evaluates an expression; any other value is returned unchanged."""
    if isinstance(exp, Expr):
        return exp.eval()
    return exp


class Expr:
    """Base class of the nodes of a type-check expression.

    Attribute access, indexing, calling and all arithmetic, bitwise and
    comparison operators on an expression build larger expressions;
    :meth:`eval` computes the value.
    """

    __slots__ = ()
    _priority = _ATOM
    # Makes NumPy scalars and arrays return NotImplemented from their
    # operators, so Python falls back to our reflected operator methods.
    __array_ufunc__ = None

    def eval(self):
        """Computes the value of this expression."""
        return self._eval()

    def _eval(self):
        raise NotImplementedError

    def __repr__(self):
        return f'<{type(self).__name__} {self}>'

    def __bool__(self):
        # RuntimeError, as in Chainer.
        raise RuntimeError(
            'a type_check expression has no truth value: pass each condition as a separate '
            'argument of type_check.expect(), or call .eval() to get its value')

    def __iter__(self):
        # Without this Python would iterate by calling __getitem__ forever.
        raise TypeError(
            f"type_check expression '{self}' is not iterable; call .eval() to get its value")

    def __getattr__(self, name):
        # Private and special names are Python machinery (copy, pickle, IPython
        # probes), not attributes of the checked value.
        if name.startswith('_'):
            raise AttributeError(name)
        return GetAttr(self, name)

    def __getitem__(self, key):
        return GetItem(self, key)

    def __call__(self, *args):
        return Call(self, args)

    # Comparisons build expressions, yet nodes stay usable as dict keys.
    __hash__ = object.__hash__


class Constant(Expr):
    """A literal value inside an expression."""

    __slots__ = ('value', '_priority')

    def __init__(self, value):
        self.value = value
        # A negative literal prints with a leading minus, so it binds like a
        # unary operator: (-1) ** x.
        negative = isinstance(value, (int, float)) and value < 0
        self._priority = _UNARY if negative else _ATOM

    def __str__(self):
        return str(self.value)

    def _eval(self):
        return self.value


class Variable(Expr):
    """A named value inside an expression.

    Args:
        value: The value.
        name (str): The name printed in messages.
    """

    __slots__ = ('value', 'name')

    def __init__(self, value, name):
        self.value = value
        self.name = name

    def __str__(self):
        return self.name

    def _eval(self):
        return self.value


class GetAttr(Expr):
    """``obj.name``."""

    __slots__ = ('_obj', '_name')

    def __init__(self, obj, name):
        self._obj = obj
        self._name = name

    def __str__(self):
        name = self._name if isinstance(self._name, str) else eval(self._name)
        return f'{_paren(self._obj, _ATOM)}.{name}'

    def _eval(self):
        return getattr(eval(self._obj), eval(self._name))


def _key_str(key):
    if isinstance(key, slice):
        parts = ['' if v is None else str(v) for v in (key.start, key.stop, key.step)]
        if key.step is None:
            parts.pop()
        return ':'.join(parts)
    if isinstance(key, tuple):
        if len(key) == 1:
            return _key_str(key[0]) + ','
        return ', '.join(_key_str(k) for k in key)
    if key is Ellipsis:
        return '...'
    return str(key)


def _eval_key(key):
    if isinstance(key, slice):
        return slice(eval(key.start), eval(key.stop), eval(key.step))
    if isinstance(key, tuple):
        return tuple(_eval_key(k) for k in key)
    return eval(key)


class GetItem(Expr):
    """``obj[key]``; ``key`` may be an index, a slice or a tuple of them."""

    __slots__ = ('_obj', '_key')

    def __init__(self, obj, key):
        self._obj = obj
        self._key = key

    def __str__(self):
        return f'{_paren(self._obj, _ATOM)}[{_key_str(self._key)}]'

    def _eval(self):
        return eval(self._obj)[_eval_key(self._key)]


class Call(Expr):
    """``obj(*args)``."""

    __slots__ = ('_obj', '_args')

    def __init__(self, obj, args):
        self._obj = obj
        self._args = tuple(args)

    def __str__(self):
        args = ', '.join(str(a) for a in self._args)
        return f'{_paren(self._obj, _ATOM)}({args})'

    def _eval(self):
        return eval(self._obj)(*[eval(a) for a in self._args])


def _paren(node, priority, tie=False):
    """Formats ``node`` as an operand of an operator of ``priority``.

    ``tie`` says whether an operand of equal priority needs parentheses too
    (the right side of a left-associative operator, and so on).
    """
    p = node._priority if isinstance(node, Expr) else _ATOM
    if p < priority or (tie and p == priority):
        return f'({node})'
    return str(node)


class UnaryOperator(Expr):
    """A prefix operator such as ``-x``.

    Args:
        priority (int): Binding strength of the operator.
        term: The operand.
        exp (str): The operator's symbol.
        func: Function computing the result from the operand's value.
    """

    __slots__ = ('_priority', '_term', '_exp', '_func')

    def __init__(self, priority, term, exp, func):
        self._priority = priority
        self._term = _wrap(term)
        self._exp = exp
        self._func = func

    def __str__(self):
        return f'{self._exp}{_paren(self._term, self._priority)}'

    def _eval(self):
        return self._func(eval(self._term))


class BinaryOperator(Expr):
    """An infix operator such as ``x + y``.

    Args:
        priority (int): Binding strength of the operator.
        lhs: Left operand.
        rhs: Right operand.
        exp (str): The operator's symbol.
        func: Function computing the result from the operands' values.
        right_associative (bool): ``True`` for ``**``.
    """

    __slots__ = ('_priority', '_lhs', '_rhs', '_exp', '_func', '_right_associative')

    def __init__(self, priority, lhs, rhs, exp, func, right_associative=False):
        self._priority = priority
        self._lhs = _wrap(lhs)
        self._rhs = _wrap(rhs)
        self._exp = exp
        self._func = func
        self._right_associative = right_associative

    def __str__(self):
        p = self._priority
        left = _paren(self._lhs, p, tie=self._right_associative)
        right = _paren(self._rhs, p, tie=not self._right_associative)
        return f'{left} {self._exp} {right}'

    def _eval(self):
        return self._func(eval(self._lhs), eval(self._rhs))


class Testable:
    """Mixin for expressions that :func:`expect` can check."""

    __slots__ = ()

    def expect(self):
        """Raises :class:`InvalidType` unless this condition holds."""
        raise NotImplementedError


class BoolBinaryOperator(BinaryOperator, Testable):
    """A comparison such as ``x.ndim == 2``; :func:`expect` can test it.

    Args:
        lhs: Left operand.
        rhs: Right operand.
        exp (str): The operator's symbol.
        inv (str): The symbol of the negated comparison, used to print the
            actual values when the check fails (``3 != 2``).
        func: The comparison function.
    """

    __slots__ = ('_inv',)

    def __init__(self, lhs, rhs, exp, inv, func):
        super().__init__(_COMPARE, lhs, rhs, exp, func)
        self._inv = inv

    def __str__(self):
        # Comparisons chain in Python, so any nested comparison needs brackets.
        left = _paren(self._lhs, _COMPARE, tie=True)
        right = _paren(self._rhs, _COMPARE, tie=True)
        return f'{left} {self._exp} {right}'

    def expect(self):
        left = eval(self._lhs)
        right = eval(self._rhs)
        if not self._func(left, right):
            raise InvalidType(str(self), f'{left} {self._inv} {right}')


def _make_comparison(exp, inv, func):
    def method(self, other):
        return BoolBinaryOperator(self, other, exp, inv, func)
    return method


def _make_binary(exp, priority, func, right_associative=False):
    def method(self, other):
        return BinaryOperator(priority, self, other, exp, func, right_associative)

    def reflected(self, other):
        return BinaryOperator(priority, other, self, exp, func, right_associative)
    return method, reflected


def _make_unary(exp, func):
    def method(self):
        return UnaryOperator(_UNARY, self, exp, func)
    return method


Expr.__eq__ = _make_comparison('==', '!=', operator.eq)
Expr.__ne__ = _make_comparison('!=', '==', operator.ne)
Expr.__lt__ = _make_comparison('<', '>=', operator.lt)
Expr.__le__ = _make_comparison('<=', '>', operator.le)
Expr.__gt__ = _make_comparison('>', '<=', operator.gt)
Expr.__ge__ = _make_comparison('>=', '<', operator.ge)

for _name, _exp, _priority, _func in (
        ('add', '+', _ADD, operator.add),
        ('sub', '-', _ADD, operator.sub),
        ('mul', '*', _MUL, operator.mul),
        ('matmul', '@', _MUL, operator.matmul),
        ('truediv', '/', _MUL, operator.truediv),
        ('floordiv', '//', _MUL, operator.floordiv),
        ('mod', '%', _MUL, operator.mod),
        ('lshift', '<<', _SHIFT, operator.lshift),
        ('rshift', '>>', _SHIFT, operator.rshift),
        ('and', '&', _AND, operator.and_),
        ('xor', '^', _XOR, operator.xor),
        ('or', '|', _OR, operator.or_)):
    _method, _reflected = _make_binary(_exp, _priority, _func)
    setattr(Expr, f'__{_name}__', _method)
    setattr(Expr, f'__r{_name}__', _reflected)

Expr.__pow__, Expr.__rpow__ = _make_binary('**', _POW, operator.pow, right_associative=True)
Expr.__neg__ = _make_unary('-', operator.neg)
Expr.__pos__ = _make_unary('+', operator.pos)
Expr.__invert__ = _make_unary('~', operator.invert)
del _name, _exp, _priority, _func, _method, _reflected


# ----------------------------------------------------------------------------
# Checking

def expect(*bool_exprs):
    """Checks that every condition holds, raising :class:`InvalidType` if not.

    Args:
        *bool_exprs: Comparisons built from type information (full mode), or
            plain values tested for truth (light mode).
    """
    for expr in bool_exprs:
        # Light-mode comparisons give Python bools; skip them in one test.
        if expr is True:
            continue
        _expect_one(expr)


def _expect_one(expr):
    if isinstance(expr, Testable):
        expr.expect()
    elif isinstance(expr, Expr):
        value = expr.eval()
        if not value:
            raise InvalidType(str(expr), str(value))
    elif not expr:
        raise InvalidType('a true condition', repr(expr))


def same_types(*arrays):
    """Returns whether the arrays all live on the same kind of device.

    That is: all are ``numpy.ndarray``, or all share one non-NumPy array type
    (such as ``cupy.ndarray``).
    """
    if not arrays:
        return True
    if isinstance(arrays[0], numpy.ndarray):
        return all(isinstance(a, numpy.ndarray) for a in arrays)
    kind = type(arrays[0])
    return all(type(a) is kind for a in arrays)


def make_variable(value, name):
    """Wraps ``value`` as a named expression (returns it as is in light mode)."""
    if in_light_mode():
        return value
    return Variable(value, name)


_prod = Variable(math.prod, 'prod')


def prod(xs):
    """Product of the items of a shape, as an expression or a plain number."""
    if isinstance(xs, Expr):
        return _prod(xs)
    return math.prod(xs)


def argname(in_types, names):
    """Gives the inputs user-facing names for error messages.

    Also checks that there are as many inputs as names. It does nothing else
    on light-mode types.

    Args:
        in_types (tuple): Input types (or a slice of them).
        names (tuple of str): One name per input.
    """
    if len(in_types) != len(names):
        raise InvalidType(
            f'{len(names)} argument(s): {", ".join(names)}', f'{len(in_types)} argument(s)')
    if type(in_types) is LightTypeInfoTuple:
        return
    for in_type, name in zip(in_types, names):
        if isinstance(in_type, Variable):
            in_type.name = name


_argname = argname


def _broadcastable(shapes):
    for i in range(1, max(map(len, shapes), default=0) + 1):
        size = 1
        for shape in shapes:
            if len(shape) >= i:
                n = shape[-i]
                if n != 1:
                    if size == 1:
                        size = n
                    elif n != size:
                        return False
    return True


def expect_broadcast_shapes(*shape_types, allow_none=False):
    """Checks that shapes can be broadcast together.

    Args:
        *shape_types: Shapes, as expressions (``x_type.shape``) or tuples.
        allow_none (bool): Whether ``None`` entries are skipped.
    """
    pairs = [(t, eval(t)) for t in shape_types]
    if allow_none:
        pairs = [(t, s) for t, s in pairs if s is not None]
    shapes = [s for _, s in pairs]
    if _broadcastable(shapes):
        return
    lines = ['cannot broadcast inputs of the following shapes:']
    lines += [f'{t} = {s}' if isinstance(t, Expr) else str(s) for t, s in pairs]
    raise InvalidType('', '', msg='\n'.join(lines))
