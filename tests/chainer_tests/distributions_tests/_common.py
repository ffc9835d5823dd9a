"""Shared pieces of the distribution tests."""
import numpy
import pytest

from chainer import testing

stats = pytest.importorskip('scipy.stats')


def scipy_case(cls):
    """Parameterizes a ``distribution_unittest`` over batch shapes and Variable inputs.

    Two cases keep the run short: a batch of Variables, and one distribution of
    arrays evaluated at single points (0-d arrays throughout).
    """
    return testing.parameterize(
        {'shape': (2, 3), 'is_variable': True, 'sample_shape': (3,)},
        {'shape': (), 'is_variable': False, 'sample_shape': ()},
    )(testing.fix_random()(cls))


def uniform(low, high, shape, dtype=numpy.float32):
    return numpy.asarray(numpy.random.uniform(low, high, shape), dtype)


def log_uniform(low, high, shape, dtype=numpy.float32):
    """``exp`` of uniform draws in ``[low, high)`` (positive scales spread over magnitudes)."""
    return numpy.asarray(numpy.exp(numpy.random.uniform(low, high, shape)), dtype)
