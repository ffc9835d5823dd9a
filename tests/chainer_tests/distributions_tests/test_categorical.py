import numpy
import pytest

from chainer import distributions
from chainer import testing
from chainer_tests.distributions_tests import _common


def _probabilities(shape, k=3):
    e = numpy.exp(numpy.random.normal(size=shape + (k,)))
    return (e / e.sum(axis=-1, keepdims=True)).astype(numpy.float32)


@_common.scipy_case
@testing.parameterize(*testing.product({'logit_option': [True, False]}))
class TestCategorical(testing.distribution_unittest):

    scipy_onebyone = True

    def setUp_configure(self):
        self.dist = distributions.Categorical
        self.scipy_dist = _common.stats.multinomial
        self.test_targets = {'batch_shape', 'event_shape', 'entropy', 'log_prob', 'sample'}
        p = _probabilities(self.shape)
        self.params = {'logit': numpy.log(p)} if self.logit_option else {'p': p}
        self.scipy_params = {'n': numpy.ones(self.shape), 'p': p}
        self.continuous = False

    def sample_for_test(self):
        return numpy.random.randint(0, 3, self.sample_shape + self.shape).astype(numpy.int32)

    def check_log_prob(self, is_gpu):
        # SciPy's multinomial takes one-hot counts; compare with p[x] directly.
        x = self.sample_for_test()
        actual = self.cpu_dist.log_prob(x).array
        p = self.scipy_params['p']
        expected = numpy.log(numpy.take_along_axis(
            numpy.broadcast_to(p, x.shape + (3,)), x[..., None], axis=-1)[..., 0])
        testing.assert_allclose(actual, expected, rtol=1e-5)

    def check_sample(self, is_gpu):
        # Frequencies of each category against p.
        s = self.cpu_dist.sample((20000,) + self.sample_shape).array
        assert s.dtype == numpy.int64 and s.shape == (20000,) + self.sample_shape + self.shape
        freq = numpy.stack([(s == i).mean(axis=0) for i in range(3)], axis=-1)
        p = numpy.broadcast_to(self.scipy_params['p'], freq.shape)
        testing.assert_allclose(freq, p, atol=2e-2)


def test_log_prob_rejects_indices_out_of_range():
    d = distributions.Categorical(numpy.float32([0.5, 0.5]))
    with pytest.raises(IndexError, match='indices in \\[0, 2\\)'):
        d.log_prob(numpy.int32(3))


def test_params_are_probabilities_even_when_logits_are_given():
    d = distributions.Categorical(logit=numpy.float32([0, 1, 2]))
    assert list(d.params) == ['p']
    testing.assert_allclose(d.p.array.sum(), 1, rtol=1e-6)


def test_zero_probabilities_add_no_entropy():
    d = distributions.Categorical(numpy.float32([0, 0.5, 0.5]))
    testing.assert_allclose(d.entropy.array, numpy.log(2), rtol=1e-6)


testing.run_module(__name__, __file__)
