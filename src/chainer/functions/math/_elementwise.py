"""Shared plumbing of the elementwise math functions.

* The special functions (erf, the gamma family, ndtr...) are not in NumPy, so
  their CPU path uses SciPy (an optional dependency, imported on first use)
  and their GPU path ``cupyx.scipy.special``.
* ceil, floor, fix and sign have a zero derivative almost everywhere; like
  Chainer they return a fresh Variable that is not part of the graph.
* The input contracts that many of these functions share, and the reduction
  of a broadcast input's gradient, are written once here, as is the body of
  maximum and minimum.
"""
import numpy

import chainer
from chainer import _errors
from chainer import backend
from chainer import function_node
from chainer import utils
from chainer import variable
from chainer.utils import type_check
from chainer.functions import _static_arrays


def check_float(in_types, named=True):
    """States the contract of a one-input function: ``x`` is a float array.

    With ``named=False`` the input keeps the name ``in_types[0]`` in messages, as in the
    functions whose Chainer messages say so (exp, ndtr...).
    """
    if named:
        type_check._argname(in_types, ('x',))
    else:
        type_check.expect(in_types.size() == 1)
    type_check.expect(in_types[0].dtype.kind == 'f')


def check_binary_float(in_types, names=('x1', 'x2')):
    """States the contract of a two-input function that broadcasts its inputs.

    The first input is float, the second has its dtype, and their shapes
    broadcast together.
    """
    type_check._argname(in_types, names)
    a_type, b_type = in_types
    type_check.expect(a_type.dtype.kind == 'f', a_type.dtype == b_type.dtype)
    type_check.expect_broadcast_shapes(a_type.shape, b_type.shape)


def as_dtype(x, dtype):
    """``x`` (a Variable, or None) cast to ``dtype`` where it has another one
    (differentiably): a gradient takes its input's dtype when inputs of several float
    dtypes met."""
    if x is None or x.dtype == dtype:
        return x
    return chainer.functions.cast(x, dtype)


def sum_to(gx, shape):
    """Sums the gradient of a broadcast input back to the input's ``shape``.

    ``None`` (no gradient) passes through.
    """
    if gx is None or gx.shape == shape:
        return gx
    return chainer.functions.sum_to(gx, shape)


class Extremum(function_node.FunctionNode):
    """Body of Maximum and Minimum, which name the ufunc and the comparison.

    Where the inputs are equal the whole gradient goes to ``x1``.
    """

    _ufunc = None  # name of the xp ufunc: 'maximum' or 'minimum'
    _x1_wins = None  # elementwise test that x1 is the output: operator.ge or operator.le

    def check_type_forward(self, in_types):
        check_binary_float(in_types)

    def forward(self, inputs):
        x1, x2 = inputs
        self.retain_inputs((0, 1))
        return getattr(backend.get_array_module(x1), self._ufunc)(x1, x2),

    def backward(self, indexes, grad_outputs):
        x1, x2 = self.get_retained_inputs()
        gy = grad_outputs[0]
        take_x1, take_x2 = _static_arrays.compute(_masks, x1.array, x2.array,
                                                  wins=self._x1_wins, dtype=gy.dtype)
        ret = []
        if 0 in indexes:
            ret.append(sum_to(gy * take_x1, x1.shape))
        if 1 in indexes:
            ret.append(sum_to(gy * take_x2, x2.shape))
        return tuple(ret)


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


def no_grad(name, x, array_like=False):
    """Applies the ``xp`` ufunc ``name`` to ``x`` outside the graph, keeping the dtype.

    Args:
        name (str): Name of the ufunc (``'floor'``...).
        x (~chainer.Variable or N-dimensional array): Input; a NumPy scalar is taken too.
        array_like (bool): Also take what NumPy turns into an array (a list, a Python
            number), with the dtype NumPy's ufunc gives (Chainer's ``sign`` does).

    Returns:
        ~chainer.Variable: A new variable without creator that does not
        require grad.
    """
    if isinstance(x, chainer.Variable):
        x = x.array
    elif isinstance(x, numpy.generic):
        x = numpy.asarray(x)
    elif not variable._is_array(x):
        if array_like and x is not None:
            return chainer.Variable(numpy.asarray(getattr(numpy, name)(x)),
                                    requires_grad=False)
        raise TypeError(_errors.not_an_array(x) or
                        f'{name} requires a Variable or an N-dimensional array, '
                        f'got {type(x).__name__}')
    xp = backend.get_array_module(x)
    y = utils.force_array(getattr(xp, name)(x), x.dtype)
    return chainer.Variable(y, requires_grad=False)


def _masks(x1, x2, wins, dtype):
    # Where the output is x1 and where it is x2, in the gradient's dtype.
    take_x1 = wins(x1, x2)
    return take_x1.astype(dtype), (~take_x1).astype(dtype)
