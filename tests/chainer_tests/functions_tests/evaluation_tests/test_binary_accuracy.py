import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape': [(8, 3), (5,), ()],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'all_ignored': [False, True],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestBinaryAccuracy(testing.FunctionTestCase):

    skip_backward_test = True
    skip_double_backward_test = True

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        t = numpy.random.randint(-1, 2, self.shape).astype(numpy.int32)
        if self.all_ignored:
            t[...] = -1
        return x, t

    def forward(self, inputs, device):
        return F.binary_accuracy(*inputs),

    def forward_expected(self, inputs):
        x, t = inputs
        keep = t != -1
        acc = ((x >= 0) == (t == 1))[keep].mean() if keep.any() else 0.
        return numpy.asarray(acc, self.dtype),


def test_bad_input():
    x = numpy.zeros((2, 3), 'f')
    with pytest.raises(type_check.InvalidType, match='BinaryAccuracy'):
        F.binary_accuracy(x, numpy.zeros(2, 'i'))
    with pytest.raises(ValueError, match='binary_accuracy: label 2'):
        F.binary_accuracy(x, numpy.array([[0, 1, 2], [0, 0, 0]], 'i'))
