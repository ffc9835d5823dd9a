import itertools

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing

from chainer_tests.functions_tests.loss_tests._loss import BACKENDS, check_bad_reduce


def _collapse(path, blank):
    out = []
    prev = None
    for c in path:
        if c != prev and c != blank:
            out.append(c)
        prev = c
    return out


def _brute_force_nll(probs, label, blank):
    # Sums the probability of every alignment (a class per step) that collapses to label.
    total = 0.
    for path in itertools.product(range(probs.shape[1]), repeat=len(probs)):
        if _collapse(path, blank) == list(label):
            total += numpy.prod([probs[s, c] for s, c in enumerate(path)])
    return -numpy.log(total)


@testing.parameterize(*testing.product_dict(
    [{'case': 'full'}, {'case': 'input_padding'}, {'case': 'label_padding'},
     {'case': 'repeated'}, {'case': 'no_lengths'}],
    testing.product({
        'dtype': [numpy.float16, numpy.float32, numpy.float64],
        'reduce': ['mean', 'no'],
        'blank': [0, 2],
    }),
))
@testing.inject_backend_tests(None, BACKENDS)
class TestCTC(testing.FunctionTestCase):

    n_step = 4
    skip_double_backward_test = True     # an old-style Function, as in Chainer

    # float16: the forward-backward recursion compounds rounding over time
    tolerances = {numpy.float16: (1e-2, 2e-2)}

    def setUp(self):
        labels = [1, 0] if self.blank == 2 else [1, 2]
        self.t = numpy.array([labels, labels[::-1]], numpy.int32)
        self.input_length = numpy.array([4, 4], numpy.int32)
        self.label_length = numpy.array([2, 2], numpy.int32)
        if self.case == 'input_padding':
            self.input_length[1] = 3
        elif self.case == 'label_padding':
            self.label_length[0] = 1
        elif self.case == 'repeated':
            self.t[1] = labels[0]

    def generate_inputs(self):
        return tuple(numpy.random.uniform(-1, 1, (2, 3)).astype(self.dtype)
                     for _ in range(self.n_step))

    def forward(self, inputs, device):
        lengths = ((None, None) if self.case == 'no_lengths' else
                   (device.send(self.input_length), device.send(self.label_length)))
        return F.connectionist_temporal_classification(
            list(inputs), device.send(self.t), self.blank, *lengths, reduce=self.reduce),

    def forward_expected(self, inputs):
        x = numpy.stack([a.astype(numpy.float64) for a in inputs])
        probs = numpy.exp(x) / numpy.exp(x).sum(axis=2, keepdims=True)
        loss = numpy.array([
            _brute_force_nll(probs[:self.input_length[b], b],
                             self.t[b, :self.label_length[b]], self.blank)
            for b in range(2)])
        if self.reduce == 'mean':
            loss = loss.mean()
        return numpy.asarray(loss, self.dtype),


@pytest.mark.parametrize('dtype, scale', [(numpy.float32, 1e4), (numpy.float16, 1e3)])
def test_large_logits_are_stable(dtype, scale):
    x = [chainer.Variable(numpy.array([[scale, -scale, 0.]], dtype)) for _ in range(3)]
    loss = F.connectionist_temporal_classification(x, numpy.array([[1]], 'i'), 0)
    loss.backward()
    assert numpy.isfinite(loss.array)
    assert all(numpy.isfinite(v.grad).all() for v in x)


def test_no_backprop_mode():
    x = [numpy.zeros((2, 3), 'f')] * 3
    with chainer.no_backprop_mode():
        loss = F.connectionist_temporal_classification(x, numpy.zeros((2, 1), 'i'), 2)
    assert loss.creator is None


def test_bad_input():
    x = [numpy.zeros((2, 3), 'f')] * 3
    t = numpy.array([[0, 1], [1, 0]], 'i')
    check_bad_reduce(
        lambda r: F.connectionist_temporal_classification(x, t, 2, reduce=r),
        'connectionist_temporal_classification')
    with pytest.raises(TypeError, match='list or tuple'):
        F.connectionist_temporal_classification(numpy.zeros((3, 2, 3), 'f'), t, 2)
    with pytest.raises(ValueError, match='longer than its input'):
        F.connectionist_temporal_classification(
            x, t, 2, numpy.array([3, 1], 'i'), numpy.array([2, 2], 'i'))
    with pytest.raises(ValueError, match='connectionist_temporal_classification: label 3'):
        F.connectionist_temporal_classification(x, numpy.array([[0, 3], [1, 0]], 'i'), 2)
    with pytest.raises(ValueError, match='blank_symbol 5'):
        F.connectionist_temporal_classification(x, t, 5)
