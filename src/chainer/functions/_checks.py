"""Argument and type-check helpers shared by the function families.

Errors name the user-facing function, the argument, its value and what was
expected (``sum: axis 5 is out of range for x of shape (2, 3)``), and keep the
exception type Chainer raised for the same mistake.
"""
import numpy

from chainer.utils import type_check

_Light = type_check.LightTypeInfoTuple

try:
    AxisError = numpy.exceptions.AxisError
except AttributeError:      # NumPy < 1.25
    AxisError = numpy.AxisError


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
        raise type_check.InvalidType(expect, actual, f'{msg}\nExpect: {expect}\nActual: {actual}')
    raise error(msg)


def expect_axis(x_type, axis, extra=0, *, func=None, name='axis', xname='x', error=None,
                low_extra=None):
    """Expects ``axis`` (negative counts from the end) to be an axis of ``x_type``.

    For use in ``check_type_forward`` (on light or full type information).
    ``extra`` allows that many more axes, for functions that insert one;
    ``low_extra`` (default: ``extra``) does the same for negative axes only.
    ``error`` is the exception type raised (default
    :class:`~chainer.utils.type_check.InvalidType`), for the functions where
    Chainer raised another.
    """
    ndim = _value(x_type.ndim)
    n = ndim + extra
    lo = -(ndim + (extra if low_extra is None else low_extra))
    if lo <= axis < n:
        return
    shape = _value(x_type.shape)
    where = f'{xname} of shape {shape}' + (f' (the result has {n} axes)' if extra else '')
    _fail(error, f'{lo} <= {name} < {n}', f'{name} = {axis}',
          f'{func or "this function"}: {name} {axis} is out of range for {where}')


def named(in_types, value, name):
    """Returns ``value`` for the cheap light check, a named expression otherwise.

    A constant compared with a type expression must be an expression itself
    for the failure message to name it, but on the light path (which runs on
    every call) building one would only cost time.
    """
    if type(in_types) is _Light:
        return value
    return type_check.make_variable(value, name)
