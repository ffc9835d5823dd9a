"""Linear (fully-connected) layer."""
import numpy

from chainer.functions.connection import linear
from chainer import link
from chainer.links.connection import _link_util
from chainer import variable


class Linear(link.Link):
    """Fully-connected layer: :math:`y = x W^\\top + b`.

    With ``in_size=None`` (or a single size argument) the weight is created at
    the first call, from the size of the input.

    Args:
        in_size (int or None): Input size; ``None`` for lazy initialization.
        out_size (int): Output size. ``Linear(n)`` means ``Linear(None, n)``.
        nobias (bool): Whether to leave out the bias.
        initialW: Initializer of ``W`` (an initializer, a scalar, an array of
            shape ``(out_size, in_size)``, or ``None`` for
            :class:`~chainer.initializers.LeCunNormal`).
        initial_bias: Initializer of ``b`` (``None``: zeros).

    Attributes:
        W (~chainer.Parameter): Weight of shape ``(out_size, in_size)``.
        b (~chainer.Parameter): Bias of shape ``(out_size,)``, or ``None``.

    .. admonition:: Example

        >>> layer = L.Linear(None, 2)
        >>> layer(np.ones((4, 3), np.float32)).shape
        (4, 2)
        >>> layer.W.shape
        (2, 3)
    """

    def __init__(self, in_size, out_size=None, nobias=False, initialW=None,
                 initial_bias=None):
        super().__init__()
        if out_size is None:
            in_size, out_size = None, in_size
        self.in_size = in_size
        self.out_size = out_size
        _link_util.add_weight_and_bias(self, in_size, out_size, nobias, initialW,
                                       initial_bias)

    def _initialize_params(self, in_size):
        self.W.initialize((self.out_size, in_size))

    @property
    def printable_specs(self):
        yield 'in_size', self.in_size
        yield 'out_size', self.out_size
        yield 'nobias', self.b is None

    @classmethod
    def from_params(cls, W, b=None, nobias=False):
        """Builds a Linear layer around a given weight (and bias).

        Args:
            W (N-dimensional array or ~chainer.Variable): Weight of shape
                ``(out_size, in_size)``; its values are copied.
            b: Bias of shape ``(out_size,)``, or ``None`` (zeros unless ``nobias``).
            nobias (bool): Whether to leave out the bias.
        """
        out_size, in_size = W.shape
        return cls(in_size, out_size, nobias=nobias, initialW=variable.as_array(W),
                   initial_bias=None if b is None else variable.as_array(b))

    def forward(self, x, n_batch_axes=1):
        """Applies the layer.

        Args:
            x (~chainer.Variable or N-dimensional array): Input; the axes after the
                first ``n_batch_axes`` are flattened into the input vector.
            n_batch_axes (int): Number of leading batch axes.

        Returns:
            ~chainer.Variable: Output of shape ``x.shape[:n_batch_axes] + (out_size,)``.
        """
        if self.W.array is None:
            self._initialize_params(int(numpy.prod(x.shape[n_batch_axes:])))
        return linear.linear(x, self.W, self.b, n_batch_axes=n_batch_axes)

    def _input_error_hint(self, x, n_batch_axes=1):
        # (said when linear refuses x: see Link._input_error_hint)
        if self.W.array is not None:
            got = int(numpy.prod(x.shape[n_batch_axes:]))
            if got != self.W.shape[1]:
                return (f'expects in_size {self.W.shape[1]}, got {got} (x of shape '
                        f'{tuple(x.shape)}, n_batch_axes={n_batch_axes})')
        if x.dtype.kind != 'f':
            return f'expects a float input, got {x.dtype}'
        return None
