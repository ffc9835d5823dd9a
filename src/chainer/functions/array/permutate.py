"""Reorder a variable along an axis by a permutation."""
import numpy

import chainer
from chainer import backend
from chainer import function_node
from chainer.functions import _checks
from chainer.utils import type_check


def _check_permutation(indices):
    n = len(indices)
    if n == 0:
        return
    xp = backend.get_array_module(indices)
    lo = int(indices.min())
    hi = int(indices.max())
    if lo < 0 or hi >= n:
        raise ValueError(f'Out of bounds index: {lo if lo < 0 else hi} (permutate: indices '
                         f'must be a permutation of 0..{n - 1})')
    counts = xp.bincount(indices, minlength=n)
    if int(counts.max()) > 1:
        raise ValueError(f'indices contains duplicate value: {int(counts.argmax())} (permutate: '
                         f'indices must be a permutation of 0..{n - 1})')


def _inverse(indices):
    xp = backend.get_array_module(indices)
    inv = xp.empty_like(indices)
    inv[indices] = xp.arange(len(indices), dtype=indices.dtype)
    return inv


class Permutate(function_node.FunctionNode):
    """Permutes the input along ``axis``: ``y[i] = x[indices[i]]``."""

    _validate = True

    def __init__(self, axis=0, inv=False):
        self.axis = _checks.axis_arg('permutate', axis, bool_ok=True)
        self.inv = inv

    @property
    def indices(self):
        """The permutation (Chainer's attribute), once applied."""
        return self.inputs[1].data if self.inputs else None

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x', 'indices'))
        x_type, ind_type = in_types
        _checks.expect_axis(x_type, self.axis, func='permutate')
        if type_check.eval(ind_type.dtype).kind != 'i' or type_check.eval(ind_type.ndim) != 1:
            # ValueError in Chainer's words
            raise ValueError(
                f'indices should be a one-dimensional int array (permutate got indices of '
                f'dtype {type_check.eval(ind_type.dtype)} and shape '
                f'{type_check.eval(ind_type.shape)})')
        type_check.expect(x_type.shape[self.axis] == ind_type.shape[0])

    def forward(self, inputs):
        x, indices = inputs
        xp = backend.get_array_module(x)
        self.retain_inputs((1,))
        # Validating needs the values on the host; on the GPU that is a
        # synchronisation, so there it happens only in debug mode.
        if self._validate and (xp is numpy or chainer.is_debug()):
            _check_permutation(indices)
        if self.inv:
            indices = _inverse(indices)
        return xp.take(x, indices, axis=self.axis),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        indices, = self.get_retained_inputs()
        grad = Permutate(self.axis, not self.inv)
        grad._validate = False  # these indices were checked in forward
        gx = grad.apply((gy, indices))[0]
        return gx, None


def permutate(x, indices, axis=0, inv=False):
    """Permutes a variable along an axis.

    The output is ``y[i] = x[indices[i]]`` along ``axis`` (that is,
    ``x.take(indices, axis)``); with ``inv=True`` it is the inverse
    permutation, ``y[indices[i]] = x[i]``.

    Args:
        x (~chainer.Variable or N-dimensional array): Input.
        indices (~chainer.Variable or N-dimensional array): 1-D integer array,
            a permutation of ``0, 1, ..., x.shape[axis] - 1``. Other values
            raise :class:`ValueError` (checked on the GPU in debug mode only).
        axis (int): The axis to permute.
        inv (bool): If ``True``, apply the inverse of ``indices``.

    Returns:
        ~chainer.Variable: The permuted variable.

    .. admonition:: Example

        >>> x = np.array([10., 20., 30., 40.], np.float32)
        >>> order = np.array([3, 0, 2, 1], np.int32)
        >>> F.permutate(x, order).array
        array([40., 10., 30., 20.], dtype=float32)
        >>> F.permutate(x, order, inv=True).array
        array([20., 40., 30., 10.], dtype=float32)
    """
    return Permutate(axis, inv).apply((x, indices))[0]
