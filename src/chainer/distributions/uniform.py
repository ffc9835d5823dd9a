"""The continuous uniform distribution."""
import math

import numpy

from chainer import distribution
from chainer import functions as F
from chainer.distributions import _params
from chainer.utils import cache


class Uniform(_params.ScalarEvent):
    """Continuous uniform distribution on ``[low, high]``.

    .. math::
        p(x; l, h) = \\frac{1}{h - l} \\quad (l \\le x \\le h)

    Give either ``low`` and ``high``, or ``loc`` (the same as ``low``) and
    ``scale`` (the width ``high - low``); all are keyword arguments.

    Args:
        low (~chainer.Variable or :ref:`ndarray`): The lower bound.
        high (~chainer.Variable or :ref:`ndarray`): The upper bound.
        loc (~chainer.Variable or :ref:`ndarray`): The lower bound.
        scale (~chainer.Variable or :ref:`ndarray`): The width of the interval.
    """

    _param_names = ('low',)
    _support = '[low, high]'

    def __init__(self, **kwargs):
        low, high, loc, scale = _params.parse_extra_kwargs(
            'Uniform', kwargs, 'low', 'high', 'loc', 'scale')
        self._use_low_high = _params.one_of(
            'Uniform', (low, high), (loc, scale), 'low, high', 'loc, scale')
        if self._use_low_high:
            self.low, self.high = _params.prepare('Uniform', {'low': low, 'high': high})
            self.loc = self.low
            self.scale = self.high - self.low
            _params.validate('Uniform', 'high - low', self.scale, lambda a: a > 0, 'positive')
        else:
            self.loc, self.scale = _params.prepare('Uniform', {'loc': loc, 'scale': scale})
            _params.positive('Uniform', scale=self.scale)
            self.low = self.loc
            self.high = self.loc + self.scale

    @property
    def params(self):
        if self._use_low_high:
            return {'low': self.low, 'high': self.high}
        return {'loc': self.loc, 'scale': self.scale}

    @cache.cached_property
    def mean(self):
        return self.low + 0.5 * self.scale

    @cache.cached_property
    def variance(self):
        return F.square(self.scale) / 12

    @cache.cached_property
    def stddev(self):
        return self.scale / math.sqrt(12)

    @cache.cached_property
    def entropy(self):
        return F.log(self.scale)

    def _outside(self, x):
        array = _params.as_array(x)
        return array < self.low.array, array > self.high.array

    def log_prob(self, x):
        below, above = self._outside(x)
        log_p = F.broadcast_to(-F.log(self.scale), numpy.broadcast_shapes(
            _params.as_array(x).shape, self.batch_shape))
        return _params.fill(log_p, below | above, -numpy.inf)

    def cdf(self, x):
        below, above = self._outside(x)
        cdf = (x - self.low) / self.scale
        return _params.fill(_params.fill(cdf, below, 0), above, 1)

    def icdf(self, x):
        return self.low + self.scale * x

    def sample_n(self, n):
        u = _params.standard(self.xp, 'uniform', _params.sample_size(n, self), self.low.dtype)
        return self.low + self.scale * u


@distribution.register_kl(Uniform, Uniform)
def _kl_uniform_uniform(dist1, dist2):
    kl = F.log(dist2.scale) - F.log(dist1.scale)
    # p's support must lie inside q's for the divergence to be finite.
    outside = ((dist1.low.array < dist2.low.array) | (dist1.high.array > dist2.high.array))
    return _params.fill(kl, outside, numpy.inf)
