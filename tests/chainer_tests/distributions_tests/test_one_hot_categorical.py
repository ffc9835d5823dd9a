import numpy

from chainer import distributions
from chainer import testing
from chainer_tests.distributions_tests import _common


@_common.scipy_case
class TestOneHotCategorical(testing.distribution_unittest):

    scipy_onebyone = True

    def setUp_configure(self):
        self.dist = distributions.OneHotCategorical
        self.scipy_dist = _common.stats.multinomial
        self.test_targets = {'batch_shape', 'entropy', 'event_shape', 'log_prob', 'mean',
                             'sample'}
        e = numpy.exp(numpy.random.normal(size=self.shape + (3,)))
        p = (e / e.sum(axis=-1, keepdims=True)).astype(numpy.float32)
        self.params = {'p': p}
        self.scipy_params = {'n': numpy.ones(self.shape, numpy.int32), 'p': p}
        self.continuous = False
        self.event_shape = (3,)

    def sample_for_test(self):
        index = numpy.random.randint(0, 3, self.sample_shape + self.shape)
        return numpy.eye(3, dtype=numpy.float32)[index]

    def check_entropy(self, is_gpu):
        # SciPy's multinomial entropy wants float64 probabilities summing to 1 exactly.
        p = self.scipy_params['p'].astype(numpy.float64)
        expected = -(p * numpy.log(p)).sum(axis=-1)
        testing.assert_allclose(self.cpu_dist.entropy.array, expected, rtol=1e-5)


def test_samples_are_one_hot():
    s = distributions.OneHotCategorical(numpy.full((2, 4), 0.25, numpy.float32)).sample(5).array
    assert s.shape == (5, 2, 4) and s.dtype == numpy.float32
    numpy.testing.assert_array_equal(s.sum(axis=-1), 1)


testing.run_module(__name__, __file__)
