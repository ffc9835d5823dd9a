"""Join variables depth-wise (along the third axis)."""
from chainer import backend
from chainer import function_node
from chainer.functions.array import concat as _concat
from chainer.utils import type_check


class Dstack(function_node.FunctionNode):
    """Concatenates inputs along axis 2, as :func:`numpy.dstack` does."""

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() > 0)
        type_check._argname(in_types, tuple(f'x{i}' for i in range(len(in_types))))
        x0 = in_types[0]
        for t in in_types[1:]:
            type_check.expect(x0.dtype == t.dtype, x0.ndim == t.ndim)
        ndim = type_check.eval(x0.ndim)
        if ndim <= 2:
            # 0-D, 1-D and 2-D inputs gain axes of length one before joining,
            # so they must match in shape exactly.
            for t in in_types[1:]:
                type_check.expect(x0.dtype == t.dtype, x0.shape == t.shape)
        else:
            _concat.check_same_except(in_types, 2)

    def forward(self, xs):
        xp = backend.get_array_module(*xs)
        self._shapes = [x.shape for x in xs]
        return xp.dstack(xs),

    def backward(self, indexes, grad_outputs):
        shapes = self._shapes
        sizes = [s[2] if len(s) > 2 else 1 for s in shapes]
        return _concat.ConcatGrad(2, sizes, shapes).apply(grad_outputs)


def dstack(xs):
    """Concatenates variables along the third axis, like :func:`numpy.dstack`.

    A 1-D input of length ``n`` is treated as ``(1, n, 1)`` and a 2-D input
    of shape ``(m, n)`` as ``(m, n, 1)``; higher-dimensional inputs are
    joined along axis 2.

    Args:
        xs (list of ~chainer.Variable or N-dimensional array): Inputs with the
            same dtype and number of dimensions, agreeing in all dimensions
            but the third.

    Returns:
        ~chainer.Variable: Output with at least three dimensions.

    .. admonition:: Example

        >>> x = np.zeros((2, 3), np.float32)
        >>> F.dstack((x, x)).shape
        (2, 3, 2)
    """
    return Dstack().apply(xs)[0]
