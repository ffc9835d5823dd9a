"""Walker's alias method: O(1) sampling from a fixed discrete distribution."""
import numpy

from chainer import device_resident


class WalkerAlias(device_resident.DeviceResident):
    """Draws samples from ``{0, ..., n-1}`` with given probabilities in O(1) each.

    The table is built once: bucket ``i`` yields ``values[2 * i]`` with probability
    ``threshold[i]`` and otherwise its *alias* ``values[2 * i + 1]``, so a sample is
    one uniform draw, one lookup and one comparison. The table is Chainer 7.8.1's,
    so a seeded run draws the same samples. Sampling is vectorized and runs on the
    CPU or, after :meth:`to_gpu`, on the GPU.

    Args:
        probs (list or array of float): Weights of the entries; they are normalized
            by their sum.

    Attributes:
        threshold (array): ``float32`` of shape ``(n,)``: probability that bucket
            ``i`` yields ``values[2 * i]`` rather than ``values[2 * i + 1]``.
        values (array): ``int32`` of shape ``(2 * n,)``: the two candidates of
            each bucket.

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
        # The table Chainer 7.8.1 builds, so that a seeded draw picks the same entries:
        # float32 probabilities, visited from the least to the most likely (ties by
        # index); bucket k takes entry k of that order, and an entry with more than one
        # bucket of mass tops up the earlier under-full buckets as their alias.
        p32 = p.astype(numpy.float32)
        p32 /= p32.sum()
        threshold = numpy.ones(n, numpy.float32)
        values = numpy.zeros(2 * n, numpy.int32)
        order = numpy.lexsort((numpy.arange(n), p32))
        topped = 0      # buckets before this one have their alias
        for k, i in enumerate(order.tolist()):
            mass = float(p32[i]) * n     # in double precision, stored as float32
            while mass > 1 and topped < k:
                values[2 * topped + 1] = i
                mass -= 1.0 - float(threshold[topped])
                topped += 1
            threshold[k] = mass
            values[2 * k] = i
        self.threshold = threshold
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
