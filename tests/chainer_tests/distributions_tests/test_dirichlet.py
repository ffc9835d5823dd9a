import numpy

from chainer import backend
from chainer import distributions
from chainer.backends import cuda
from chainer import testing
from chainer_tests.distributions_tests import _common


@_common.scipy_case
class TestDirichlet(testing.distribution_unittest):

    scipy_onebyone = True

    def setUp_configure(self):
        self.dist = distributions.Dirichlet
        self.scipy_dist = _common.stats.dirichlet
        self.test_targets = {'batch_shape', 'entropy', 'event_shape', 'log_prob', 'mean',
                             'sample', 'support', 'variance'}
        alpha = _common.uniform(0.5, 5, self.shape + (3,))
        self.params = {'alpha': alpha}
        self.scipy_params = {'alpha': alpha}
        self.support = '[0, 1]'
        self.event_shape = (3,)

    def sample_for_test(self):
        x = numpy.exp(numpy.random.normal(size=self.sample_shape + self.shape + (3,)))
        return (x / x.sum(axis=-1, keepdims=True)).astype(numpy.float32)

    def check_log_prob(self, is_gpu):
        # SciPy's logpdf wants float64 points summing to 1 within 1e-10, one at a time.
        smp = self.sample_for_test()
        dist = self.gpu_dist if is_gpu else self.cpu_dist
        actual = dist.log_prob(backend.CpuDevice().send(smp) if not is_gpu
                               else cuda.to_gpu(smp)).array
        alpha = self.scipy_params['alpha']
        expected = numpy.empty(smp.shape[:-1])
        for index in numpy.ndindex(*smp.shape[:-1]):
            x = smp[index].astype(numpy.float64)
            a = alpha[index[len(self.sample_shape):]].astype(numpy.float64)
            expected[index] = self.scipy_dist.logpdf(x / x.sum(), a)
        testing.assert_allclose(cuda.to_cpu(actual), expected, atol=1e-4, rtol=1e-4)


def test_samples_lie_on_the_simplex():
    d = distributions.Dirichlet(numpy.ones((2, 4), numpy.float32))
    s = d.sample(5).array
    assert s.shape == (5, 2, 4)
    numpy.testing.assert_allclose(s.sum(axis=-1), 1, rtol=1e-5)
    assert d.alpha0.shape == (2,)


testing.run_module(__name__, __file__)
