"""Join variables along an existing axis."""
from chainer import backend
from chainer import function_node
from chainer.functions import _checks
from chainer.utils import type_check


def check_same_except(in_types, axis):
    """Expects every input to match the first in dtype, ndim and all dims but ``axis``."""
    first = in_types[0]
    if type(in_types) is type_check.LightTypeInfoTuple:
        # Fast path: plain tuple comparisons; on a mismatch the expects below
        # raise, and the caller re-runs the check to build the message.
        dtype, shape = first.dtype, first.shape
        head, tail = shape[:axis], shape[axis + 1:]
        if all(t.dtype == dtype and t.ndim == first.ndim and t.shape[:axis] == head
               and t.shape[axis + 1:] == tail for t in in_types[1:]):
            return
    ndim = type_check.eval(first.ndim)
    for t in in_types[1:]:
        type_check.expect(first.dtype == t.dtype, first.ndim == t.ndim)
        for d in range(ndim):
            if d != axis:
                type_check.expect(first.shape[d] == t.shape[d])


class Concat(function_node.FunctionNode):
    """Concatenates inputs along an axis."""

    def __init__(self, axis=1):
        self.axis = _checks.axis_arg('concat', axis)

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() > 0)
        x0 = in_types[0]
        # Chainer's words first: in_types[0].ndim > axis, or -in_types[0].ndim <= axis
        if self.axis >= 0:
            type_check.expect(x0.ndim > _checks.named(in_types, self.axis, 'axis'))
        else:
            type_check.expect(-x0.ndim <= self.axis)
        _checks.expect_axis(x0, self.axis, func='concat', xname='xs[0]')
        check_same_except(in_types, self.axis % type_check.eval(x0.ndim))

    def forward(self, xs):
        xp = backend.get_array_module(*xs)
        self._shapes = [x.shape for x in xs]
        return xp.concatenate(xs, axis=self.axis),

    def backward(self, indexes, grad_outputs):
        axis = self.axis % len(self._shapes[0])
        sizes = [s[axis] for s in self._shapes]
        return ConcatGrad(axis, sizes, self._shapes).apply(grad_outputs)


class ConcatGrad(function_node.FunctionNode):
    """Cuts an array along ``axis`` into pieces of ``sizes`` and reshapes each.

    It is the gradient of :class:`Concat` and of the stacking functions (which
    are a reshape of each input followed by a concatenation); its own
    gradient is a concatenation again.
    """

    def __init__(self, axis, sizes, shapes):
        self.axis = axis
        self.sizes = sizes
        self.shapes = shapes

    def forward(self, inputs):
        gy, = inputs
        self._gy_shape = gy.shape
        bounds = [0]
        for n in self.sizes:
            bounds.append(bounds[-1] + n)
        index = [slice(None)] * gy.ndim
        pieces = []
        for i, shape in enumerate(self.shapes):
            index[self.axis] = slice(bounds[i], bounds[i + 1])
            pieces.append(gy[tuple(index)].reshape(shape))
        return tuple(pieces)

    def backward(self, indexes, grad_outputs):
        import chainer.functions as F

        xp = backend.get_array_module(*[g for g in grad_outputs if g is not None])
        parts = []
        for g, n, shape in zip(grad_outputs, self.sizes, self.shapes):
            piece = list(self._gy_shape)
            piece[self.axis] = n
            piece = tuple(piece)
            if g is None:
                parts.append(xp.zeros(piece, self._dtype(grad_outputs)))
            else:
                parts.append(F.reshape(g, piece))
        return Concat(self.axis).apply(parts)

    @staticmethod
    def _dtype(grads):
        return next(g.dtype for g in grads if g is not None)


def concat(xs, axis=1):
    """Concatenates variables along an axis.

    Args:
        xs (list of ~chainer.Variable or N-dimensional array): Inputs to join.
            They must agree in dtype and in every dimension except ``axis``.
        axis (int): The axis to join along (negative counts from the end).

    Returns:
        ~chainer.Variable: The concatenation.

    .. admonition:: Example

        >>> x = np.arange(4, dtype=np.float32).reshape(2, 2)
        >>> y = np.ones((2, 1), np.float32)
        >>> F.concat((x, y)).array
        array([[0., 1., 1.],
               [2., 3., 1.]], dtype=float32)
        >>> F.concat((x, x), axis=0).shape
        (4, 2)
    """
    return Concat(axis).apply(xs)[0]
