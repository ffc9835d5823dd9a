"""Broadcast scale layer (with an optional bias)."""
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
        if len(xs) == 1 and hasattr(self, 'W'):
            x, y = xs[0], self.W
        elif len(xs) == 2:
            x, y = xs
        else:
            raise ValueError(
                f'Scale: expected the input and the scale (2 inputs) when built without '
                f'W_shape, or the input alone when built with it; got {len(xs)} inputs')
        z = scale.scale(x, y, self.axis)
        if getattr(self, 'bias', None) is not None:
            z = self.bias(z)
        return z
