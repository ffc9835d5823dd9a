"""Maxout: the maximum over groups of units."""
from chainer import backend
from chainer import function_node
from chainer.functions import _checks
from chainer.functions.activation import _grad_util
from chainer.utils import type_check


def _pooled_shape(shape, axis, pool_size):
    # Splits the ``axis`` dimension into (M, pool_size).
    return shape[:axis] + (shape[axis] // pool_size, pool_size) + shape[axis + 1:]


class Maxout(function_node.FunctionNode):
    """Maximum over consecutive groups of ``pool_size`` entries along ``axis``."""

    def __init__(self, pool_size, axis=1):
        self.pool_size = pool_size
        self.axis = axis

    def check_type_forward(self, in_types):
        _grad_util.check_axis_input(in_types, self.axis, 'maxout')
        size = _checks._value(in_types[0].shape)[self.axis]
        if size % self.pool_size:
            raise type_check.InvalidType(
                f'x.shape[{self.axis}] % pool_size == 0', f'{size} % {self.pool_size}',
                f'maxout: x.shape[{self.axis}] = {size} is not a multiple of pool_size '
                f'{self.pool_size}\nExpect: x.shape[axis] % pool_size == 0\n'
                f'Actual: {size} % {self.pool_size} == {size % self.pool_size}')

    def forward(self, inputs):
        x, = inputs
        axis = self.axis % x.ndim
        x4 = x.reshape(_pooled_shape(x.shape, axis, self.pool_size))
        y = x4.max(axis=axis + 1)
        # Every entry equal to its group's maximum gets the gradient (as max does).
        self._mask = x4 == backend.get_array_module(x).expand_dims(y, axis + 1)
        self._axis = axis
        self._x_shape = x.shape
        return y,

    def backward(self, indexes, grad_outputs):
        mask, axis, x_shape = self._mask, self._axis, self._x_shape

        def scatter(gy):  # each group's gradient goes to its maxima
            xp = backend.get_array_module(gy)
            return (mask * xp.expand_dims(gy, axis + 1)).reshape(x_shape)

        def gather(ggx):  # the adjoint: sum over the maxima of each group
            return (ggx.reshape(mask.shape) * mask).sum(axis=axis + 1)

        return _grad_util.LinearMap(scatter, gather).apply(grad_outputs)


def maxout(x, pool_size, axis=1):
    """Maxout: the maximum of each group of ``pool_size`` consecutive units.

    Splits the ``axis`` dimension of ``x`` (of size ``M * pool_size``) into
    ``(M, pool_size)`` and takes the maximum over each group of
    ``pool_size`` consecutive entries. See Goodfellow et al., *Maxout
    Networks* (https://arxiv.org/abs/1302.4389).

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float); usually
            the output of a linear or convolution layer.
        pool_size (int): Number of entries pooled into one output.
        axis (int): Axis to pool; its size must be a multiple of
            ``pool_size``.

    Returns:
        ~chainer.Variable: Output whose ``axis`` dimension is ``M``; the other
        dimensions are those of ``x``.

    .. admonition:: Example

        >>> x = np.array([[1., 5., 3., 2.]], np.float32)
        >>> F.maxout(x, 2).array
        array([[5., 3.]], dtype=float32)
    """
    if not _checks.is_int(pool_size):
        raise TypeError('maxout: pool_size must be an int, '
                        f'got {type(pool_size).__name__} {pool_size!r}')
    if pool_size <= 0:
        raise ValueError(f'maxout: pool_size must be positive, got {pool_size}')
    axis = _checks.axis_arg('maxout', axis, bool_ok=True)
    return Maxout(int(pool_size), axis).apply((x,))[0]
