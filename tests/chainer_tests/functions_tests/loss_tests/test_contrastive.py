import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from chainer_tests.functions_tests.loss_tests._loss import BACKENDS, check_bad_reduce


@testing.parameterize(*testing.product({
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'reduce': ['mean', 'no'],
    'margin': [1, 2.5],
}))
@testing.inject_backend_tests(None, BACKENDS)
class TestContrastive(testing.FunctionTestCase):

    # float16: squared distances near the margin, rounded to float16
    tolerances = {numpy.float16: (None, None, 5e-2)}

    def generate_inputs(self):
        while True:
            x0 = numpy.random.uniform(-1, 1, (6, 3)).astype(self.dtype)
            x1 = numpy.random.uniform(-1, 1, (6, 3)).astype(self.dtype)
            d = numpy.sqrt(((x0.astype('d') - x1) ** 2).sum(axis=1))
            # Off the kink at d == margin.
            if (abs(d - self.margin) > 0.05).all():
                break
        y = numpy.array([0, 1, 0, 1, 0, 0], numpy.int32)
        return x0, x1, y

    def forward(self, inputs, device):
        return F.contrastive(*inputs, margin=self.margin, reduce=self.reduce),

    def forward_expected(self, inputs):
        x0, x1, y = inputs
        d = numpy.sqrt(((x0.astype('d') - x1) ** 2).sum(axis=1))
        loss = numpy.where(y == 1, d * d, numpy.maximum(self.margin - d, 0) ** 2) / 2
        if self.reduce == 'mean':
            loss = loss.mean()
        return numpy.asarray(loss, self.dtype),


def test_zero_distance_gradient_is_finite():
    import chainer
    x0 = chainer.Variable(numpy.ones((2, 3), 'f'))
    y = F.contrastive(x0, numpy.ones((2, 3), 'f'), numpy.array([0, 1], 'i'))
    y.backward()
    assert numpy.isfinite(x0.grad).all()


def test_bad_input():
    x = numpy.zeros((2, 3), 'f')
    y = numpy.array([0, 1], 'i')
    check_bad_reduce(lambda r: F.contrastive(x, x, y, reduce=r), 'contrastive')
    with pytest.raises(ValueError, match='contrastive.*margin'):
        F.contrastive(x, x, y, margin=0)
    with pytest.raises(ValueError, match='contrastive: label 2'):
        F.contrastive(x, x, numpy.array([0, 2], 'i'))
    with pytest.raises(type_check.InvalidType, match='Contrastive'):
        F.contrastive(x, x, numpy.array([0, 1, 1], 'i'))
    with pytest.raises(type_check.InvalidType, match='Contrastive'):
        F.contrastive(x, x, y.astype('f'))
