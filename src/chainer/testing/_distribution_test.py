"""``distribution_unittest``: a test case that checks a distribution against SciPy.

A subclass defines ``setUp_configure`` and ``sample_for_test`` and is
parameterized with ``shape`` (the batch shape), ``sample_shape`` and
``is_variable``. ``setUp_configure`` sets:

- ``dist``: the distribution class; ``params``: its arguments (arrays);
  ``options``: further keyword arguments (default ``{}``);
- ``scipy_dist`` (a ``scipy.stats`` distribution) and ``scipy_params``;
- ``test_targets``: the names of the checks to run (``'log_prob'``,
  ``'mean'``, ``'sample'``...; the others skip);
- optionally ``support`` (default ``'real'``), ``event_shape`` (default
  ``()``) and ``continuous`` (default ``True``; ``False`` compares with the
  probability mass functions).

With ``scipy_onebyone = True``, SciPy is called once per member of the batch
(for distributions whose SciPy functions do not broadcast over parameters).
"""
import unittest

import numpy

import chainer
from chainer.backends import cuda
from chainer.testing import array as array_module
from chainer.testing.backend import BackendConfig

_TARGETS = ('batch_shape', 'cdf', 'entropy', 'event_shape', 'icdf', 'log_cdf', 'log_prob',
            'log_survival', 'mean', 'prob', 'sample', 'stddev', 'support', 'survival',
            'variance')


_GPU = BackendConfig({'use_cuda': True})


def _to_cpu(x):
    if isinstance(x, chainer.Variable):
        x = x.array
    return cuda.to_cpu(x)


class distribution_unittest(unittest.TestCase):
    """Base test case for distributions (see the module docstring)."""

    scipy_onebyone = False

    def setUp(self):
        self.support = 'real'
        if not hasattr(self, 'event_shape'):
            self.event_shape = ()
        self.continuous = True
        self.test_targets = set()
        self.options = {}
        self.setUp_configure()
        self._array_params = dict(self.params)
        if self.is_variable:
            self.params = {k: chainer.Variable(v) for k, v in self.params.items()}

    def _make_dist(self, is_gpu):
        params = self._array_params
        if is_gpu:
            params = {k: cuda.to_gpu(v) for k, v in params.items()}
        if self.is_variable:
            params = {k: chainer.Variable(v) for k, v in params.items()}
        return self.dist(**params, **self.options)

    @property
    def cpu_dist(self):
        return self._make_dist(False)

    @property
    def gpu_dist(self):
        return self._make_dist(True)

    def _dist(self, is_gpu):
        return self.gpu_dist if is_gpu else self.cpu_dist

    def scipy_onebyone_params_iter(self):
        """Yields the SciPy parameters of each member of the batch."""
        for index in numpy.ndindex(*self.shape):
            yield {k: v[index] for k, v in self.scipy_params.items()}

    def _scipy_stat(self, method):
        # A statistic (mean, variance, entropy) of the batch, from SciPy.
        if not self.scipy_onebyone:
            return getattr(self.scipy_dist, method)(**self.scipy_params)
        values = [numpy.asarray(getattr(self.scipy_dist, method)(**one))
                  for one in self.scipy_onebyone_params_iter()]
        return numpy.stack(values).reshape(self.shape + values[0].shape)

    # ------------------------------------------------------------ the checks
    def _check_function(self, is_gpu, method, scipy_method, points=None):
        # Compares the distribution's function `method` with SciPy's at sample points.
        if points is None:
            points = self.sample_for_test()
        dist = self._dist(is_gpu)
        arg = cuda.to_gpu(points) if is_gpu else points
        actual = _to_cpu(getattr(dist, method)(arg))
        expected = getattr(self.scipy_dist, scipy_method)(points, **self.scipy_params)
        array_module.assert_allclose(actual, expected)

    def _check_stat(self, is_gpu, name, scipy_method):
        actual = _to_cpu(getattr(self._dist(is_gpu), name))
        array_module.assert_allclose(actual, self._scipy_stat(scipy_method))

    def check_cdf(self, is_gpu):
        self._check_function(is_gpu, 'cdf', 'cdf')

    def check_log_cdf(self, is_gpu):
        self._check_function(is_gpu, 'log_cdf', 'logcdf')

    def check_survival(self, is_gpu):
        self._check_function(is_gpu, 'survival_function', 'sf')

    def check_log_survival(self, is_gpu):
        self._check_function(is_gpu, 'log_survival_function', 'logsf')

    def check_prob(self, is_gpu):
        self._check_function(is_gpu, 'prob', 'pdf' if self.continuous else 'pmf')

    def check_icdf(self, is_gpu):
        points = numpy.random.uniform(size=self.sample_shape + self.shape).astype(numpy.float32)
        self._check_function(is_gpu, 'icdf', 'ppf', points)

    def check_entropy(self, is_gpu):
        self._check_stat(is_gpu, 'entropy', 'entropy')

    def check_mean(self, is_gpu):
        self._check_stat(is_gpu, 'mean', 'mean')

    def check_variance(self, is_gpu):
        self._check_stat(is_gpu, 'variance', 'var')

    def check_stddev(self, is_gpu):
        actual = _to_cpu(self._dist(is_gpu).stddev)
        array_module.assert_allclose(actual, self.scipy_dist.std(**self.scipy_params))

    def check_log_prob(self, is_gpu):
        smp = self.sample_for_test()
        dist = self._dist(is_gpu)
        actual = _to_cpu(dist.log_prob(cuda.to_gpu(smp) if is_gpu else smp))
        scipy_log_prob = getattr(self.scipy_dist, 'logpdf' if self.continuous else 'logpmf')
        if not self.scipy_onebyone:
            expected = scipy_log_prob(smp, **self.scipy_params)
        else:
            # One call per member of the batch, on that member's points.
            event_shape = tuple(dist.event_shape)
            n_batch = int(numpy.prod(self.shape, dtype=numpy.int64))
            per_member = smp.reshape((-1, n_batch) + event_shape).swapaxes(0, 1)
            expected = [
                scipy_log_prob(one_smp.reshape(self.sample_shape + event_shape), **one)
                for one, one_smp in zip(self.scipy_onebyone_params_iter(), per_member)]
            expected = numpy.stack(expected, axis=-1).reshape(self.sample_shape + self.shape)
        array_module.assert_allclose(actual, expected)

    def check_sample(self, is_gpu):
        n = 100000
        dist = self._dist(is_gpu)
        event_shape = tuple(dist.event_shape)
        actual = _to_cpu(dist.sample(sample_shape=(n,) + self.sample_shape))
        if not self.scipy_onebyone:
            expected = self.scipy_dist.rvs(
                size=(n,) + self.sample_shape + self.shape, **self.scipy_params)
        else:
            draws = [self.scipy_dist.rvs(size=(n,) + self.sample_shape, **one)
                     for one in self.scipy_onebyone_params_iter()]
            draws = [numpy.asarray(d).reshape((n,) + self.sample_shape + event_shape)
                     for d in draws]
            expected = numpy.stack(draws, axis=1 + len(self.sample_shape)).reshape(
                (n,) + self.sample_shape + self.shape + event_shape)
        array_module.assert_allclose(actual.mean(axis=0), expected.mean(axis=0),
                                     atol=3e-2, rtol=3e-2)
        array_module.assert_allclose(actual.std(axis=0), expected.std(axis=0),
                                     atol=3e-2, rtol=3e-2)

    def check_batch_shape(self, is_gpu):
        self.assertEqual(self._dist(is_gpu).batch_shape, self.shape)

    def check_event_shape(self, is_gpu):
        self.assertEqual(self._dist(is_gpu).event_shape, self.event_shape)

    def check_support(self, is_gpu):
        self.assertEqual(self._dist(is_gpu).support, self.support)


def _make_tests(target):
    def run(self, is_gpu):
        if target not in self.test_targets:
            self.skipTest(f'{target!r} is not in test_targets')
        getattr(self, f'check_{target}')(is_gpu)

    def cpu(self):
        run(self, False)

    def gpu(self):
        reason = _GPU.skip_reason()
        if reason is not None:
            raise unittest.SkipTest(reason)
        run(self, True)

    for mark in _GPU.get_pytest_marks():
        gpu = mark(gpu)

    cpu.__name__, gpu.__name__ = f'test_{target}_cpu', f'test_{target}_gpu'
    return cpu, gpu


for _target in _TARGETS:
    _cpu, _gpu = _make_tests(_target)
    setattr(distribution_unittest, _cpu.__name__, _cpu)
    setattr(distribution_unittest, _gpu.__name__, _gpu)
del _target, _cpu, _gpu
