"""Initializers drawing from normal distributions."""
import numpy

from chainer import initializer
from chainer.initializers import _random


class Normal(initializer.Initializer):
    """Draws from :math:`N(0, \\text{scale}^2)`.

    Args:
        scale (float): Standard deviation.
        dtype: Data type of the arrays it makes.
        rng (numpy.random.RandomState): Generator to draw from (the global one
            of the array's module if omitted).
    """

    def __init__(self, scale=0.05, dtype=None, **kwargs):
        self.scale = scale
        self.rng = _random.parse_rng(kwargs)
        super().__init__(dtype)

    def __call__(self, array):
        self._check_dtype(array)
        _random.fill(array, self.rng, 'normal', 0.0, self.scale)


class _ScaledNormal(initializer.Initializer):
    # A normal distribution whose standard deviation is scale * sqrt(coeff / fan).

    coeff = 1.0

    def __init__(self, scale=1.0, dtype=None, **kwargs):
        self.scale = scale
        self.rng = _random.parse_rng(kwargs)
        super().__init__(dtype)

    def _fan(self, shape):
        raise NotImplementedError()

    def __call__(self, array):
        self._check_dtype(array)
        std = self.scale * numpy.sqrt(self.coeff / self._fan(array.shape))
        Normal(std, rng=self.rng)(array)


class LeCunNormal(_ScaledNormal):
    """Draws from :math:`N(0, s^2)` with :math:`s = \\text{scale}\\sqrt{1/\\text{fan}_{in}}`.

    Args:
        scale (float): Multiplier of the standard deviation.
        dtype: Data type of the arrays it makes.
        rng (numpy.random.RandomState): Generator to draw from.
    """

    def _fan(self, shape):
        return initializer.get_fans(shape)[0]


class GlorotNormal(_ScaledNormal):
    """Draws from :math:`N(0, s^2)` with
    :math:`s = \\text{scale}\\sqrt{2/(\\text{fan}_{in} + \\text{fan}_{out})}`.

    Args:
        scale (float): Multiplier of the standard deviation.
        dtype: Data type of the arrays it makes.
        rng (numpy.random.RandomState): Generator to draw from.
    """

    coeff = 2.0

    def _fan(self, shape):
        return sum(initializer.get_fans(shape))


class HeNormal(_ScaledNormal):
    """Draws from :math:`N(0, s^2)` with :math:`s = \\text{scale}\\sqrt{2/\\text{fan}}`.

    Args:
        scale (float): Multiplier of the standard deviation.
        dtype: Data type of the arrays it makes.
        fan_option (str): ``'fan_in'`` or ``'fan_out'``: which fan to use.
        rng (numpy.random.RandomState): Generator to draw from.
    """

    coeff = 2.0

    def __init__(self, scale=1.0, dtype=None, fan_option='fan_in', **kwargs):
        self.fan_option = fan_option
        super().__init__(scale, dtype, **kwargs)

    def _fan(self, shape):
        fan_in, fan_out = initializer.get_fans(shape)
        if self.fan_option == 'fan_in':
            return fan_in
        if self.fan_option == 'fan_out':
            return fan_out
        raise ValueError(f"fan_option should be either 'fan_in' or 'fan_out', "
                         f"got {self.fan_option!r}")
