import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.functions.rnn import n_step_gru
from chainer.utils import type_check
from chainer_tests.functions_tests.rnn_tests import _n_step

sigmoid = _n_step.sigmoid


@testing.parameterize(*testing.product_dict(
    _n_step.CASES,
    [{'bi': False}, {'bi': True}],
    [{'dtype': numpy.float16}, {'dtype': numpy.float32}, {'dtype': numpy.float64}],
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestNStepGRU(_n_step.NStepTestCase):

    n_weights = 6

    def cell(self, x, h, c, w, b):
        r = sigmoid(x @ w[0].T + b[0] + h @ w[3].T + b[3])
        z = sigmoid(x @ w[1].T + b[1] + h @ w[4].T + b[4])
        a = numpy.tanh(x @ w[2].T + b[2] + r * (h @ w[5].T + b[5]))
        return (1 - z) * a + z * h, None

    def call(self, hx, cx, ws, bs, xs):
        f = F.n_step_bigru if self.bi else F.n_step_gru
        return f(self.n_layers, 0.0, hx, ws, bs, xs)


def _call(dropout_ratio, hx, cx, ws, bs, xs):
    return F.n_step_gru(2, dropout_ratio, hx, ws, bs, xs)


def test_dropout_applies_after_the_first_layer():
    _n_step.check_dropout_applies_after_the_first_layer(_call, 6)


def test_base_matches_the_public_functions():
    hx, _, ws, bs, xs = _n_step.random_call_args(6, n_dirs=2)
    hy, ys = F.n_step_bigru(2, 0.0, hx, ws, bs, xs)
    hy2, ys2 = n_step_gru.n_step_gru_base(2, 0.0, hx, ws, bs, xs, True)
    numpy.testing.assert_array_equal(hy2.array, hy.array)
    assert isinstance(ys2, tuple) and [y.shape for y in ys2] == [(3, 4), (2, 4)]


def test_input_size_error_is_invalid_type_too():
    hx, _, ws, bs, xs = _n_step.random_call_args(6)
    with pytest.raises(type_check.InvalidType, match=r'n_step_gru: Inconsistent input size'):
        F.n_step_gru(2, 0.0, hx, ws, bs, [x[:, :2] for x in xs])


def test_states_are_required():
    _, _, ws, bs, xs = _n_step.random_call_args(6)
    with pytest.raises(TypeError, match='n_step_gru requires the initial states hx, got None'):
        F.n_step_gru(2, 0.0, None, ws, bs, xs)


def test_empty_time_steps():
    # A step where no sequence is active gives an empty output and changes no state.
    hx, _, ws, bs, xs = _n_step.random_call_args(6, n_dirs=2, batches=(2, 0, 1))
    hy, ys = F.n_step_bigru(2, 0.0, hx, ws, bs, xs)
    hy2, ys2 = F.n_step_bigru(2, 0.0, hx, ws, bs, [xs[0], xs[2]])
    assert [y.shape for y in ys] == [(2, 4), (0, 4), (1, 4)]
    numpy.testing.assert_allclose(hy.array, hy2.array, rtol=1e-6)
    numpy.testing.assert_allclose(ys[2].array, ys2[1].array, rtol=1e-6)


def test_unknown_argument():
    hx, _, ws, bs, xs = _n_step.random_call_args(6)
    with pytest.raises(TypeError, match="'bar'"):
        F.n_step_bigru(1, 0.0, hx, ws, bs, xs, bar=0)


def test_module_path():
    assert F.n_step_gru is n_step_gru.n_step_gru
    assert F.n_step_bigru is n_step_gru.n_step_bigru
    assert F.n_step_gru.__module__ == 'chainer.functions.rnn.n_step_gru'
