import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


def _summary(y, t, n, beta, ignore_label):
    pred = y.argmax(axis=1).ravel()
    t = t.ravel()
    keep = t != ignore_label
    pred, t = pred[keep], t[keep]
    tp = numpy.array([((pred == c) & (t == c)).sum() for c in range(n)])
    relevant = numpy.array([(pred == c).sum() for c in range(n)])
    support = numpy.array([(t == c).sum() for c in range(n)])
    with numpy.errstate(divide='ignore', invalid='ignore'):
        p = tp / relevant
        r = tp / support
        f = (1 + beta ** 2) * p * r / (beta ** 2 * p + r)
    return p, r, f, support


@testing.parameterize(*testing.product({
    'y_shape': [(30, 3), (10, 3, 4)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'label_num': [None, 4],
    'beta': [1., 2.],
    'ignore_label': [-1, 0],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestClassificationSummary(testing.FunctionTestCase):

    skip_backward_test = True
    skip_double_backward_test = True

    def generate_inputs(self):
        y = numpy.random.uniform(-1, 1, self.y_shape).astype(self.dtype)
        t_shape = self.y_shape[:1] + self.y_shape[2:]
        t = numpy.random.randint(-1, 3, t_shape).astype(numpy.int32)
        if self.ignore_label == 0:
            t[t == -1] = 0
        return y, t

    def forward(self, inputs, device):
        return F.classification_summary(*inputs, label_num=self.label_num, beta=self.beta,
                                        ignore_label=self.ignore_label)

    def forward_expected(self, inputs):
        n = self.label_num or self.y_shape[1]
        return _summary(*inputs, n, self.beta, self.ignore_label)


def test_output_types_and_the_shortcuts():
    y = numpy.random.uniform(-1, 1, (20, 3)).astype('e')
    t = numpy.random.randint(0, 3, 20).astype('i')
    p, r, f, s = F.classification_summary(y, t)
    assert [v.dtype for v in (p, r, f, s)] == [numpy.float64] * 3 + [numpy.int64]
    for func, expected in ((F.precision, p), (F.recall, r), (F.f1_score, f)):
        value, support = func(y, t)
        numpy.testing.assert_array_equal(value.array, expected.array)
        numpy.testing.assert_array_equal(support.array, s.array)
    from chainer.functions.evaluation import classification_summary as cs
    value, _ = cs.fbeta_score(y, t, beta=2.)
    numpy.testing.assert_array_equal(
        value.array, F.classification_summary(y, t, beta=2.)[2].array)


def test_bad_input():
    y = numpy.zeros((3, 4), 'f')
    with pytest.raises(type_check.InvalidType, match='ClassificationSummary'):
        F.classification_summary(y, numpy.zeros(3, 'f'))
    # Without label_num the classes run up to the largest label (as in Chainer 7.8.1);
    # a label beyond a given label_num is refused (docs/differences.md, label-range).
    assert F.classification_summary(y, numpy.array([0, 7, 1], 'i'))[3].shape == (8,)
    with pytest.raises(ValueError, match='classification_summary: label 7'):
        F.classification_summary(y, numpy.array([0, 7, 1], 'i'), label_num=4)
    with pytest.raises(ValueError, match='label_num'):
        F.classification_summary(y, numpy.zeros(3, 'i'), label_num=0)
