"""Walker's alias method: O(1) sampling from a fixed discrete distribution."""
import numpy

from chainer import device_resident


class WalkerAlias(device_resident.DeviceResident):
    """Draws samples from ``{0, ..., n-1}`` with given probabilities in O(1) each.

    The table is built once (Vose's variant of Walker's method): bucket ``i`` keeps
    its own index with probability ``threshold[i]`` and otherwise an *alias*, so a
    sample is one uniform draw, one lookup and one comparison. Sampling is
    vectorized and runs on the CPU or, after :meth:`to_gpu`, on the GPU.

    Args:
        probs (list or array of float): Weights of the entries; they are normalized
            by their sum.

    Attributes:
        threshold (array): ``float32`` of shape ``(n,)``: probability that bucket
            ``i`` yields ``values[2 * i]`` rather than ``values[2 * i + 1]``.
        values (array): ``int32`` of shape ``(2 * n,)``: the two candidates of
            each bucket (the bucket itself, then its alias).

    Being a :class:`~chainer.DeviceResident`, it moves to a device with
    ``to_device`` (or ``to_gpu``/``to_cpu``); :attr:`use_gpu` tells whether it is on
    a GPU.

    See `Alias method <https://en.wikipedia.org/wiki/Alias_method>`_.
    """

    def __init__(self, probs):
        super().__init__()
        p = numpy.asarray(probs, dtype=numpy.float64).ravel()
        n = len(p)
        if n == 0:
            raise ValueError('WalkerAlias needs at least one probability')
        total = p.sum()
        if not total > 0 or (p < 0).any():
            raise ValueError('WalkerAlias needs non-negative probabilities with a positive '
                             f'sum, got {probs!r}')
        scaled = p * (n / total)      # mean 1: each bucket holds one unit of mass
        threshold = numpy.ones(n, numpy.float64)
        values = numpy.repeat(numpy.arange(n, dtype=numpy.int32), 2)
        small = [i for i in range(n) if scaled[i] < 1]
        large = [i for i in range(n) if scaled[i] >= 1]
        # Fill each under-full bucket with mass taken from an over-full one.
        while small and large:
            s = small.pop()
            g = large[-1]
            threshold[s] = scaled[s]
            values[2 * s + 1] = g
            scaled[g] -= 1 - scaled[s]
            if scaled[g] < 1:
                small.append(large.pop())
        # What is left is full up to rounding: such buckets always yield themselves.
        self.threshold = threshold.astype(numpy.float32)
        self.values = values

    @property
    def use_gpu(self):
        """Whether the tables are on a GPU."""
        return self.xp is not numpy

    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        self.threshold = visitor.visit_array(self.threshold)
        self.values = visitor.visit_array(self.values)

    def sample(self, shape):
        """Draws samples.

        Args:
            shape (tuple of int): Shape of the result.

        Returns:
            array: ``int32`` indices of that shape, on the tables' device
            (``numpy.ndarray`` or ``cupy.ndarray``).
        """
        return self.sample_xp(self.xp, shape)

    def sample_cpu(self, shape):
        """:meth:`sample` with NumPy (the tables must be on the CPU)."""
        return self.sample_xp(numpy, shape)

    def sample_gpu(self, shape):
        """:meth:`sample` with CuPy (the tables must be on a GPU)."""
        from chainer.backends import cuda
        return self.sample_xp(cuda.cupy, shape)

    def sample_xp(self, xp, shape):
        """:meth:`sample` with the array module ``xp``."""
        n = len(self.threshold)
        u = xp.random.uniform(0, n, shape)
        bucket = xp.minimum(u.astype(numpy.int32), n - 1)    # u == n by rounding
        alias = (u - bucket >= self.threshold[bucket]).astype(numpy.int32)
        return self.values[bucket * 2 + alias]
