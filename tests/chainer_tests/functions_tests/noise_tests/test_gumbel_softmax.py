import numpy

import chainer
import chainer.functions as F
from chainer import testing


@testing.parameterize(*testing.product({
    'shape_axis': [((3, 4), 1), ((2, 3, 4), 2), ((5, 2), 0)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'tau': [.5, 2.],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestGumbelSoftmax(testing.FunctionTestCase):
    # The noise is fixed by reseeding NumPy before each call, so that the output is
    # softmax((log_pi + g) / tau) with the g drawn by the same seed.

    seed = 3

    # float16: a softmax of noisy logits rounded to float16
    tolerances = {numpy.float16: (5e-3, 1e-2, 5e-2)}

    def setUp(self):
        self.shape, self.axis = self.shape_axis

    def before_test(self, test_name):
        if self.backend_config.use_cuda:
            raise __import__('unittest').SkipTest('the noise is drawn on the device')

    def generate_inputs(self):
        return numpy.log(numpy.random.uniform(.1, 1, self.shape)).astype(self.dtype),

    def forward(self, inputs, device):
        numpy.random.seed(self.seed)
        return F.gumbel_softmax(inputs[0], tau=self.tau, axis=self.axis),

    def forward_expected(self, inputs):
        numpy.random.seed(self.seed)
        g = numpy.random.gumbel(size=self.shape).astype(self.dtype).astype(numpy.float64)
        z = (inputs[0].astype(numpy.float64) + g) / self.tau
        e = numpy.exp(z - z.max(axis=self.axis, keepdims=True))
        return (e / e.sum(axis=self.axis, keepdims=True)).astype(self.dtype),


def test_sums_to_one_and_samples_the_categorical():
    numpy.random.seed(0)
    log_pi = numpy.log(numpy.tile(numpy.array([.2, .8], numpy.float32), (2000, 1)))
    y = F.gumbel_softmax(log_pi, tau=.01).array
    numpy.testing.assert_allclose(y.sum(axis=1), 1, rtol=1e-5)
    assert abs(y.argmax(axis=1).mean() - .8) < .03


def test_scalar_input_gives_one():
    y = F.gumbel_softmax(numpy.array(.3, numpy.float32))
    assert isinstance(y, chainer.Variable) and y.shape == () and y.array == 1
