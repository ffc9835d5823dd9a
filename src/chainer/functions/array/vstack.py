"""Join variables vertically (along the first axis, stacking 1-D inputs as rows)."""
from chainer import backend
from chainer import function_node
from chainer.functions.array import concat as _concat
from chainer.utils import type_check


class Vstack(function_node.FunctionNode):
    """Concatenates inputs along axis 0, treating 1-D inputs as single rows."""

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() > 0)
        x0 = in_types[0]
        for t in in_types[1:]:
            type_check.expect(x0.dtype == t.dtype, x0.ndim == t.ndim)
        ndim = type_check.eval(x0.ndim)
        if ndim <= 1:
            for t in in_types[1:]:
                type_check.expect(x0.dtype == t.dtype, x0.shape == t.shape)
        else:
            _concat.check_same_except(in_types, 0)

    def forward(self, xs):
        xp = backend.get_array_module(*xs)
        self._shapes = [x.shape for x in xs]
        return xp.vstack(xs),

    def backward(self, indexes, grad_outputs):
        shapes = self._shapes
        sizes = [1 if len(s) <= 1 else s[0] for s in shapes]
        return _concat.ConcatGrad(0, sizes, shapes).apply(grad_outputs)


def vstack(xs):
    """Concatenates variables vertically (row-wise), like :func:`numpy.vstack`.

    1-D inputs of length ``n`` become rows of shape ``(1, n)`` (0-D ones
    become ``(1, 1)``); inputs with
    two or more dimensions are joined along their first axis.

    Args:
        xs (list of ~chainer.Variable or N-dimensional array): Inputs with the
            same dtype and number of dimensions, agreeing in all dimensions
            but the first.

    Returns:
        ~chainer.Variable: The concatenation.

    .. admonition:: Example

        >>> x = np.arange(3, dtype=np.float32)
        >>> F.vstack((x, x)).array
        array([[0., 1., 2.],
               [0., 1., 2.]], dtype=float32)
    """
    return Vstack().apply(xs)[0]
