import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from chainer_tests.functions_tests.loss_tests._loss import BACKENDS, check_bad_reduce


def _expected(x, t, normalize, reduce):
    x = x.astype(numpy.float64)
    loss = numpy.logaddexp(0, x) - t * x
    loss[t == -1] = 0
    if reduce == 'no':
        return loss
    count = (t != -1).sum() if normalize else len(x)
    return loss.sum() / count if count else numpy.zeros(())


@testing.parameterize(*testing.product({
    'shape': [(4, 3), (5,)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'normalize': [True, False],
    'reduce': ['mean', 'no'],
    'labels': ['some_ignored', 'all_ignored'],
}))
@testing.inject_backend_tests(None, BACKENDS)
class TestSigmoidCrossEntropy(testing.FunctionTestCase):

    # float16: the second derivative of log1p(exp(x)) on float16 inputs
    tolerances = {numpy.float16: (None, None, 5e-2)}

    def generate_inputs(self):
        x = numpy.random.uniform(-3, 3, self.shape).astype(self.dtype)
        if self.labels == 'all_ignored':
            t = numpy.full(self.shape, -1, numpy.int32)
        else:
            t = numpy.random.randint(-1, 2, self.shape).astype(numpy.int32)
        return x, t

    def forward(self, inputs, device):
        return F.sigmoid_cross_entropy(*inputs, normalize=self.normalize, reduce=self.reduce),

    def forward_expected(self, inputs):
        return numpy.asarray(_expected(*inputs, self.normalize, self.reduce), self.dtype),


@pytest.mark.parametrize('dtype, scale', [(numpy.float32, 1e4), (numpy.float16, 1e3)])
def test_large_logits_are_stable(dtype, scale):
    x = chainer.Variable(numpy.array([[scale, -scale, scale, -scale]], dtype))
    t = numpy.array([[1, 0, 0, 1]], numpy.int32)
    loss = F.sigmoid_cross_entropy(x, t)
    loss.backward()
    assert numpy.isfinite(loss.array) and numpy.isfinite(x.grad).all()
    numpy.testing.assert_allclose(float(loss.array), scale / 2, rtol=1e-3)
    numpy.testing.assert_allclose(x.grad, [[0, 0, .25, -.25]], atol=1e-3)


def test_bad_input():
    x = numpy.zeros((2, 3), 'f')
    t = numpy.zeros((2, 3), 'i')
    check_bad_reduce(lambda r: F.sigmoid_cross_entropy(x, t, reduce=r), 'sigmoid_cross_entropy')
    with pytest.raises(ValueError, match='sigmoid_cross_entropy: label 2 in t'):
        F.sigmoid_cross_entropy(x, numpy.array([[0, 1, 2], [0, 0, -1]], 'i'))
    with pytest.raises(type_check.InvalidType, match='SigmoidCrossEntropy'):
        F.sigmoid_cross_entropy(x, t.astype('f'))
    with pytest.raises(type_check.InvalidType, match='SigmoidCrossEntropy'):
        F.sigmoid_cross_entropy(x, t[:1])
