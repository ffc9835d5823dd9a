"""Pad variable-length sequences into one batch array."""
from chainer import backend
from chainer import function_node
from chainer.functions import _checks
from chainer.utils import type_check


def _fill_value(padding, dtype):
    # Chainer 7 (on NumPy 1) wrapped an out-of-range integer padding around as a
    # C cast does (-1 -> 255 for uint8); NumPy 2 refuses such an assignment.
    # Casting through an array gives the wrapped value on both.
    if dtype.kind in 'iu' and isinstance(padding, int) and not isinstance(padding, bool):
        return backend.numpy.array(padding).astype(dtype)[()]
    return padding


class PadSequence(function_node.FunctionNode):
    """Stacks sequences of different lengths, padding each to ``length``."""

    def __init__(self, length, padding):
        self.length = length
        self.padding = padding

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() > 0)
        type_check._argname(in_types, tuple(f'x{i}' for i in range(len(in_types))))
        x0 = in_types[0]
        for t in in_types:
            type_check.expect(t.ndim > 0, t.shape[1:] == x0.shape[1:], t.dtype == x0.dtype)
        if self.length is not None:
            length = _checks.named(in_types, self.length, 'length')
            for t in in_types:
                type_check.expect(t.shape[0] <= length)

    def forward(self, xs):
        xp = backend.get_array_module(*xs)
        self._lengths = [len(x) for x in xs]
        length = max(self._lengths) if self.length is None else self.length
        if all(n == length for n in self._lengths):
            return xp.stack(xs),
        # One slice copy per sequence (not per element). This measured faster
        # than a masked or fancy-indexed assignment of all sequences at once,
        # except for very many very short sequences.
        y = xp.empty((len(xs), length) + xs[0].shape[1:], xs[0].dtype)
        padding = _fill_value(self.padding, y.dtype)
        for i, x in enumerate(xs):
            n = len(x)
            y[i, :n] = x
            y[i, n:] = padding
        return y,

    def backward(self, indexes, grad_outputs):
        return PadSequenceGrad(self._lengths).apply(grad_outputs)


class PadSequenceGrad(function_node.FunctionNode):
    """Cuts each sequence's rows (without the padding) out of the batch gradient."""

    def __init__(self, lengths):
        self.lengths = lengths

    def forward(self, inputs):
        gy, = inputs
        self._length = gy.shape[1]
        return tuple(gy[i, :n] for i, n in enumerate(self.lengths))

    def backward(self, indexes, grad_outputs):
        xp = backend.get_array_module(*[g for g in grad_outputs if g is not None])
        ref = next(g for g in grad_outputs if g is not None)
        ggs = [xp.zeros((n,) + ref.shape[1:], ref.dtype) if g is None else g
               for g, n in zip(grad_outputs, self.lengths)]
        return PadSequence(self._length, 0).apply(ggs)


def pad_sequence(xs, length=None, padding=0):
    """Pads sequences of different lengths and stacks them into one array.

    Args:
        xs (list of ~chainer.Variable or N-dimensional array): Sequences of
            shape ``(L_i, ...)``, with the same dtype and trailing shape.
        length (None or int): Length of the padded sequences (the size of the
            output's second axis); ``None`` means the longest ``L_i``.
        padding (int or float): Value written after the end of each sequence.

    Returns:
        ~chainer.Variable: Output of shape ``(len(xs), length, ...)``.

    .. admonition:: Example

        >>> a = np.array([1, 2, 3], np.float32)
        >>> b = np.array([4], np.float32)
        >>> F.pad_sequence([a, b], padding=-1).array
        array([[ 1.,  2.,  3.],
               [ 4., -1., -1.]], dtype=float32)
    """
    return PadSequence(length, padding).apply(xs)[0]
