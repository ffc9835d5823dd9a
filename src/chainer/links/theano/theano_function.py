"""TheanoFunction: calling Theano graphs is not supported by rechainer."""
from chainer import link


class TheanoFunction(link.Link):
    """Theano graph as a link; not supported by rechainer.

    Theano is no longer maintained and does not run on current NumPy; constructing
    one raises ``RuntimeError``. Rewrite the computation with
    :mod:`chainer.functions`.
    """

    def __init__(self, inputs, outputs):
        raise RuntimeError('TheanoFunction: calling Theano graphs is not supported by '
                           'rechainer (Theano is unmaintained); write the computation '
                           'with chainer.functions instead.')

    def forward(self, *args):
        """Runs the Theano graph (unreachable: construction raises)."""
        raise RuntimeError('TheanoFunction is not supported by rechainer')
