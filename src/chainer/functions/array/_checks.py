"""Argument and type-check helpers shared by the array functions."""
from chainer.utils import type_check

_Light = type_check.LightTypeInfoTuple


def check_axis_type(axis, name='axis'):
    """Raises TypeError unless ``axis`` is an int (bools are refused)."""
    if not isinstance(axis, int) or isinstance(axis, bool):
        raise TypeError(f'{name} must be int, got {type(axis).__name__}')


def named(in_types, value, name):
    """Returns ``value`` for the cheap light check, a named expression otherwise.

    A constant compared with a type expression must be an expression itself
    for the failure message to name it, but on the light path (which runs on
    every call) building one would only cost time.
    """
    if type(in_types) is _Light:
        return value
    return type_check.make_variable(value, name)


def expect_axis(x_type, axis, extra=0):
    """Expects ``axis`` (negative counts from the end) to be an axis of ``x_type``.

    ``extra`` allows that many more axes, for functions that insert one.
    """
    ndim = x_type.ndim + extra if extra else x_type.ndim
    if axis >= 0:
        type_check.expect(ndim > axis)
    else:
        type_check.expect(ndim >= -axis)
