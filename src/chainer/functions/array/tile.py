"""Repeat a whole variable along each axis."""
import chainer
from chainer import backend
from chainer import function_node
from chainer.utils import type_check


def _normalize_reps(reps):
    if isinstance(reps, int) and not isinstance(reps, bool):
        reps = (reps,)
    elif not (isinstance(reps, (tuple, list)) and all(
            isinstance(r, int) and not isinstance(r, bool) for r in reps)):
        raise TypeError(f'tile: reps must be an int or a tuple of int, got {type(reps).__name__} {reps!r}')
    if any(r < 0 for r in reps):
        raise ValueError(f'tile: reps must be non-negative, got {tuple(reps)}')
    return tuple(reps)


class Tile(function_node.FunctionNode):
    """Tiles the input ``reps`` times along each axis."""

    def __init__(self, reps):
        self.reps = _normalize_reps(reps)

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        self._in_shape = x.shape
        return xp.tile(x, self.reps),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        # Like numpy.tile, pad the shorter of shape and reps with leading ones.
        ndim = max(len(self._in_shape), len(self.reps))
        shape = (1,) * (ndim - len(self._in_shape)) + self._in_shape
        reps = (1,) * (ndim - len(self.reps)) + self.reps
        # Interleave each repetition count with its axis: (r0, s0, r1, s1, ...);
        # summing over the repetition axes adds up all copies of each element.
        split = tuple(n for pair in zip(reps, shape) for n in pair)
        gx = chainer.functions.reshape(gy, split)
        gx = chainer.functions.sum(gx, axis=tuple(range(0, 2 * ndim, 2)))
        return chainer.functions.reshape(gx, self._in_shape),


def tile(x, reps):
    """Builds a variable by repeating ``x`` the given number of times along each axis.

    Args:
        x (~chainer.Variable or N-dimensional array): Input.
        reps (int or tuple of int): Number of copies along each axis. When
            ``reps`` is longer than ``x.ndim``, ``x`` gains leading axes of
            length one; when shorter, ``reps`` is padded with leading ones.

    Returns:
        ~chainer.Variable: The tiled variable.

    .. admonition:: Example

        >>> x = np.array([0, 1], np.float32)
        >>> F.tile(x, 2).array
        array([0., 1., 0., 1.], dtype=float32)
        >>> F.tile(x, (2, 1)).array
        array([[0., 1.],
               [0., 1.]], dtype=float32)
    """
    return Tile(reps).apply((x,))[0]
