import numpy
import pytest

from chainer import distributions
from chainer import testing
from chainer_tests.distributions_tests import _common


@_common.scipy_case
@testing.parameterize(*testing.product({'logit_option': [True, False]}))
class TestBernoulli(testing.distribution_unittest):

    scipy_onebyone = True

    def setUp_configure(self):
        self.dist = distributions.Bernoulli
        self.scipy_dist = _common.stats.bernoulli
        self.test_targets = {'batch_shape', 'entropy', 'event_shape', 'log_prob', 'mean',
                             'prob', 'sample', 'stddev', 'support', 'variance'}
        p = _common.uniform(0.05, 0.95, self.shape)
        logit = numpy.asarray(numpy.log(p) - numpy.log1p(-p))
        self.params = {'logit': logit} if self.logit_option else {'p': p}
        self.scipy_params = {'p': p}
        self.support = '{0, 1}'
        self.continuous = False

    def sample_for_test(self):
        return numpy.random.randint(0, 2, self.sample_shape + self.shape).astype(numpy.float32)


def test_binary_check_gives_minus_inf_off_the_support():
    p = numpy.array([0.3, 0.7], numpy.float32)
    x = numpy.array([0.5, 2.], numpy.float32)
    checked = distributions.Bernoulli(p, binary_check=True)
    assert numpy.all(checked.log_prob(x).array == -numpy.inf)
    assert numpy.all(checked.prob(x).array == 0)
    relaxed = distributions.Bernoulli(p).log_prob(x).array
    expected = x * numpy.log(p) + (1 - x) * numpy.log1p(-p)
    numpy.testing.assert_allclose(relaxed, expected, rtol=1e-6)


def test_extreme_probabilities():
    d = distributions.Bernoulli(numpy.array([0., 1.], numpy.float32))
    with numpy.errstate(divide='ignore'):
        numpy.testing.assert_array_equal(d.log_prob(numpy.array([0., 1.], numpy.float32)).array,
                                         [0, 0])
        numpy.testing.assert_array_equal(d.entropy.array, [0, 0])
    logit = distributions.Bernoulli(logit=numpy.array([-numpy.inf, numpy.inf], numpy.float32))
    numpy.testing.assert_array_equal(logit.log_prob(numpy.array([0., 1.], numpy.float32)).array,
                                     [0, 0])


def test_params_are_logits_and_samples_are_integers():
    d = distributions.Bernoulli(numpy.array([0.5], numpy.float32))
    numpy.testing.assert_allclose(d.params['logit'].array, [0.], atol=1e-7)
    assert d.sample(4).dtype == numpy.int64


@pytest.mark.parametrize('kwargs', [{}, {'p': numpy.float32(.5), 'logit': numpy.float32(0)}])
def test_needs_exactly_one_parameterisation(kwargs):
    with pytest.raises(ValueError, match='Bernoulli: either `p` or `logit`'):
        distributions.Bernoulli(**kwargs)


testing.run_module(__name__, __file__)
