"""Linear-chain conditional random field layer."""
from chainer.functions.array import transpose_sequence
from chainer.functions.loss import crf1d
from chainer import initializers
from chainer import link
from chainer import variable


class CRF1d(link.Link):
    """Linear-chain CRF (:func:`~chainer.functions.crf1d`) with learnt transition costs.

    Args:
        n_label (int): Number of labels.
        initial_cost: Initializer of ``cost`` (``None``: zeros).

    Attributes:
        cost (~chainer.Parameter): Transition scores of shape ``(n_label, n_label)``.
    """

    def __init__(self, n_label, initial_cost=None):
        super().__init__()
        if initial_cost is None:
            initial_cost = initializers.constant.Zero()
        with self.init_scope():
            self.cost = variable.Parameter(initializers._get_initializer(initial_cost),
                                           (n_label, n_label))

    def forward(self, xs, ys, reduce='mean', transpose=False):
        """Negative log-likelihood of the label sequences ``ys`` given scores ``xs``.

        Args:
            xs: Scores: time-major (a list of ``(batch_t, n_label)``), or batch-major
                (sequences of ``(length, n_label)``, longest first) with ``transpose``.
            ys: Labels, laid out as ``xs``.
            reduce (str): ``'mean'`` or ``'no'``.
            transpose (bool): Whether ``xs`` and ``ys`` are batch-major.
        """
        if transpose:
            xs = transpose_sequence.transpose_sequence(xs)
            ys = transpose_sequence.transpose_sequence(ys)
        return crf1d.crf1d(self.cost, xs, ys, reduce)

    def argmax(self, xs, transpose=False):
        """Best label sequences for the scores ``xs`` (laid out as in :meth:`forward`).

        Returns:
            tuple: The best scores and the label sequences (as arrays, batch-major
            when ``transpose``).
        """
        if transpose:
            xs = transpose_sequence.transpose_sequence(xs)
        score, path = crf1d.argmax_crf1d(self.cost, xs)
        if transpose:
            path = [p.array for p in transpose_sequence.transpose_sequence(path)]
        return score, path
