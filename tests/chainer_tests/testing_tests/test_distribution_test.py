"""The distribution_unittest harness: it passes correct distributions and catches wrong ones."""
import unittest

import numpy
import pytest

from chainer import distributions
from chainer import testing

stats = pytest.importorskip('scipy.stats')


class _ShiftedNormal(distributions.Normal):
    # A wrong distribution: its mean and samples are off by 0.5.
    @property
    def mean(self):
        return self.loc + 0.5

    def sample_n(self, n):
        return super().sample_n(n) + 0.5


def _case(dist, targets, onebyone=True):
    class Case(testing.distribution_unittest):
        scipy_onebyone = onebyone
        shape = (2, 3)
        sample_shape = (2,)
        is_variable = True

        def setUp_configure(self):
            self.dist = dist
            self.scipy_dist = stats.norm
            self.test_targets = targets
            loc = numpy.random.uniform(-1, 1, self.shape).astype(numpy.float32)
            scale = numpy.random.uniform(.5, 2, self.shape).astype(numpy.float32)
            self.params = {'loc': loc, 'scale': scale}
            self.scipy_params = {'loc': loc, 'scale': scale}

        def sample_for_test(self):
            return numpy.random.normal(size=self.sample_shape + self.shape).astype(
                numpy.float32)

    return Case


def _run(case, name):
    result = unittest.TestResult()
    case(name).run(result)
    return result


_TARGETS = {'batch_shape', 'cdf', 'entropy', 'event_shape', 'icdf', 'log_cdf', 'log_prob',
            'log_survival', 'mean', 'prob', 'sample', 'stddev', 'support', 'survival',
            'variance'}


@pytest.mark.parametrize('onebyone', [True, False])
@pytest.mark.parametrize('target', sorted(_TARGETS))
def test_correct_distribution_passes(target, onebyone):
    result = _run(_case(distributions.Normal, {target}, onebyone), f'test_{target}_cpu')
    assert result.wasSuccessful() and not result.skipped, result.errors + result.failures


@pytest.mark.parametrize('target', ['mean', 'sample'])
def test_wrong_distribution_fails(target):
    result = _run(_case(_ShiftedNormal, {target}), f'test_{target}_cpu')
    assert len(result.failures) == 1


def test_checks_outside_the_targets_skip():
    result = _run(_case(_ShiftedNormal, set()), 'test_mean_cpu')
    assert len(result.skipped) == 1


def test_gpu_tests_are_marked():
    marks = [m.name for m in getattr(testing.distribution_unittest.test_mean_gpu,
                                     'pytestmark', [])]
    assert 'gpu' in marks


def test_onebyone_params_iterate_over_the_batch():
    case = _case(distributions.Normal, set())('test_mean_cpu')
    case.setUp()
    members = list(case.scipy_onebyone_params_iter())
    assert len(members) == 6
    assert members[4]['loc'] == case.scipy_params['loc'][1, 1]
