"""TheanoFunction: calling Theano graphs is not supported by rechainer."""
from chainer import function

_MESSAGE = ('calling Theano graphs is not supported by rechainer (Theano is unmaintained and '
            'does not run on current NumPy); write the computation with chainer.functions')


class TheanoFunction(function.Function):
    """A compiled Theano graph as a function; not supported by rechainer.

    Constructing one raises ``RuntimeError``. (Chainer 7.8.1 wraps the forward and backward
    functions that :class:`~chainer.links.TheanoFunction` compiles.)
    """

    def __init__(self, forward_func, backward_func):
        raise RuntimeError(f'TheanoFunction: {_MESSAGE}')


def theano_function(forward_func, backward_func, *inputs):
    """Calls a compiled Theano graph; not supported by rechainer (raises ``RuntimeError``)."""
    return TheanoFunction(forward_func, backward_func)(*inputs)
