"""Take a diagonal of a variable."""
from chainer import backend
from chainer import function_node
from chainer.functions import _checks
from chainer.utils import type_check


class Diagonal(function_node.FunctionNode):
    """Extracts the diagonal of the 2-D slices spanned by ``axis1`` and ``axis2``."""

    def __init__(self, offset, axis1, axis2):
        self.offset = _checks.axis_arg('diagonal', offset, 'offset', bool_ok=True)
        self.axis1 = _checks.axis_arg('diagonal', axis1, 'axis1', bool_ok=True)
        self.axis2 = _checks.axis_arg('diagonal', axis2, 'axis2', bool_ok=True)

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        for name, axis in (('axis1', self.axis1), ('axis2', self.axis2)):
            _checks.expect_axis(x_type, axis, func='diagonal', name=name, neg='minus')
        ndim = type_check.eval(x_type.ndim)
        if self.axis1 % ndim == self.axis2 % ndim:
            # a ValueError, as NumPy's (which Chainer 7.8.1 lets through)
            raise ValueError(f'diagonal: axis1 and axis2 must be different axes, got '
                             f'axis1={self.axis1} and axis2={self.axis2} for a {ndim}-d x')

    def forward(self, inputs):
        x, = inputs
        self._in_shape = x.shape
        return x.diagonal(self.offset, self.axis1, self.axis2),

    def backward(self, indexes, grad_outputs):
        return DiagonalGrad(self._in_shape, self.offset, self.axis1,
                            self.axis2).apply(grad_outputs)


class DiagonalGrad(function_node.FunctionNode):
    """Writes its input onto the diagonal of a zero array shaped like ``x``."""

    def __init__(self, shape, offset, axis1, axis2):
        self.shape = shape
        self.offset = offset
        self.axis1 = axis1
        self.axis2 = axis2

    def forward(self, inputs):
        gy, = inputs
        xp = backend.get_array_module(gy)
        gx = xp.zeros(self.shape, gy.dtype)
        # x.diagonal() is a read-only view, so write through an index instead:
        # with the two axes moved last, the diagonal is [..., i + r0, i + c0].
        view = xp.moveaxis(gx, (self.axis1, self.axis2), (-2, -1))
        i = xp.arange(gy.shape[-1])
        view[..., i + max(-self.offset, 0), i + max(self.offset, 0)] = gy
        return gx,

    def backward(self, indexes, grad_outputs):
        return Diagonal(self.offset, self.axis1, self.axis2).apply(grad_outputs)


def diagonal(x, offset=0, axis1=0, axis2=1):
    """Takes a diagonal of a variable, like :func:`numpy.diagonal`.

    Args:
        x (~chainer.Variable or N-dimensional array): Input with at least two
            dimensions.
        offset (int): Offset from the main diagonal: positive for diagonals
            above it, negative for those below.
        axis1 (int): First axis of the 2-D slices to take diagonals of.
        axis2 (int): Second axis of those slices.

    Returns:
        ~chainer.Variable: The diagonals: the two axes are removed and a last
        axis holding the diagonal is appended.

    .. admonition:: Example

        >>> x = np.arange(9, dtype=np.float32).reshape(3, 3)
        >>> F.diagonal(x).array
        array([0., 4., 8.], dtype=float32)
        >>> F.diagonal(x, offset=1).array
        array([1., 5.], dtype=float32)
    """
    return Diagonal(offset, axis1, axis2).apply((x,))[0]
