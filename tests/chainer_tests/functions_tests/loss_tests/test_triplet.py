import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from chainer_tests.functions_tests.loss_tests._loss import BACKENDS, check_bad_reduce


@testing.parameterize(*testing.product({
    'shape': [(5, 3), (4, 2, 2)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'reduce': ['mean', 'no'],
}))
@testing.inject_backend_tests(None, BACKENDS)
class TestTriplet(testing.FunctionTestCase):

    margin = 0.5

    # float16: a difference of two float16 sums of squares: its rounding error is absolute
    tolerances = {numpy.float16: (1e-2, None, 5e-2)}

    def _raw(self, a, p, n):
        axes = tuple(range(1, a.ndim))
        a, p, n = (v.astype(numpy.float64) for v in (a, p, n))
        return ((a - p) ** 2).sum(axis=axes) - ((a - n) ** 2).sum(axis=axes) + self.margin

    def generate_inputs(self):
        while True:
            a, p, n = (numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
                       for _ in range(3))
            if (abs(self._raw(a, p, n)) > 0.05).all():    # off the hinge's kink
                return a, p, n

    def forward(self, inputs, device):
        return F.triplet(*inputs, margin=self.margin, reduce=self.reduce),

    def forward_expected(self, inputs):
        loss = numpy.maximum(self._raw(*inputs), 0)
        if self.reduce == 'mean':
            loss = loss.mean()
        return numpy.asarray(loss, self.dtype),


def test_bad_input():
    x = numpy.zeros((2, 3), 'f')
    check_bad_reduce(lambda r: F.triplet(x, x, x, reduce=r), 'triplet')
    with pytest.raises(ValueError, match='triplet.*margin'):
        F.triplet(x, x, x, margin=-1)
    with pytest.raises(type_check.InvalidType, match='Triplet'):
        F.triplet(x, x, numpy.zeros((2, 4), 'f'))
