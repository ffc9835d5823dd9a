"""Argument checks shared by the loss and evaluation functions.

Messages name the user-facing function, the argument, the value and what was
expected; the exception types are the ones Chainer raised for the same mistake.
"""
import numpy

import chainer
from chainer import _errors
from chainer import backend


def check_reduce(func, reduce, allowed):
    """Raises ValueError unless ``reduce`` is one of ``allowed`` (a tuple of str)."""
    if reduce in allowed:
        return
    if len(allowed) == 2:
        names = f"'{allowed[0]}' and '{allowed[1]}'"
    else:
        names = ', '.join(f"'{a}'" for a in allowed[:-1]) + f" and '{allowed[-1]}'"
    raise ValueError(f"{func}: only {names} are valid for 'reduce', but {reduce!r} is given")


def check_positive(func, name, value):
    """Raises ValueError unless ``value > 0`` (margins and the like)."""
    if not value > 0:
        raise ValueError(f'{func}: {name} should be positive value, got {value!r}')


def should_check_values(xp):
    """Whether label values are inspected: always on CPU, on GPU only under
    ``config.debug`` (there the check waits for the device)."""
    return xp is numpy or chainer.config.debug


def array_arg(func, name, x):
    """The array of ``x`` (a Variable or an array); TypeError naming ``func`` and ``name`` for
    anything else (Chainer's type for a list or None there)."""
    x = getattr(x, 'array', x) if isinstance(x, chainer.Variable) else x
    if not chainer.variable._is_array(x):
        raise TypeError(f'{func}: {name} must be a Variable or an N-dimensional array, '
                        f'got {type(x).__name__}')
    return x


def check_labels(func, t, n_class, ignore_label=None, name='t', low=0):
    """Raises ValueError if a label of ``t`` is outside ``[low, n_class)`` and
    is not ``ignore_label`` (``None``: nothing is ignored).

    ``t`` is an array; the check is skipped where :func:`should_check_values`
    says so.

    Returns:
        ``(low, high)``, a range that holds every label, when ``t`` was checked (the exact
        ``(min, max)`` when a label is outside ``[low, n_class)``), else ``None``.
    """
    if t.dtype.kind not in 'iu':
        # InvalidType, as Chainer's type checks say of labels that are not integers
        from chainer.utils import type_check
        raise type_check.InvalidType(f'{name}.dtype.kind == i', f'{t.dtype.kind} != i',
                                     f'{func}: {name} must be an integer array, got {t.dtype}')
    xp = backend.get_array_module(t)
    if t.size == 0 or not should_check_values(xp):
        return None
    if low == 0 and n_class > 0:
        # One reduction: seen as unsigned, a negative label is larger than any class.
        u = t if t.dtype.kind == 'u' else t.view(f'u{t.dtype.itemsize}')
        if u.max() < n_class:
            return 0, n_class - 1
    span = t.min(), t.max()
    if span[0] >= low and span[1] < n_class:
        return span     # (two reductions; the elementwise search below is for errors)
    bad = (t < low) | (t >= n_class)
    if ignore_label is not None:
        bad &= t != ignore_label
    if bool(bad.any()):
        label = int(t[bad].ravel()[0])
        ignored = '' if ignore_label is None else f' or the ignore label {ignore_label}'
        expected = f'{low} <= label < {n_class}' if n_class > low else f'label >= {low}'
        # (named after the function the user called: precision calls classification_summary)
        func = _errors.public_name(func)
        raise ValueError(f'{func}: label {label} in {name} is out of range; expected '
                         f'{expected}{ignored}')
    return span


def check_same_float(in_types, names=('x0', 'x1')):
    """States the contract of a loss of two arrays: both float, of one dtype and one shape."""
    from chainer.utils import type_check
    type_check._argname(in_types, names)
    a, b = in_types
    type_check.expect(a.dtype.kind == 'f', a.dtype == b.dtype, a.shape == b.shape)
