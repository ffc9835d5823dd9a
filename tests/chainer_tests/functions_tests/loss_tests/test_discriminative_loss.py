import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.functions.loss import discriminative_loss

from chainer.utils import type_check
from chainer_tests.functions_tests.loss_tests._loss import BACKENDS


def _norm(v, norm):
    return abs(v).sum() if norm == 1 else numpy.sqrt((v * v).sum())


def _expected(emb, labels, dv, dd, k, norm, alpha, beta, gamma):
    b = len(emb)
    means = numpy.zeros((b, k, emb.shape[1]))
    pixels = {}
    for i in range(b):
        for c in range(k):
            sel = labels[i] == c + 1
            pts = emb[i][:, sel].T
            pixels[i, c] = pts
            if len(pts):
                means[i, c] = pts.mean(axis=0)
    l_var = 0.
    for c in range(k):
        count = sum(len(pixels[i, c]) for i in range(b))
        total = sum(max(_norm(p - means[i, c], norm) - dv, 0) ** 2
                    for i in range(b) for p in pixels[i, c])
        l_var += total / max(count, 1)
    l_var /= k
    l_dist = sum(max(2 * dd - _norm(means[i, c] - means[i, d], norm), 0) ** 2
                 for i in range(b) for c in range(k) for d in range(k) if c != d)
    l_dist /= b * k * (k - 1)
    l_reg = sum(_norm(means[:, c], norm) for c in range(k)) / (b * k)
    return alpha * l_var, beta * l_dist, gamma * l_reg


@testing.parameterize(*testing.product({
    'norm': [1, 2],
    'dtype': [numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, BACKENDS)
class TestDiscriminativeLoss(testing.FunctionTestCase):

    k = 3
    args = (0.3, 0.8)
    weights = (0.5, 2., 0.1)
    skip_double_backward_test = True

    def setUp(self):
        self.labels = numpy.random.randint(0, self.k + 2, (2, 3, 4)).astype(numpy.int32)
        self.check_backward_options = {'atol': 1e-3, 'rtol': 1e-2}

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (2, self.k, 3, 4)).astype(self.dtype),

    def forward(self, inputs, device):
        return F.discriminative_margin_based_clustering_loss(
            inputs[0], device.send(self.labels), *self.args, self.k, self.norm, *self.weights)

    def forward_expected(self, inputs):
        out = _expected(inputs[0].astype(numpy.float64), self.labels, *self.args, self.k,
                        self.norm, *self.weights)
        return tuple(numpy.asarray(v, self.dtype) for v in out)


def test_class_and_shape_check():
    loss = discriminative_loss.DiscriminativeMarginBasedClusteringLoss(0.5, 1.5, 2)
    out = loss(numpy.zeros((1, 2, 2, 2), 'f'), numpy.ones((1, 2, 2), 'i'))
    assert all(isinstance(v, chainer.Variable) for v in out)
    # Chainer 7.8.1's exception types: an AssertionError for another embedding size (ours is
    # also a ValueError), InvalidType (from its inner functions) for labels of another shape
    with pytest.raises(AssertionError, match='B, 2, H, W'):
        loss(numpy.zeros((1, 3, 2, 2), 'f'), numpy.ones((1, 2, 2), 'i'))
    with pytest.raises(ValueError, match='B, 2, H, W'):
        loss(numpy.zeros((1, 3, 2, 2), 'f'), numpy.ones((1, 2, 2), 'i'))
    with pytest.raises(type_check.InvalidType, match='B, 2, H, W'):
        loss(numpy.zeros((1, 2, 2, 2), 'f'), numpy.ones((1, 2, 3), 'i'))
