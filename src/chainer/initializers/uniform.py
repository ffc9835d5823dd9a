"""Initializers drawing from uniform distributions."""
import numpy

from chainer import initializer
from chainer.initializers import _random


class Uniform(initializer.Initializer):
    """Draws from the uniform distribution on :math:`[-\\text{scale}, \\text{scale})`.

    Args:
        scale (float): Half the width of the interval.
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
        _random.fill(array, self.rng, 'uniform', -self.scale, self.scale)


class _ScaledUniform(initializer.Initializer):
    # Uniform on [-s, s) with s = scale * sqrt(coeff / fan).

    coeff = 3.0

    def __init__(self, scale=1.0, dtype=None, **kwargs):
        self.scale = scale
        self.rng = _random.parse_rng(kwargs)
        super().__init__(dtype)

    def _fan(self, shape):
        return initializer.get_fans(shape)[0]

    def __call__(self, array):
        self._check_dtype(array)
        s = self.scale * numpy.sqrt(self.coeff / self._fan(array.shape))
        Uniform(s, rng=self.rng)(array)


class LeCunUniform(_ScaledUniform):
    """Uniform on :math:`[-s, s)` with :math:`s = \\text{scale}\\sqrt{3/\\text{fan}_{in}}`.

    Args:
        scale (float): Multiplier of the bound.
        dtype: Data type of the arrays it makes.
        rng (numpy.random.RandomState): Generator to draw from.
    """


class GlorotUniform(_ScaledUniform):
    """Uniform on :math:`[-s, s)` with
    :math:`s = \\text{scale}\\sqrt{6/(\\text{fan}_{in} + \\text{fan}_{out})}`.

    Args:
        scale (float): Multiplier of the bound.
        dtype: Data type of the arrays it makes.
        rng (numpy.random.RandomState): Generator to draw from.
    """

    coeff = 6.0

    def _fan(self, shape):
        return sum(initializer.get_fans(shape))


class HeUniform(_ScaledUniform):
    """Uniform on :math:`[-s, s)` with :math:`s = \\text{scale}\\sqrt{6/\\text{fan}_{in}}`.

    Args:
        scale (float): Multiplier of the bound.
        dtype: Data type of the arrays it makes.
        rng (numpy.random.RandomState): Generator to draw from.
    """

    coeff = 6.0
