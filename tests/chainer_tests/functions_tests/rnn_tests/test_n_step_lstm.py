import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.functions.rnn import n_step_lstm
from chainer.utils import type_check
from chainer_tests.functions_tests.rnn_tests import _n_step

sigmoid = _n_step.sigmoid


@testing.parameterize(*testing.product_dict(
    _n_step.CASES,
    [{'bi': False}, {'bi': True}],
    [{'dtype': numpy.float16}, {'dtype': numpy.float32}, {'dtype': numpy.float64}],
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestNStepLSTM(_n_step.NStepTestCase):

    n_weights = 8
    has_cell = True

    def cell(self, x, h, c, w, b):
        i = sigmoid(x @ w[0].T + h @ w[4].T + b[0] + b[4])
        f = sigmoid(x @ w[1].T + h @ w[5].T + b[1] + b[5])
        a = numpy.tanh(x @ w[2].T + h @ w[6].T + b[2] + b[6])
        o = sigmoid(x @ w[3].T + h @ w[7].T + b[3] + b[7])
        c = f * c + i * a
        return o * numpy.tanh(c), c

    def call(self, hx, cx, ws, bs, xs):
        f = F.n_step_bilstm if self.bi else F.n_step_lstm
        return f(self.n_layers, 0.0, hx, cx, ws, bs, xs)


def _call(dropout_ratio, hx, cx, ws, bs, xs):
    return F.n_step_lstm(2, dropout_ratio, hx, cx, ws, bs, xs)


def test_dropout_applies_after_the_first_layer():
    _n_step.check_dropout_applies_after_the_first_layer(_call, 8)


def test_outputs():
    hx, cx, ws, bs, xs = _n_step.random_call_args(8, n_dirs=2, batches=(2, 1))
    hy, cy, ys = F.n_step_bilstm(2, 0.0, hx, cx, ws, bs, xs)
    assert isinstance(ys, tuple) and hy.shape == cy.shape == hx.shape
    assert [y.shape for y in ys] == [(2, 4), (1, 4)]
    hy2, cy2, ys2 = n_step_lstm.n_step_lstm_base(2, 0.0, hx, cx, ws, bs, xs, True)
    numpy.testing.assert_array_equal(hy2.array, hy.array)
    numpy.testing.assert_array_equal(cy2.array, cy.array)


def test_cell_state_is_required():
    hx, _, ws, bs, xs = _n_step.random_call_args(8)
    with pytest.raises(TypeError, match='n_step_lstm requires the initial cell states cx'):
        F.n_step_lstm(2, 0.0, hx, None, ws, bs, xs)


def test_retired_argument():
    hx, cx, ws, bs, xs = _n_step.random_call_args(8)
    with pytest.raises(ValueError, match='train argument is not supported'):
        F.n_step_lstm(2, 0.0, hx, cx, ws, bs, xs, train=False)


@pytest.mark.parametrize('change, error, match', [
    (lambda a: a['ws'][0].pop(), ValueError, r'n_step_lstm requires 8 arrays in ws\[0\], got 7'),
    (lambda a: a.update(cx=a['cx'][:, :2]), type_check.InvalidType, 'cx must match hx'),
    (lambda a: a.update(xs=[numpy.zeros((2, 5), numpy.float32)]), ValueError,
     r'Inconsistent input size.*5 != 3'),
    (lambda a: a['ws'][0].__setitem__(6, numpy.zeros((2, 3), numpy.float32)),
     type_check.InvalidType, r'ws\[0\]\[6\].shape == \(2, 2\)'),
    (lambda a: a['ws'][1].__setitem__(0, numpy.zeros((2, 3), numpy.float64)),
     type_check.InvalidType, r'ws\[1\]\[0\].shape == \(2, 2\)'),
    (lambda a: a['ws'][1].__setitem__(0, numpy.zeros((2, 2), numpy.float64)),
     type_check.InvalidType, r'ws\[1\]\[0\].dtype == float32'),
])
def test_invalid_inputs(change, error, match):
    hx, cx, ws, bs, xs = _n_step.random_call_args(8)
    args = {'hx': hx, 'cx': cx, 'ws': ws, 'bs': bs, 'xs': xs}
    change(args)
    with pytest.raises(error, match=match):
        F.n_step_lstm(2, 0.0, args['hx'], args['cx'], args['ws'], args['bs'], args['xs'])


def test_bidirectional_layer_count():
    hx, cx, ws, bs, xs = _n_step.random_call_args(8, n_dirs=1)
    with pytest.raises(ValueError, match=r'n_step_bilstm requires 4 lists in ws'):
        F.n_step_bilstm(2, 0.0, hx, cx, ws, bs, xs)


def test_module_path():
    assert F.n_step_lstm is n_step_lstm.n_step_lstm
    assert F.n_step_bilstm is n_step_lstm.n_step_bilstm
    assert F.n_step_bilstm.__module__ == 'chainer.functions.rnn.n_step_lstm'
