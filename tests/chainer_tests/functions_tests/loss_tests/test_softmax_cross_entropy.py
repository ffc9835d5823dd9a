import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from chainer_tests.functions_tests.loss_tests._loss import BACKENDS, check_bad_reduce


def _log_softmax(x):
    x = x.astype(numpy.float64)
    m = x.max(axis=1, keepdims=True)
    return x - m - numpy.log(numpy.exp(x - m).sum(axis=1, keepdims=True))


@testing.parameterize(*testing.product_dict(
    [{'shape': (5, 4)}, {'shape': (3, 4, 2)}, {'shape': (2, 3, 2, 2)}],
    testing.product({
        'dtype': [numpy.float16, numpy.float32, numpy.float64],
        'reduce': ['mean', 'no'],
        'normalize': [True, False],
        'weighted': [False, True],
        'ignore_label': [-1, 0],
        'cache_score': [True, False],
    }),
))
@testing.inject_backend_tests(None, BACKENDS)
class TestSoftmaxCrossEntropy(testing.FunctionTestCase):

    # float16: log of a float16 sum of exponentials
    tolerances = {numpy.float16: (5e-3, None, 5e-2)}

    def setUp(self):
        self.class_weight = (numpy.array([0.5, 1., 2., 3.], self.dtype)[:self.shape[1]]
                             if self.weighted else None)

    def generate_inputs(self):
        x = numpy.random.uniform(-2, 2, self.shape).astype(self.dtype)
        t_shape = (self.shape[0],) + self.shape[2:]
        t = numpy.random.randint(-1, self.shape[1], t_shape).astype(numpy.int32)
        if self.ignore_label == 0:
            t[t == -1] = 0
        return x, t

    def forward(self, inputs, device):
        x, t = inputs
        cw = None if self.class_weight is None else device.send(self.class_weight)
        return F.softmax_cross_entropy(
            x, t, normalize=self.normalize, cache_score=self.cache_score, class_weight=cw,
            ignore_label=self.ignore_label, reduce=self.reduce),

    def forward_expected(self, inputs):
        x, t = inputs
        log_y = numpy.moveaxis(_log_softmax(x), 1, -1)
        loss = numpy.zeros(t.shape)
        for idx in numpy.ndindex(*t.shape):
            c = t[idx]
            if c == self.ignore_label:
                continue
            w = 1 if self.class_weight is None else self.class_weight[c]
            loss[idx] = -log_y[idx][c] * w
        if self.reduce == 'mean':
            count = (t != self.ignore_label).sum() if self.normalize else len(x)
            loss = loss.sum() / max(count, 1)
        return numpy.asarray(loss, self.dtype),


@testing.parameterize(*testing.product({
    'shape': [(4, 3), (2, 3, 2)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'reduce': ['mean', 'no'],
    'soft_target_loss': ['cross-entropy', 'kl-divergence'],
}))
@testing.inject_backend_tests(None, BACKENDS)
class TestSoftTargets(testing.FunctionTestCase):

    # float16: log of a float16 sum of exponentials
    tolerances = {numpy.float16: (5e-3, None, 5e-2)}

    def generate_inputs(self):
        x = numpy.random.uniform(-2, 2, self.shape).astype(self.dtype)
        t = numpy.random.uniform(0, 1, self.shape)
        t[:, 0] = 0                       # a zero probability: 0 log 0 counts as 0
        t /= t.sum(axis=1, keepdims=True)
        # The targets are constants (no gradient), so they are not an input of the check.
        self.t = t.astype(self.dtype)
        return x,

    def forward(self, inputs, device):
        x, = inputs
        return F.softmax_cross_entropy(x, device.send(self.t), reduce=self.reduce,
                                       soft_target_loss=self.soft_target_loss),

    def forward_expected(self, inputs):
        x, = inputs
        t = self.t.astype(numpy.float64)
        loss = -(t * _log_softmax(x)).sum(axis=1)
        if self.soft_target_loss == 'kl-divergence':
            loss += numpy.where(t > 0, t * numpy.log(numpy.where(t > 0, t, 1)), 0).sum(axis=1)
        if self.reduce == 'mean':
            loss = loss.mean()
        return numpy.asarray(loss, self.dtype),


@pytest.mark.parametrize('dtype, scale', [(numpy.float32, 1e4), (numpy.float16, 1e3)])
@pytest.mark.parametrize('reduce', ['mean', 'no'])
def test_large_logits_are_stable(dtype, scale, reduce):
    x = chainer.Variable(numpy.array([[scale, -scale, 0], [0, scale, -scale]], dtype))
    t = numpy.array([1, 1], numpy.int32)
    loss = F.softmax_cross_entropy(x, t, reduce=reduce)
    gx, = chainer.grad([F.sum(loss)], [x], enable_double_backprop=True)
    F.sum(gx * gx).backward()
    assert numpy.isfinite(loss.array).all()
    assert numpy.isfinite(gx.array).all() and numpy.isfinite(x.grad).all()
    # Row 0's label is 2 * scale below the largest logit; row 1's is the largest.
    expected = 2 * scale if reduce == 'no' else scale
    numpy.testing.assert_allclose(loss.array.astype('d').sum(), expected, rtol=1e-3)


def test_double_backprop_matches_the_composite():
    x = numpy.random.uniform(-1, 1, (4, 3))
    t = numpy.array([0, 2, -1, 1], numpy.int32)
    gys = []
    for flag in (False, True):
        v = chainer.Variable(x)
        gx, = chainer.grad([F.softmax_cross_entropy(v, t, enable_double_backprop=flag)],
                           [v], enable_double_backprop=True)
        gys.append(chainer.grad([F.sum(gx * gx)], [v])[0].array)
    # The reference: the same loss built from log_softmax and select_item.
    v = chainer.Variable(x)
    mask = t != -1
    loss = -F.sum(F.select_item(F.log_softmax(v), numpy.where(mask, t, 0)) * mask) / mask.sum()
    gx, = chainer.grad([loss], [v], enable_double_backprop=True)
    expected = chainer.grad([F.sum(gx * gx)], [v])[0].array
    for g in gys:
        numpy.testing.assert_allclose(g, expected, rtol=1e-6, atol=1e-8)


def test_all_ignored_gives_zero():
    x = chainer.Variable(numpy.zeros((2, 3), 'f'))
    loss = F.softmax_cross_entropy(x, numpy.array([-1, -1], 'i'))
    loss.backward()
    assert float(loss.array) == 0 and not x.grad.any()


def test_out_of_range_labels():
    x = numpy.zeros((3, 4), 'f')
    for bad in (4, -2):
        with pytest.raises(ValueError, match=f'softmax_cross_entropy: label {bad} in t'):
            F.softmax_cross_entropy(x, numpy.array([0, bad, -1], 'i'))
    # The ignore label itself is fine, also when it is not -1.
    F.softmax_cross_entropy(x, numpy.array([0, 9, 9], 'i'), ignore_label=9)


def test_bad_input():
    x = numpy.zeros((3, 4), 'f')
    t = numpy.zeros(3, 'i')
    check_bad_reduce(lambda r: F.softmax_cross_entropy(x, t, reduce=r), 'softmax_cross_entropy')
    with pytest.raises(type_check.InvalidType, match='SoftmaxCrossEntropy'):
        F.softmax_cross_entropy(x, t[:2])                          # batch sizes differ
    with pytest.raises(type_check.InvalidType, match='SoftmaxCrossEntropy'):
        F.softmax_cross_entropy(x, t.astype(numpy.uint8))          # labels not signed int
    with pytest.raises(ValueError, match="soft_target_loss"):
        F.softmax_cross_entropy(x, t, soft_target_loss='bogus')
    with pytest.raises(ValueError, match='class_weight'):
        F.softmax_cross_entropy(x, t, class_weight=numpy.ones(4, 'i'))
    with pytest.raises(ValueError, match='class_weight'):
        F.softmax_cross_entropy(x, t, class_weight=numpy.ones(3, 'f'))
    with pytest.raises(ValueError, match='soft targets'):
        F.softmax_cross_entropy(x, numpy.ones((3, 5), 'f'))
