"""Independent: reinterprets batch axes of a distribution as event axes."""
import numpy

from chainer import distribution
from chainer import functions as F
from chainer.utils import cache


class Independent(distribution.Distribution):
    """Treats the last batch axes of a distribution as axes of its events.

    A batch of ``batch_shape = (B, N)`` normal distributions becomes, with
    ``reinterpreted_batch_ndims=1``, a batch of ``B`` distributions over
    vectors of ``N`` independent components: :meth:`log_prob` sums over the
    reinterpreted axes, the batch shape is ``(B,)`` and the event shape ``(N,)``.

    Args:
        distribution (~chainer.Distribution): The base distribution.
        reinterpreted_batch_ndims (int): How many trailing batch axes become
            event axes; by default all but the first.
    """

    def __init__(self, distribution, reinterpreted_batch_ndims=None):
        self._distribution = distribution
        batch_ndim = len(distribution.batch_shape)
        if reinterpreted_batch_ndims is None:
            reinterpreted_batch_ndims = self._get_default_reinterpreted_batch_ndims(
                distribution)
        elif not 0 <= reinterpreted_batch_ndims <= batch_ndim:
            raise ValueError(
                'reinterpreted_batch_ndims must be less than or equal to the number of '
                f'dimensions of `distribution.batch_shape` ({batch_ndim}) and not negative, '
                f'got {reinterpreted_batch_ndims}')
        self._reinterpreted_batch_ndims = reinterpreted_batch_ndims

    @property
    def distribution(self):
        """~chainer.Distribution: The base distribution."""
        return self._distribution

    @property
    def reinterpreted_batch_ndims(self):
        """int: The number of base batch axes that are event axes here."""
        return self._reinterpreted_batch_ndims

    @staticmethod
    def _get_default_reinterpreted_batch_ndims(distribution):
        return max(0, len(distribution.batch_shape) - 1)

    def _reduce(self, op, stat):
        # Reduces the reinterpreted axes, the last ones of `stat` (a per-component value).
        r = self.reinterpreted_batch_ndims
        if r == 0:
            return stat
        return op(stat, axis=tuple(range(-r, 0)))

    @property
    def batch_shape(self):
        shape = self.distribution.batch_shape
        return shape[:len(shape) - self.reinterpreted_batch_ndims]

    @property
    def event_shape(self):
        shape = self.distribution.batch_shape
        return (shape[len(shape) - self.reinterpreted_batch_ndims:]
                + self.distribution.event_shape)

    @property
    def params(self):
        return self.distribution.params

    @property
    def support(self):
        return self.distribution.support

    @property
    def xp(self):
        return self.distribution.xp

    @property
    def mean(self):
        return self.distribution.mean

    @property
    def mode(self):
        return self.distribution.mode

    @property
    def variance(self):
        return self.distribution.variance

    @property
    def stddev(self):
        return self.distribution.stddev

    @property
    def entropy(self):
        return self._reduce(F.sum, self.distribution.entropy)

    @cache.cached_property
    def _block_indicator(self):
        # eye(M) laid out to multiply blocks of shape (M, E, 1, E) into (M, E, M, E).
        xp = self.xp
        m = int(numpy.prod(self.event_shape[:self.reinterpreted_batch_ndims], dtype=int))
        return xp.eye(m, dtype=self.mean.dtype).reshape(m, 1, m, 1)

    @cache.cached_property
    def covariance(self):
        """The covariance of the flattened events: a block-diagonal matrix of the
        base covariances (the base variances when the base events are scalars)."""
        base = self.distribution
        event = int(numpy.prod(base.event_shape, dtype=int))
        blocks = base.variance if base.event_shape == () else base.covariance
        batch = self.batch_shape
        m = self._block_indicator.shape[0]
        blocks = F.reshape(blocks, batch + (m, event, 1, event))
        full = blocks * self._block_indicator
        return F.reshape(full, batch + (m * event, m * event))

    def log_prob(self, x):
        return self._reduce(F.sum, self.distribution.log_prob(x))

    def prob(self, x):
        return self._reduce(F.prod, self.distribution.prob(x))

    def cdf(self, x):
        return self._reduce(F.prod, self.distribution.cdf(x))

    def log_cdf(self, x):
        return self._reduce(F.sum, self.distribution.log_cdf(x))

    def survival_function(self, x):
        return self._reduce(F.prod, self.distribution.survival_function(x))

    def log_survival_function(self, x):
        return self._reduce(F.sum, self.distribution.log_survival_function(x))

    def icdf(self, x):
        if self.reinterpreted_batch_ndims == 0:
            return self.distribution.icdf(x)
        raise RuntimeError(
            'Cumulative distribution function for multivariate variable is not invertible.')

    def sample_n(self, n):
        return self.distribution.sample_n(n)


@distribution.register_kl(Independent, Independent)
def _kl_independent_independent(dist1, dist2):
    if dist1.event_shape != dist2.event_shape:
        raise ValueError(f'Event shapes do not match: {dist1.event_shape} and '
                         f'{dist2.event_shape}')
    if dist1.reinterpreted_batch_ndims != dist2.reinterpreted_batch_ndims:
        raise ValueError('kl_divergence of two Independent distributions needs the same '
                         'reinterpreted_batch_ndims, got '
                         f'{dist1.reinterpreted_batch_ndims} and '
                         f'{dist2.reinterpreted_batch_ndims}')
    return dist1._reduce(F.sum, distribution.kl_divergence(dist1.distribution,
                                                           dist2.distribution))
