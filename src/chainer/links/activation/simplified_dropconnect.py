"""Fully-connected layer with simplified DropConnect."""
import numpy

from chainer.functions.noise import simplified_dropconnect
from chainer import link
from chainer.links.connection import _link_util
from chainer import variable


class SimplifiedDropconnect(link.Link):
    """Linear layer whose weights are dropped at random in training
    (:func:`~chainer.functions.simplified_dropconnect`).

    Args:
        in_size (int or None): Input size; ``None`` for lazy initialization.
        out_size (int): Output size.
        ratio (float): Probability of dropping each weight.
        nobias (bool): Whether to leave out the bias.
        initialW: Initializer of ``W`` (``None``: LeCun normal).
        initial_bias: Initializer of ``b`` (``None``: zeros).

    Attributes:
        W (~chainer.Parameter): Weight of shape ``(out_size, in_size)``.
        b (~chainer.Parameter): Bias of shape ``(out_size,)`` or ``None``.
    """

    def __init__(self, in_size, out_size, ratio=.5, nobias=False, initialW=None,
                 initial_bias=None):
        super().__init__()
        self.out_size = out_size
        self.ratio = ratio
        _link_util.add_weight_and_bias(self, in_size, out_size, nobias, initialW,
                                       initial_bias)

    def _initialize_params(self, in_size):
        self.W.initialize((self.out_size, in_size))

    def forward(self, x, train=True, mask=None, use_batchwise_mask=True):
        """Applies the layer.

        Args:
            x (~chainer.Variable or N-dimensional array): Input; the axes after the
                first are flattened.
            train (bool): Whether to drop weights (``False``: all are used as they are).
            mask (N-dimensional array or None): A given mask instead of a random one.
            use_batchwise_mask (bool): One mask per example instead of one for all.

        Returns:
            ~chainer.Variable: Output of shape ``(n, out_size)``.
        """
        if self.W.array is None:
            self._initialize_params(int(numpy.prod(x.shape[1:])))
        if mask is not None:
            # A mask is data, not an input to differentiate (it may come wrapped).
            mask = variable.as_array(mask)
        return simplified_dropconnect.simplified_dropconnect(
            x, self.W, self.b, self.ratio, train, mask, use_batchwise_mask)
