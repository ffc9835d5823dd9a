"""A link holding one parameter array."""
from chainer import link
from chainer import variable
from chainer.functions.math import identity


class Parameter(link.Link):
    """Link with a single parameter ``W``, returned by each call.

    Args:
        array (N-dimensional array): Initial value of ``W`` (its dtype is kept).
    """

    def __init__(self, array):
        super().__init__()
        with self.init_scope():
            self.W = variable.Parameter(array)

    def forward(self, volatile='off'):
        """Returns ``W`` through an identity: a new Variable on the same array, whose
        gradient flows to ``W`` (``volatile`` is accepted and ignored)."""
        return identity.identity(self.W)
