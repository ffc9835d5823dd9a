"""Highway layer."""
from chainer.functions.activation import relu
from chainer.functions.activation import sigmoid
from chainer import link
from chainer.links.connection import linear


class Highway(link.Chain):
    """Highway layer: :math:`y = h(x) t(x) + x (1 - t(x))`.

    ``h(x) = activate(plain(x))`` and the gate ``t(x) = sigmoid(transform(x))``,
    with ``plain`` and ``transform`` :class:`~chainer.links.Linear` layers of
    size ``in_out_size``.

    Args:
        in_out_size (int): Input and output size.
        nobias (bool): Whether the two linear layers have no bias.
        activate: Activation of the plain path.
        init_Wh, init_bh: Initializers of ``plain``'s weight and bias.
        init_Wt, init_bt: Initializers of ``transform``'s weight and bias (the bias
            starts at -1, so the gate starts mostly closed).
    """

    def __init__(self, in_out_size, nobias=False, activate=relu.relu, init_Wh=None,
                 init_Wt=None, init_bh=None, init_bt=-1):
        super().__init__()
        self.activate = activate
        with self.init_scope():
            self.plain = linear.Linear(in_out_size, in_out_size, nobias=nobias,
                                       initialW=init_Wh, initial_bias=init_bh)
            self.transform = linear.Linear(in_out_size, in_out_size, nobias=nobias,
                                           initialW=init_Wt, initial_bias=init_bt)

    def forward(self, x):
        """Applies the layer to ``x`` of shape ``(n, in_out_size)``."""
        h = self.activate(self.plain(x))
        t = sigmoid.sigmoid(self.transform(x))
        return h * t + x * (1 - t)
