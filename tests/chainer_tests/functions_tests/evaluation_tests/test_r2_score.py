import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape': [(10, 3), (12,)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'multioutput': ['uniform_average', 'raw_values'],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestR2Score(testing.FunctionTestCase):

    skip_backward_test = True
    skip_double_backward_test = True

    # float16: a ratio of two float16 sums of squares
    tolerances = {numpy.float16: (5e-3,)}

    def generate_inputs(self):
        true = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        pred = (true + numpy.random.uniform(-.3, .3, self.shape)).astype(self.dtype)
        return pred, true

    def forward(self, inputs, device):
        return F.r2_score(*inputs, multioutput=self.multioutput),

    def forward_expected(self, inputs):
        pred, true = (a.astype(numpy.float64) for a in inputs)
        r2 = 1 - ((true - pred) ** 2).sum(0) / ((true - true.mean(0)) ** 2).sum(0)
        if self.multioutput == 'uniform_average':
            r2 = r2.mean()
        return numpy.asarray(r2, self.dtype),


def test_bad_input():
    x = numpy.zeros((4, 2), 'f')
    with pytest.raises(ValueError, match='multioutput'):
        F.r2_score(x, x, multioutput='bogus')
    with pytest.raises(NotImplementedError):
        F.r2_score(x, x, sample_weight=x)
    with pytest.raises(type_check.InvalidType, match='R2_score'):
        F.r2_score(x, x[:2])
