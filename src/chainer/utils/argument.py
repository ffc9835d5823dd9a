"""Helpers for functions that take options through ``**kwargs``."""
import sys


def check_unexpected_kwargs(kwargs, **unexpected):
    """Raises ``ValueError`` if ``kwargs`` holds a retired argument.

    Args:
        kwargs (dict): The keyword arguments received.
        **unexpected: Maps each retired argument name to the message to raise
            when it is given.
    """
    for key, message in unexpected.items():
        if key in kwargs:
            raise ValueError(message)


def parse_kwargs(kwargs, *name_and_values, **unexpected):
    """Takes the known options out of ``kwargs``.

    Args:
        kwargs (dict): The keyword arguments received; known names are popped.
        *name_and_values: ``(name, default)`` pairs, in the order to return.
        **unexpected: Retired names and the ``ValueError`` message for each
            (see :func:`check_unexpected_kwargs`).

    Returns:
        tuple: The value of each requested name (its default when absent).

    Raises:
        TypeError: If ``kwargs`` holds names that are neither known nor
            retired.
    """
    values = tuple(kwargs.pop(name, default) for name, default in name_and_values)
    if kwargs:
        check_unexpected_kwargs(kwargs, **unexpected)
        _raise_leftovers(kwargs, sys._getframe(1).f_code.co_name)
    return values


def assert_kwargs_empty(kwargs):
    """Raises ``TypeError`` naming any argument left in ``kwargs``."""
    if kwargs:
        _raise_leftovers(kwargs, sys._getframe(1).f_code.co_name)


def _raise_leftovers(kwargs, caller):
    names = ', '.join(repr(name) for name in sorted(kwargs))
    raise TypeError(f'{caller}() got unexpected keyword argument(s) {names}')
