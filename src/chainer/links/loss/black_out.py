"""BlackOut loss layer."""
import numpy

from chainer.functions.loss import black_out
from chainer import link
from chainer.utils import walker_alias
from chainer import variable


class BlackOut(link.Link):
    """BlackOut loss (:func:`~chainer.functions.black_out`) with negatives drawn by count.

    Args:
        in_size (int): Input size.
        counts (sequence of ints): Frequency of each class; negatives are drawn in
            proportion to it.
        sample_size (int): Number of negatives per example.

    Attributes:
        W (~chainer.Parameter): Output weights of shape ``(len(counts), in_size)``;
            like Chainer's, it starts uninitialized (NaN) and must be set.
    """

    def __init__(self, in_size, counts, sample_size):
        super().__init__()
        vocab_size = len(counts)
        p = numpy.array(counts, dtype=numpy.float32)
        self.sampler = walker_alias.WalkerAlias(p)
        self.sample_size = sample_size
        with self.init_scope():
            self.W = variable.Parameter(shape=(vocab_size, in_size))

    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        self.sampler.device_resident_accept(visitor)

    def forward(self, x, t):
        """Loss of the labels ``t`` (``(n,)``) for inputs ``x`` (``(n, in_size)``)."""
        batch_size = x.shape[0]
        samples = self.sampler.sample((batch_size, self.sample_size))
        return black_out.black_out(x, t, self.W, samples)
