"""Negative sampling loss layer."""
import numpy

import chainer
from chainer.functions.loss import negative_sampling
from chainer import link
from chainer.utils import walker_alias
from chainer import variable


class NegativeSampling(link.Link):
    """Negative sampling loss (:func:`~chainer.functions.negative_sampling`).

    Negatives are drawn with probability proportional to ``counts ** power``.

    Args:
        in_size (int): Input size.
        counts (sequence of ints): Frequency of each class.
        sample_size (int): Number of negatives per example.
        power (float): Exponent applied to the counts.
        dtype: Data type of the sampling distribution (default
            ``chainer.config.dtype``); ``W`` has ``chainer.config.dtype``.

    Attributes:
        W (~chainer.Parameter): Output weights of shape ``(len(counts), in_size)``,
            zeros at first.
    """

    def __init__(self, in_size, counts, sample_size, power=0.75, dtype=None):
        super().__init__()
        dtype = chainer.get_dtype(dtype)
        vocab_size = len(counts)
        self.sample_size = sample_size
        power = dtype.type(power)
        p = numpy.array(counts, dtype) ** power
        self.sampler = walker_alias.WalkerAlias(p)
        with self.init_scope():
            # W follows chainer.config.dtype, not ``dtype`` (as in Chainer 7.8.1)
            self.W = variable.Parameter(0, (vocab_size, in_size))

    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        self.sampler.device_resident_accept(visitor)

    def forward(self, x, t, reduce='sum', **kwargs):
        """Loss of the labels ``t`` for inputs ``x`` (``return_samples=True`` also
        returns the drawn negatives, as :func:`~chainer.functions.negative_sampling`)."""
        return negative_sampling.negative_sampling(
            x, t, self.W, self.sampler.sample, self.sample_size, reduce=reduce, **kwargs)
