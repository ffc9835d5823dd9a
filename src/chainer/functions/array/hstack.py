"""Join variables horizontally (along the second axis, the first for 1-D inputs)."""
from chainer import backend
from chainer import function_node
from chainer.functions.array import concat as _concat
from chainer.utils import type_check


class Hstack(function_node.FunctionNode):
    """Concatenates inputs along axis 1 (axis 0 when they are 0-D or 1-D)."""

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() > 0)
        type_check._argname(in_types, tuple(f'x{i}' for i in range(len(in_types))))
        for t in in_types[1:]:
            type_check.expect(in_types[0].dtype == t.dtype, in_types[0].ndim == t.ndim)
        ndim = type_check.eval(in_types[0].ndim)
        if ndim <= 1:
            for t in in_types[1:]:
                type_check.expect(in_types[0].dtype == t.dtype, in_types[0].ndim == t.ndim)
        else:
            _concat.check_same_except(in_types, 1)

    def forward(self, xs):
        xp = backend.get_array_module(*xs)
        self._shapes = [x.shape for x in xs]
        return xp.hstack(xs),

    def backward(self, indexes, grad_outputs):
        shapes = self._shapes
        if len(shapes[0]) <= 1:
            sizes = [s[0] if s else 1 for s in shapes]
            axis = 0
        else:
            sizes = [s[1] for s in shapes]
            axis = 1
        return _concat.ConcatGrad(axis, sizes, shapes).apply(grad_outputs)


def hstack(xs):
    """Concatenates variables horizontally (column-wise), like :func:`numpy.hstack`.

    1-D inputs (and 0-D ones, as length-one vectors) are joined end to end;
    inputs with two or more dimensions are joined along their second axis.

    Args:
        xs (list of ~chainer.Variable or N-dimensional array): Inputs with the
            same dtype and number of dimensions, agreeing in all dimensions
            but the joined one.

    Returns:
        ~chainer.Variable: The concatenation.

    .. admonition:: Example

        >>> a = np.zeros((2, 1), np.float32)
        >>> b = np.ones((2, 2), np.float32)
        >>> F.hstack((a, b)).array
        array([[0., 1., 1.],
               [0., 1., 1.]], dtype=float32)
    """
    return Hstack().apply(xs)[0]
