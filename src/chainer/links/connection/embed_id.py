"""Embedding layer: a learnable vector per integer id."""
from chainer.functions.connection import embed_id
from chainer import initializers
from chainer import link
from chainer import variable


class EmbedID(link.Link):
    """Embedding layer: maps each integer id to a row of its weight matrix.

    Args:
        in_size (int): Number of ids (ids are ``0 .. in_size - 1``).
        out_size (int): Size of each vector.
        initialW: Initializer of ``W`` (``None``:
            :class:`~chainer.initializers.Normal` with scale 1).
        ignore_label (int or None): An id that gives a zero vector.

    Attributes:
        W (~chainer.Parameter): Matrix of shape ``(in_size, out_size)``.
        ignore_label (int or None): See above.

    .. admonition:: Example

        >>> emb = L.EmbedID(10, 4)
        >>> emb(np.array([1, 3, 3], np.int32)).shape
        (3, 4)
    """

    ignore_label = None

    def __init__(self, in_size, out_size, initialW=None, ignore_label=None):
        super().__init__()
        self.ignore_label = ignore_label
        if initialW is None:
            initialW = initializers.Normal(1.0)
        with self.init_scope():
            self.W = variable.Parameter(initialW, (in_size, out_size))

    @classmethod
    def from_params(cls, W, ignore_label=None):
        """Builds an EmbedID layer around a given matrix (its values are copied)."""
        in_size, out_size = W.shape
        return cls(in_size, out_size, initialW=variable.as_array(W), ignore_label=ignore_label)

    def forward(self, x):
        """Returns the vectors of the ids ``x`` (shape ``x.shape + (out_size,)``)."""
        return embed_id.embed_id(x, self.W, ignore_label=self.ignore_label)

    def _input_error_hint(self, x):
        # (said when embed_id refuses x: see Link._input_error_hint)
        if x.dtype.kind not in 'iu':
            return f'expects integer ids in [0, {self.W.shape[0]}), got {x.dtype}'
        return None
