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


def get_function_check_context(f):
    """Returns a context in which :class:`InvalidType` names the function ``f``.

    Args:
        f: Object with a ``label`` attribute (a ``FunctionNode``'s label defaults to its
            class name).
    """
    return _FunctionCheckContext(f)


class LightMode:
    """Context manager under which :func:`get_types` returns light types.

    Use the instance :data:`light_mode`: ``with type_check.light_mode: ...``.
    """

    def __enter__(self):
        _thread_local.light_mode = getattr(_thread_local, 'light_mode', 0) + 1

    def __exit__(self, *exc_info):
        _thread_local.light_mode -= 1


light_mode = LightMode()


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


def _require_tuple(data, func):
    # AssertionError, as in Chainer: the core always passes a tuple.
    if not isinstance(data, tuple):
        raise AssertionError(
            f'type_check.{func} takes a tuple of arrays, got {type(data).__name__}')


def get_types(data, name, accept_none, *, shapes=None):
    """Builds the full-mode type information of a tuple of arrays.

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
    _require_tuple(data, 'get_types')
    if in_light_mode():
        return get_light_types(data, shapes=shapes)
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
        # AttributeError, with the words of Chainer's (which reads None.dtype here).
        raise AttributeError(f"'NoneType' object has no attribute 'dtype' "
                             f'({var} is None, but an array is required)')
    if not (hasattr(array, 'shape') and hasattr(array, 'dtype')):
        raise TypeError(f'{var} must be an array, got {type(array).__name__}')
    return Variable(TypeInfo(array.shape if shape is None else tuple(shape), array.dtype), var)


def get_light_types(data, *, shapes=None):
    """Wraps the input arrays for a light-mode type check.

    Args:
        data (tuple of arrays): Input arrays.
        shapes (sequence of tuples): Shapes to report instead of the arrays'
            own; the entries then are :class:`TypeInfo` objects.

    Returns:
        LightTypeInfoTuple: The arrays themselves; ``size()`` is their count.
    """
    _require_tuple(data, 'get_light_types')
    if shapes is None:
        return LightTypeInfoTuple(data)
    return LightTypeInfoTuple(
        TypeInfo(tuple(shape), x.dtype) for x, shape in zip(data, shapes))


# ----------------------------------------------------------------------------
# Expression trees

# Binding strength of each node kind, in Chainer's numbering (``priority``):
# the higher, the tighter.  Printed expressions carry the parentheses that
# these strengths call for, so the text reads as the Python that builds it.
_COMPARE, _OR, _XOR, _AND, _SHIFT, _ADD, _MUL, _UNARY, _POW, _ATOM = range(-1, 9)


def _eval_expr(value):
    # Lists and tuples are evaluated item by item: `x.shape == (n, 3)` with
    # `n` an expression compares against the evaluated tuple.
    if isinstance(value, Expr):
        return value.eval()
    kind = type(value)
    if kind is tuple or kind is list:
        return kind(_eval_expr(v) for v in value)
    return value


def eval(exp):
    """Evaluates an expression.

    Args:
        exp: An expression, or a list or tuple holding some; any other value
            is returned unchanged (so checks also run on light-mode values).

    Returns:
        The value the expression stands for.
    """
    return _eval_expr(exp)


def _repr(value):
    """Formats a value as Python source: expressions by their text, strings quoted."""
    if isinstance(value, Expr):
        return str(value)
    kind = type(value)
    if kind is list:
        return '[' + ', '.join(map(_repr, value)) + ']'
    if kind is tuple:
        if len(value) == 1:
            return f'({_repr(value[0])},)'
        return '(' + ', '.join(map(_repr, value)) + ')'
    if isinstance(value, (numpy.number, numpy.bool_)):
        # NumPy 2 would print np.int64(3); the user wrote 3.
        return str(value)
    return repr(value)


def _str(value):
    """Formats a value for a message: ``str()``, except that lists, tuples and
    expressions are written as by :func:`_repr` (``(n, 3)``, not a repr of
    the node objects)."""
    kind = type(value)
    if kind is tuple or kind is list or isinstance(value, Expr):
        return _repr(value)
    return str(value)


def _is_negative_number(value):
    return isinstance(value, (int, float, numpy.number)) and value < 0


def _priority(value):
    if isinstance(value, Expr):
        return value.priority
    # `-1` is written with a minus sign, so it binds like one: (-1) ** x.
    return _UNARY if _is_negative_number(value) else _ATOM


def _operand(value, parenthesize, text=_repr):
    s = text(value)
    return f'({s})' if parenthesize else s


class Expr:
    """Base class of the nodes of a type-check expression.

    Attribute access, indexing, calling and the arithmetic, bitwise and
    comparison operators on an expression build larger expressions;
    :meth:`eval` computes the value.

    Args:
        priority (int): Binding strength of the node when printed; operands
            that bind more loosely get parentheses.
    """

    priority = _ATOM
    # Makes NumPy scalars and arrays return NotImplemented from their
    # operators, so Python falls back to our reflected operator methods.
    __array_ufunc__ = None

    def __init__(self, priority):
        self.priority = priority

    def eval(self):
        """Computes the value of this expression."""
        raise NotImplementedError

    def __repr__(self):
        return f'<{type(self).__name__} {self}>'

    def __bool__(self):
        # RuntimeError, as in Chainer: `and`/`or`/`not` or an `if` on an
        # expression would silently drop a condition.
        raise RuntimeError(
            f"type_check expression '{self}' has no truth value: pass each condition "
            'to type_check.expect() as a separate argument, or call type_check.eval() on '
            'it to get its value')

    def __iter__(self):
        # Without this Python would iterate by calling __getitem__ forever.
        raise TypeError(
            f"type_check expression '{self}' is not iterable; call type_check.eval() on it "
            'to get its value')

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


class Atom(Expr):
    """Base class of the nodes that never need parentheses (names, literals,
    attribute access, indexing and calls)."""

    priority = _ATOM

    def __init__(self):
        pass


class Constant(Atom):
    """A literal value inside an expression.

    Args:
        value: The value.
    """

    def __init__(self, value):
        self.value = value
        self.priority = _priority(value)

    def __str__(self):
        return _repr(self.value)

    def eval(self):
        return self.value


class Variable(Atom):
    """A named value inside an expression.

    Args:
        value: The value.
        name (str): The name printed in messages.
    """

    def __init__(self, value, name):
        self.value = value
        self.name = name

    def __str__(self):
        return self.name

    def eval(self):
        return self.value


# The operands of postfix nodes are kept in underscored attributes so that
# `x.dtype.name` or `x.obj` in a check stays an expression.

class GetAttr(Atom):
    """``obj.name``.

    Args:
        obj: The expression whose attribute is taken.
        name: The attribute name (a string, or an expression giving one).
    """

    def __init__(self, obj, name):
        self._obj = obj
        self._name = name

    def __str__(self):
        name = self._name.value if isinstance(self._name, Constant) else self._name
        if isinstance(name, str) and name.isidentifier():
            return f'{_operand(self._obj, _priority(self._obj) < _ATOM)}.{name}'
        return f'getattr({_repr(self._obj)}, {_repr(name)})'

    def eval(self):
        return getattr(_eval_expr(self._obj), _eval_expr(self._name))


def _subscript(key):
    if isinstance(key, slice):
        parts = ['' if v is None else _repr(v) for v in (key.start, key.stop, key.step)]
        if key.step is None:
            parts.pop()
        return ':'.join(parts)
    if key is Ellipsis:
        return '...'
    return _repr(key)


def _eval_key(key):
    if isinstance(key, slice):
        return slice(_eval_expr(key.start), _eval_expr(key.stop), _eval_expr(key.step))
    if type(key) is tuple:
        return tuple(map(_eval_key, key))
    return _eval_expr(key)


class GetItem(Atom):
    """``obj[key]``.

    Args:
        obj: The expression being indexed.
        key: An index, a slice, ``...``, or a tuple of them; any of them may
            be an expression.
    """

    def __init__(self, obj, key):
        self._obj = obj
        self._key = key

    def __str__(self):
        key = self._key
        if type(key) is tuple:
            if not key:
                text = '()'
            elif len(key) == 1:
                text = _subscript(key[0]) + ','
            else:
                text = ', '.join(map(_subscript, key))
        else:
            text = _subscript(key)
        return f'{_operand(self._obj, _priority(self._obj) < _ATOM)}[{text}]'

    def eval(self):
        return _eval_expr(self._obj)[_eval_key(self._key)]


class Call(Atom):
    """``obj(*args)``.

    Args:
        obj: The expression being called.
        args (tuple): The positional arguments; any may be an expression.
    """

    def __init__(self, obj, args):
        self._obj = obj
        self._args = tuple(args)

    def __str__(self):
        args = ', '.join(map(_repr, self._args))
        return f'{_operand(self._obj, _priority(self._obj) < _ATOM)}({args})'

    def eval(self):
        return _eval_expr(self._obj)(*map(_eval_expr, self._args))


class UnaryOperator(Expr):
    """A prefix operator such as ``-x``.

    Args:
        priority (int): Binding strength of the operator.
        term: The operand.
        exp (str): The operator's symbol.
        func: Function computing the result from the operand's value.
    """

    def __init__(self, priority, term, exp, func):
        self.priority = priority
        self._term = term
        self._exp = exp
        self._func = func

    def __str__(self):
        term = _operand(self._term, _priority(self._term) < self.priority)
        return f'{self._exp}{term}'

    def eval(self):
        return self._func(_eval_expr(self._term))


class BinaryOperator(Expr):
    """An infix operator such as ``x + y``.

    Args:
        priority (int): Binding strength of the operator.
        lhs: Left operand.
        rhs: Right operand.
        exp (str): The operator's symbol.
        func: Function computing the result from the operands' values.
        right_associative (bool): ``True`` for ``**``: ``x ** y ** z`` is
            ``x ** (y ** z)``.
    """

    def __init__(self, priority, lhs, rhs, exp, func, right_associative=False):
        self.priority = priority
        self._lhs = lhs
        self._rhs = rhs
        self._exp = exp
        self._func = func
        self._right_associative = right_associative

    def _text(self, text):
        # An operand of equal strength needs parentheses on the side the
        # operator does not associate to.  As in Python's grammar, the right
        # operand of `**` may be a unary expression as it is: x ** -1.
        p = self.priority
        right_assoc = self._right_associative
        lp = _priority(self._lhs)
        rp = _priority(self._rhs)
        left = _operand(self._lhs, lp < p or (lp == p and right_assoc), text)
        if right_assoc:
            right_paren = rp < p and not (rp == _UNARY and p == _POW)
        else:
            right_paren = rp <= p
        right = _operand(self._rhs, right_paren, text)
        return f'{left} {self._exp} {right}'

    def __str__(self):
        return self._text(_repr)

    def eval(self):
        return self._func(_eval_expr(self._lhs), _eval_expr(self._rhs))


class Testable:
    """Mixin for expressions that :func:`expect` can check."""

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

    def __init__(self, lhs, rhs, exp, inv, func):
        super().__init__(_COMPARE, lhs, rhs, exp, func)
        self._inv = inv

    def _text(self, text):
        # Python chains comparisons (a == b == c is not (a == b) == c), so a
        # comparison inside a comparison always gets parentheses.
        left = _operand(self._lhs, _priority(self._lhs) <= _COMPARE, text)
        right = _operand(self._rhs, _priority(self._rhs) <= _COMPARE, text)
        return f'{left} {self._exp} {right}'

    def expect(self):
        left = _eval_expr(self._lhs)
        right = _eval_expr(self._rhs)
        if not self._func(left, right):
            # Chainer's wording: plain operands are printed as they are
            # (`x.dtype.kind == f`), and so are the values found.
            raise InvalidType(self._text(_str), f'{_str(left)} {self._inv} {_str(right)}')


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

for _name, _exp, _prio, _func in (
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
    _method, _reflected = _make_binary(_exp, _prio, _func)
    setattr(Expr, f'__{_name}__', _method)
    setattr(Expr, f'__r{_name}__', _reflected)

Expr.__pow__, Expr.__rpow__ = _make_binary('**', _POW, operator.pow, right_associative=True)
Expr.__neg__ = _make_unary('-', operator.neg)
Expr.__pos__ = _make_unary('+', operator.pos)
Expr.__invert__ = _make_unary('~', operator.invert)
del _name, _exp, _prio, _func, _method, _reflected


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
            raise InvalidType(str(expr), _str(value))
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
    """Product of the items of a sequence, as an expression printed ``prod(...)``.

    Args:
        xs: A shape expression (``x_type.shape``), or a list or tuple whose
            items may be expressions.

    Returns:
        An expression, or a plain number in light mode. A tuple of plain
        numbers -- the shape a light-mode check sees, since the core runs
        light checks on the arrays themselves -- also gives its product
        directly, so that passing checks stay cheap.
    """
    if type(xs) is tuple:
        for v in xs:
            if isinstance(v, Expr):
                return _prod(xs)
        return math.prod(xs)
    if in_light_mode():
        return math.prod(xs)
    return _prod(xs)


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
