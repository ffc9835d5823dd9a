"""Shared plumbing of the elementwise math functions.

* The special functions (erf, the gamma family, ndtr...) are not in NumPy, so
  their CPU path uses SciPy (an optional dependency, imported on first use)
  and their GPU path ``cupyx.scipy.special``.
* ceil, floor, fix and sign have a zero derivative almost everywhere; like
  Chainer they return a fresh Variable that is not part of the graph.
"""
import numpy

import chainer
from chainer import backend
from chainer import utils
from chainer import variable


def special_module(xp, label):
    """Returns the ``scipy.special``-like module for the array module ``xp``.

    Args:
        xp: ``numpy`` or ``cupy``.
        label (str): Name of the calling function, for the error message.

    Raises:
        ImportError: SciPy is not installed (CPU only).
    """
    if xp is numpy:
        try:
            import scipy.special
        except ImportError as e:
            raise ImportError(
                f'{label} requires SciPy on the CPU: pip install rechainer[scipy]') from e
        return scipy.special
    import cupyx.scipy.special
    return cupyx.scipy.special


def apply(label, name, *args):
    """Calls the special function ``name`` on arrays, keeping the dtype of the last one.

    float16 is computed in float32 (SciPy and CuPy have few half-precision
    kernels) and cast back; other args (e.g. the integer order of polygamma)
    pass through untouched.
    """
    x = args[-1]
    xp = backend.get_array_module(x)
    fn = getattr(special_module(xp, label), name)
    dtype = x.dtype
    if dtype == numpy.float16:
        args = args[:-1] + (x.astype(numpy.float32),)
    return utils.force_array(fn(*args), dtype)


def no_grad(name, x):
    """Applies the ``xp`` ufunc ``name`` to ``x`` outside the graph, keeping the dtype.

    Args:
        name (str): Name of the ufunc (``'floor'``...).
        x (~chainer.Variable or N-dimensional array): Input.

    Returns:
        ~chainer.Variable: A new variable without creator that does not
        require grad.
    """
    if isinstance(x, chainer.Variable):
        x = x.array
    elif not variable._is_array(x):
        raise TypeError(f'{name} requires a Variable or an N-dimensional array, '
                        f'got {type(x).__name__}')
    xp = backend.get_array_module(x)
    y = utils.force_array(getattr(xp, name)(x), x.dtype)
    return chainer.Variable(y, requires_grad=False)
