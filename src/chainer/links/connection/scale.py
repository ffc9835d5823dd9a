"""Broadcast scale layer (with an optional bias)."""
import chainer
from chainer.functions.math import scale
from chainer import link
from chainer.links.connection import bias
from chainer import variable


class Scale(link.Chain):
    """Multiplies by a scale broadcast from ``axis`` on (:func:`~chainer.functions.scale`).

    Args:
        axis (int): First axis of the input the scale lines up with.
        W_shape (tuple of ints or None): Shape of the learnt scale ``W`` (ones at
            first). ``None``: no parameter; the scale is the call's second input.
        bias_term (bool): Whether to add a learnt bias (a :class:`~chainer.links.Bias`
            named ``bias``) after scaling.
        bias_shape (tuple of ints or None): Shape of the bias; defaults to ``W_shape``.
    """

    def __init__(self, axis=1, W_shape=None, bias_term=False, bias_shape=None):
        super().__init__()
        self.axis = axis
        with self.init_scope():
            if W_shape is not None:
                self.W = variable.Parameter(1, W_shape)
            if bias_term:
                if W_shape is not None:
                    bias_shape = W_shape
                elif bias_shape is None:
                    raise ValueError('bias_shape should be given if W is not learnt '
                                     'parameter and bias_term is True.')
                self.bias = bias.Bias(axis, bias_shape)

    def forward(self, *xs):
        """Returns ``xs[0] * W`` (or ``xs[0] * xs[1]``), plus the bias if there is one."""
        has_param = hasattr(self, 'W')
        if len(xs) != (1 if has_param else 2):
            message = ('Scale: expected ' + ('the input alone (the link holds W)'
                       if has_param else 'the input and the scale (2 inputs)') +
                       f', got {len(xs)} inputs')
            # Chainer asserts this in debug mode and fails to unpack otherwise.
            if chainer.is_debug():
                raise AssertionError(message)
            raise ValueError(message)
        x, y = (xs[0], self.W) if has_param else xs
        z = scale.scale(x, y, self.axis)
        if getattr(self, 'bias', None) is not None:
            z = self.bias(z)
        return z
