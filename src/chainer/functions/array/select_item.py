"""Pick one element per row: ``y[i] = x[i, t[i]]``."""
import chainer
from chainer import _errors
from chainer import backend
from chainer import function_node
from chainer.utils import type_check


class SelectItem(function_node.FunctionNode):
    """Selects ``x[i, t[i]]`` for every row ``i``."""

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x', 't'))
        x_type, t_type = in_types
        type_check.expect(
            t_type.dtype.kind == 'i',
            x_type.ndim == 2,
            t_type.ndim == 1,
            x_type.shape[0] == t_type.shape[0],
        )

    def forward(self, inputs):
        x, t = inputs
        if chainer.is_debug() and t.size and not (
                (0 <= t).all() and (t < x.shape[1]).all()):
            raise ValueError('Each label `t` need to satisfy `0 <= t < x.shape[1]`')
        self.retain_inputs((1,))
        self._x_shape = x.shape
        xp = backend.get_array_module(x)
        try:
            return x[xp.arange(len(t)), t],
        except IndexError as e:
            # (NumPy's error, as in Chainer 7.8.1)
            _errors.add_to_message(e, f'select_item: every label in t must satisfy 0 <= t < '
                                      f'x.shape[1] = {x.shape[1]}')
            raise

    def backward(self, indexes, grad_outputs):
        t = self.get_retained_inputs()[0]
        gx, = Assign(self._x_shape, grad_outputs[0].dtype, t.array).apply(grad_outputs)
        return gx, None


class Assign(function_node.FunctionNode):
    """Places ``gy[i]`` at ``[i, t[i]]`` of a zero array of ``shape`` (SelectItem's gradient)."""

    def __init__(self, shape, dtype, t):
        self.shape = shape
        self.dtype = dtype
        self.t = t

    def forward(self, inputs):
        gy, = inputs
        xp = backend.get_array_module(gy)
        gx = xp.zeros(self.shape, self.dtype)
        # Each row receives exactly one value, so a plain assignment is exact.
        gx[xp.arange(len(self.t)), self.t] = gy
        return gx,

    def backward(self, indexes, grad_outputs):
        return select_item(grad_outputs[0], self.t),


def select_item(x, t):
    """Selects one element of each row of a matrix.

    This returns ``y`` with ``y[i] == x[i, t[i]]`` for every ``i`` (what
    ``t.choose(x.T)`` computes, without its limit on the number of columns).

    Args:
        x (~chainer.Variable or N-dimensional array): 2-D array of shape
            ``(n, m)``.
        t (~chainer.Variable or N-dimensional array): 1-D signed integer array of
            length ``n`` whose entries lie in ``[0, m)``.

    Returns:
        ~chainer.Variable: 1-D array of length ``n``.

    .. admonition:: Example

        >>> scores = np.array([[.1, .7, .2], [.5, .3, .2], [.3, .3, .4]], np.float32)
        >>> labels = np.array([1, 0, 2], np.int32)
        >>> F.select_item(scores, labels).array
        array([0.7, 0.5, 0.4], dtype=float32)
    """
    return SelectItem().apply((x, t))[0]
