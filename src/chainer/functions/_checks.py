"""Argument and type-check helpers shared by the function families.

Errors name the user-facing function, the argument, its value and what was
expected (``sum: axis 5 is out of range for x of shape (2, 3)``), and keep the
exception type Chainer raised for the same mistake.
"""
import numpy

from chainer import _errors
from chainer.utils import type_check

_Light = type_check.LightTypeInfoTuple
_ARRAYS = 'Variables or N-dimensional arrays (numpy.ndarray or cupy.ndarray)'

try:
    AxisError = numpy.exceptions.AxisError
except AttributeError:      # NumPy < 1.25
    AxisError = numpy.AxisError


class AssertionValueError(ValueError, AssertionError):
    """A ValueError for a mistake Chainer 7.8.1 catches with ``assert``: code that expects
    either exception type keeps working."""


def is_int(value, bool_ok=False):
    """Whether ``value`` is an int (a NumPy integer counts; a bool only if ``bool_ok``)."""
    if isinstance(value, (bool, numpy.bool_)):
        return bool_ok
    return isinstance(value, (int, numpy.integer))


def _kinds(none, tuple_):
    kinds = ['an int']
    if tuple_:
        kinds.append('a tuple of int')
    if none:
        kinds.insert(0, 'None')
    return ', '.join(kinds[:-1]) + ' or ' + kinds[-1] if len(kinds) > 1 else kinds[0]


def axis_arg(func, axis, name='axis', *, none=False, tuple_=False, bool_ok=False):
    """Checks the type of an axis argument and returns it as None, an int or a tuple of int.

    Args:
        func (str): The user-facing function, for the message.
        axis: The value given.
        name (str): The argument's name.
        none (bool): Accept ``None``.
        tuple_ (bool): Accept a tuple of ints; repeated entries raise
            :class:`ValueError`.
        bool_ok (bool): Accept bools as 0 and 1 (where Chainer did).

    Raises:
        TypeError: ``axis`` has another type.
    """
    if axis is None and none:
        return None
    if is_int(axis, bool_ok):
        return int(axis)
    if tuple_ and isinstance(axis, tuple) and all(is_int(a, bool_ok) for a in axis):
        axes = tuple(int(a) for a in axis)
        if len(set(axes)) != len(axes):
            raise ValueError(f'{func}: {name} must not repeat an axis, got {axes}')
        return axes
    raise TypeError(f'{func}: {name} must be {_kinds(none, tuple_)}, '
                    f'got {type(axis).__name__} {axis!r}')


def _value(expr):
    return expr if type(expr) in (int, tuple) else type_check.eval(expr)


def _fail(error, expect, actual, msg):
    if error is None or error is type_check.InvalidType:
        # Expect/Actual first, as in Chainer's messages; our explanation follows.
        raise type_check.InvalidType(expect, actual, f'Expect: {expect}\nActual: {actual}\n{msg}')
    raise error(msg)


def expect_axis(x_type, axis, extra=0, *, func=None, name='axis', xname='x', error=None,
                low_extra=None, neg='ge'):
    """Expects ``axis`` (negative counts from the end) to be an axis of ``x_type``.

    For use in ``check_type_forward`` (on light or full type information).
    ``extra`` allows that many more axes, for functions that insert one;
    ``low_extra`` (default: ``extra``) does the same for negative axes only.
    ``error`` is the exception type raised (default
    :class:`~chainer.utils.type_check.InvalidType`), for the functions where
    Chainer raised another. ``neg`` is how Chainer words the condition on a
    negative axis ``-n``: ``'ge'`` (``x.ndim >= n``), ``'gt'`` (``x.ndim > n - 1``,
    the reductions) or ``'minus'`` (``-x.ndim <= -n``).
    """
    ndim = _value(x_type.ndim)
    n = ndim + extra
    low = extra if low_extra is None else low_extra
    lo = -(ndim + low)
    if lo <= axis < n:
        return
    shape = _value(x_type.shape)
    where = f'{xname} of shape {shape}' + (f' (the result has {n} axes)' if extra else '')
    # The condition in Chainer's words: on the number of axes the input needs.
    if axis >= 0:
        expect, actual = ((f'{xname}.ndim >= {axis}', f'{ndim} < {axis}') if extra else
                          (f'{xname}.ndim > {axis}', f'{ndim} <= {axis}'))
    elif neg == 'gt':
        need = -axis - low - 1
        expect, actual = f'{xname}.ndim > {need}', f'{ndim} <= {need}'
    elif neg == 'minus':
        expect, actual = f'-{xname}.ndim <= {axis + low}', f'{-ndim} > {axis + low}'
    else:
        need = -axis - low
        expect, actual = f'{xname}.ndim >= {need}', f'{ndim} < {need}'
    _fail(error, expect, actual,
          f'{func or "this function"}: {name} {axis} is out of range for {where} '
          f'({lo} <= {name} < {n})')


def named(in_types, value, name):
    """Returns ``value`` for the cheap light check, a named expression otherwise.

    A constant compared with a type expression must be an expression itself
    for the failure message to name it, but on the light path (which runs on
    every call) building one would only cost time.
    """
    if type(in_types) is _Light:
        return value
    return type_check.make_variable(value, name)


def not_an_array(func, name, x, expected=_errors.ACCEPTS):
    """The TypeError for an argument ``name`` of ``func`` that is not a Variable or an array
    (Chainer 7.8.1 fails on such a one later, with an AttributeError of Python's)."""
    got = 'None' if x is None else type(x).__name__
    return TypeError(f'{func}: {name} must be {expected}, got {got}')


def shape_of(func, name, x):
    """``x.shape``, or the TypeError of :func:`not_an_array` when ``x`` has none."""
    try:
        return x.shape
    except AttributeError:
        raise not_an_array(func, name, x) from None


def arrays_of(func, name, xs):
    """Checks that ``xs`` is a list or tuple of Variables or arrays (TypeError naming ``func``,
    ``name`` and the entry otherwise) and returns it."""
    if not isinstance(xs, (list, tuple)):
        raise not_an_array(func, name, xs, f'a list or tuple of {_ARRAYS}')
    for i, x in enumerate(xs):
        if not hasattr(x, 'shape'):
            raise not_an_array(func, f'{name}[{i}]', x)
    return xs


def check_spatial_ndim(func, x, ndim):
    """ValueError (as in Chainer) unless ``x`` has ``ndim`` axes after the batch and channel axes.

    The 1-D and 3-D shorthands of the N-D convolutions and poolings call this.
    """
    actual = len(shape_of(func, 'x', x)) - 2
    if actual != ndim:
        raise ValueError(
            f"The number of dimensions under channel dimension of the input 'x' should be "
            f'{ndim}. But the actual ndim was {actual}. ({func}: x has shape '
            f'{tuple(x.shape)}; the _nd function takes any number of spatial axes)')


def refuse_none(func, name, x, expected='a Variable or an N-dimensional array'):
    """TypeError naming ``func`` and ``name`` when ``x`` is None, where Chainer 7.8.1 goes on
    with it and returns a Variable of None or of an object array (listed in
    docs/differences.md)."""
    if x is None:
        raise TypeError(f'{func}: {name} must be {expected}, got None')


def expect_kind_of(t, dtype):
    """For inputs where Chainer wants exactly ``dtype`` and rechainer takes any dtype of its
    kind (float16/64 besides float32...): a dtype of another kind is refused in Chainer's words
    (``x.dtype == <class 'numpy.float32'>``)."""
    if numpy.dtype(type_check.eval(t.dtype)).kind != numpy.dtype(dtype).kind:
        type_check.expect(t.dtype == dtype)
