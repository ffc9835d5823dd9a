"""Bilinear layer."""
from chainer.functions.connection import bilinear
from chainer import initializers
from chainer import link
from chainer import variable


def _check_array_shape(name, init, shape):
    # An initial array must have the parameter's exact shape (AssertionError, as
    # in Chainer).
    if initializers._is_array(init) and init.shape != shape:
        raise AssertionError(f'Bilinear: {name} has shape {init.shape}, expected {shape}')


class Bilinear(link.Link):
    """Bilinear layer (:func:`~chainer.functions.bilinear`):
    :math:`y_k = e_1^\\top W_k e_2 + V_1^\\top e_1 + V_2^\\top e_2 + b`.

    Args:
        left_size (int): Size of ``e1``.
        right_size (int): Size of ``e2``.
        out_size (int): Output size.
        nobias (bool): Whether to leave out ``V1``, ``V2`` and ``b``.
        initialW: Initializer of ``W`` (``None``: LeCun normal).
        initial_bias (tuple or None): Initializers of ``(V1, V2, b)`` (``None``: LeCun
            normal for ``V1`` and ``V2``, zeros for ``b``).

    Attributes:
        W (~chainer.Parameter): Shape ``(left_size, right_size, out_size)``.
        V1 (~chainer.Parameter): Shape ``(left_size, out_size)``.
        V2 (~chainer.Parameter): Shape ``(right_size, out_size)``.
        b (~chainer.Parameter): Shape ``(out_size,)``.
    """

    def __init__(self, left_size, right_size, out_size, nobias=False, initialW=None,
                 initial_bias=None):
        super().__init__()
        self.in_sizes = (left_size, right_size)
        self.nobias = nobias
        _check_array_shape('initialW', initialW, (left_size, right_size, out_size))
        with self.init_scope():
            self.W = variable.Parameter(initializers._get_initializer(initialW),
                                        (left_size, right_size, out_size))
            if not nobias:
                if initial_bias is None:
                    initial_bias = (None, None, 0)
                elif not isinstance(initial_bias, tuple):
                    raise ValueError('initial_bias must be tuple or None')
                if len(initial_bias) != 3:
                    raise ValueError('initial_bias must be a tuple of three initializers '
                                     f'(V1, V2, b), got {len(initial_bias)} items')
                shapes = ((left_size, out_size), (right_size, out_size), (out_size,))
                for name, init, shape in zip(('V1', 'V2', 'b'), initial_bias, shapes):
                    _check_array_shape(f'initial_bias ({name})', init, shape)
                V1, V2, b = (initializers._get_initializer(i) for i in initial_bias)
                self.V1 = variable.Parameter(V1, (left_size, out_size))
                self.V2 = variable.Parameter(V2, (right_size, out_size))
                self.b = variable.Parameter(b, out_size)

    def forward(self, e1, e2):
        """Applies the layer to ``e1`` (``(n, left_size)``) and ``e2`` (``(n, right_size)``)."""
        if self.nobias:
            return bilinear.bilinear(e1, e2, self.W)
        return bilinear.bilinear(e1, e2, self.W, self.V1, self.V2, self.b)

    def zero_grads(self):
        """Clears the gradients (old name of :meth:`~chainer.Link.zerograds`)."""
        self.zerograds()
