"""Broadcast bias layer."""
import chainer
from chainer.functions.math import bias
from chainer import link
from chainer import variable


class Bias(link.Link):
    """Adds a bias, broadcast from ``axis`` on (:func:`~chainer.functions.bias`).

    Args:
        axis (int): First axis of the input the bias lines up with.
        shape (tuple of ints or None): Shape of the learnt bias ``b`` (zeros at
            first). ``None``: no parameter; the bias is the call's second input.

    .. admonition:: Example

        >>> add = L.Bias(shape=(3,))
        >>> add(np.ones((2, 3, 4), np.float32)).shape
        (2, 3, 4)
    """

    def __init__(self, axis=1, shape=None):
        super().__init__()
        self.axis = axis
        if shape is not None:
            with self.init_scope():
                self.b = variable.Parameter(0, shape)

    def forward(self, *xs):
        """Returns ``xs[0] + b`` (or ``xs[0] + xs[1]`` when the link has no ``b``)."""
        has_param = hasattr(self, 'b')
        if len(xs) != (1 if has_param else 2):
            message = ('Bias: expected ' + ('the input alone (the link holds b)'
                       if has_param else 'the input and the bias (2 inputs)') +
                       f', got {len(xs)} inputs')
            # Chainer asserts this in debug mode and fails to unpack otherwise.
            if chainer.is_debug():
                raise AssertionError(message)
            raise ValueError(message)
        x, y = (xs[0], self.b) if has_param else xs
        return bias.bias(x, y, self.axis)
