import itertools

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing

from chainer_tests.functions_tests.loss_tests._loss import BACKENDS, check_bad_reduce

N_LABEL = 3


def _score(cost, xs, b, path):
    s = sum(x[b, y] for x, y in zip(xs, path))
    return s + sum(cost[a, c] for a, c in zip(path, path[1:]))


def _lengths(batches):
    return [sum(1 for b in batches if b > i) for i in range(batches[0])]


@testing.parameterize(*testing.product({
    'batches': [(2, 2, 2), (3, 2, 1), (2,), (3, 1, 1)],
    'reduce': ['mean', 'no'],
    'dtype': [numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, BACKENDS)
class TestCRF1d(testing.FunctionTestCase):

    def setUp(self):
        self.ys = [numpy.random.randint(0, N_LABEL, b).astype(numpy.int32)
                   for b in self.batches]

    def generate_inputs(self):
        cost = numpy.random.uniform(-1, 1, (N_LABEL, N_LABEL)).astype(self.dtype)
        xs = [numpy.random.uniform(-1, 1, (b, N_LABEL)).astype(self.dtype)
              for b in self.batches]
        return (cost, *xs)

    def forward(self, inputs, device):
        cost, *xs = inputs
        return F.crf1d(cost, xs, [device.send(y) for y in self.ys], reduce=self.reduce),

    def forward_expected(self, inputs):
        # Brute force: log Z sums over every label path of each sequence's length.
        cost, *xs = (a.astype(numpy.float64) for a in inputs)
        loss = []
        for b, length in enumerate(_lengths(self.batches)):
            z = sum(numpy.exp(_score(cost, xs, b, p))
                    for p in itertools.product(range(N_LABEL), repeat=length))
            gold = [self.ys[i][b] for i in range(length)]
            loss.append(numpy.log(z) - _score(cost, xs, b, gold))
        loss = numpy.array(loss)
        if self.reduce == 'mean':
            loss = loss.sum() / self.batches[0]
        return numpy.asarray(loss, self.dtype),


@pytest.mark.parametrize('batches', [(2, 2, 2), (3, 2, 1), (1,), (3, 1, 1)])
def test_argmax_crf1d_is_the_best_path(batches):
    cost = numpy.random.uniform(-1, 1, (N_LABEL, N_LABEL)).astype('f')
    xs = [numpy.random.uniform(-1, 1, (b, N_LABEL)).astype('f') for b in batches]
    score, path = F.argmax_crf1d(cost, xs)
    assert isinstance(score, chainer.Variable) and score.shape == (batches[0],)
    assert [p.shape for p in path] == [(b,) for b in batches]
    for b, length in enumerate(_lengths(batches)):
        best = max(itertools.product(range(N_LABEL), repeat=length),
                   key=lambda p: _score(cost, xs, b, p))
        assert [int(path[i][b]) for i in range(length)] == list(best)
        numpy.testing.assert_allclose(score.array[b], _score(cost, xs, b, best), rtol=1e-5)


@pytest.mark.parametrize('dtype, scale', [(numpy.float32, 1e4), (numpy.float16, 1e3)])
def test_large_scores_are_stable(dtype, scale):
    cost = chainer.Variable(numpy.array([[scale, -scale], [-scale, scale]], dtype))
    xs = [chainer.Variable(numpy.array([[scale, -scale]], dtype)) for _ in range(3)]
    loss = F.crf1d(cost, xs, [numpy.array([1], 'i')] * 3)
    loss.backward()
    # The best path (label 0 throughout) beats the gold one (label 1) by 6 * scale.
    numpy.testing.assert_allclose(float(loss.array), 6 * scale, rtol=1e-3)
    assert numpy.isfinite(cost.grad).all()
    assert all(numpy.isfinite(x.grad).all() for x in xs)


def test_bad_input():
    cost = numpy.zeros((2, 2), 'f')
    xs = [numpy.zeros((1, 2), 'f'), numpy.zeros((2, 2), 'f')]
    ys = [numpy.zeros(1, 'i'), numpy.zeros(2, 'i')]
    check_bad_reduce(lambda r: F.crf1d(cost, xs[:1], ys[:1], reduce=r), 'crf1d')
    with pytest.raises(ValueError, match='crf1d: xs must be .* do not increase'):
        F.crf1d(cost, xs, ys)
    with pytest.raises(ValueError, match='crf1d: label 2 in ys'):
        F.crf1d(cost, xs[:1], [numpy.array([2], 'i')])
