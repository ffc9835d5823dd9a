import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.functions.rnn import n_step_rnn
from chainer.utils import type_check
from chainer_tests.functions_tests.rnn_tests import _n_step


@testing.parameterize(*testing.product_dict(
    _n_step.CASES,
    [{'activation': 'tanh'}, {'activation': 'relu'}],
    [{'bi': False}, {'bi': True}],
    [{'dtype': numpy.float16}, {'dtype': numpy.float32}, {'dtype': numpy.float64}],
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestNStepRNN(_n_step.NStepTestCase):

    n_weights = 2
    dodge_nondifferentiable = True  # relu has a kink at 0

    def cell(self, x, h, c, w, b):
        z = x @ w[0].T + b[0] + h @ w[1].T + b[1]
        return (numpy.tanh(z) if self.activation == 'tanh' else numpy.maximum(z, 0)), None

    def call(self, hx, cx, ws, bs, xs):
        f = F.n_step_birnn if self.bi else F.n_step_rnn
        return f(self.n_layers, 0.0, hx, ws, bs, xs, activation=self.activation)


def _call(dropout_ratio, hx, cx, ws, bs, xs):
    return F.n_step_rnn(2, dropout_ratio, hx, ws, bs, xs)


def test_dropout_applies_after_the_first_layer():
    _n_step.check_dropout_applies_after_the_first_layer(_call, 2)


def test_outputs_are_variables_and_a_tuple():
    hx, _, ws, bs, xs = _n_step.random_call_args(2)
    hy, ys = F.n_step_rnn(2, 0.0, hx, ws, bs, xs)
    assert isinstance(hy, chainer.Variable) and isinstance(ys, tuple)
    assert hy.shape == hx.shape and [y.shape for y in ys] == [(3, 2), (2, 2)]


def test_base_and_impl_agree_with_the_public_functions():
    hx, _, ws, bs, xs = _n_step.random_call_args(2, n_dirs=2)
    hy, ys = F.n_step_birnn(2, 0.0, hx, ws, bs, xs, 'relu')
    hy2, ys2 = n_step_rnn.n_step_rnn_base(2, 0.0, hx, ws, bs, xs, 'relu', True)

    def cell(x, h, c, w, b):
        return F.relu(F.matmul(x, w[0], transb=True) + b[0]
                      + F.matmul(h, w[1], transb=True) + b[1]), None

    hy3, cy3, ys3 = n_step_rnn.n_step_rnn_impl(cell, 2, 0.0, hx, None, ws, bs, xs, True)
    assert cy3 is None
    for other_hy, other_ys in ((hy2, ys2), (hy3, ys3)):
        numpy.testing.assert_allclose(other_hy.array, hy.array, rtol=1e-5, atol=1e-6)
        for a, b in zip(other_ys, ys):
            numpy.testing.assert_allclose(a.array, b.array, rtol=1e-5, atol=1e-6)


def test_invalid_activation():
    hx, _, ws, bs, xs = _n_step.random_call_args(2)
    with pytest.raises(ValueError, match='Invalid activation.*sigmoid'):
        F.n_step_rnn(2, 0.0, hx, ws, bs, xs, activation='sigmoid')


@pytest.mark.parametrize('name, message', [
    ('train', 'train argument is not supported'),
    ('use_cudnn', 'use_cudnn argument is not supported'),
])
def test_retired_arguments(name, message):
    hx, _, ws, bs, xs = _n_step.random_call_args(2)
    with pytest.raises(ValueError, match=message):
        F.n_step_rnn(2, 0.0, hx, ws, bs, xs, **{name: True})


def test_unknown_argument():
    hx, _, ws, bs, xs = _n_step.random_call_args(2)
    with pytest.raises(TypeError, match="n_step_rnn_base.*'foo'"):
        F.n_step_rnn(2, 0.0, hx, ws, bs, xs, foo=1)


def _bad(change):
    hx, _, ws, bs, xs = _n_step.random_call_args(2)
    args = {'hx': hx, 'ws': ws, 'bs': bs, 'xs': xs}
    change(args)
    return args


@pytest.mark.parametrize('change, error, match', [
    (lambda a: a.update(xs=[]), ValueError, 'n_step_rnn requires at least one time step'),
    (lambda a: a.update(ws=a['ws'][:1]), ValueError, r'n_step_rnn requires 2 lists in ws'),
    (lambda a: a['bs'][1].pop(), ValueError, r'2 arrays in bs\[1\], got 1'),
    (lambda a: a.update(hx=a['hx'][:1]), type_check.InvalidType, r'hx.shape == \(2, batch'),
    (lambda a: a.update(xs=[numpy.zeros((4, 3), numpy.float32)]), type_check.InvalidType,
     r'time step 0 has 4 sequences but hx holds states for 3'),
    (lambda a: a.update(xs=[numpy.zeros((3, 4), numpy.float32)]), ValueError,
     r'n_step_rnn: Inconsistent input size.*4 != 3'),
    (lambda a: a.update(xs=[numpy.zeros((3, 4), numpy.float32)]), type_check.InvalidType,
     'Inconsistent input size'),
    (lambda a: a.update(xs=[numpy.zeros((3, 3)), numpy.zeros((2, 3))]), type_check.InvalidType,
     r'xs\[0\].dtype == float32'),
    (lambda a: a['ws'][1].__setitem__(1, numpy.zeros((2, 3), numpy.float32)),
     type_check.InvalidType, r'ws\[1\]\[1\].shape == \(2, 2\)'),
    (lambda a: a['bs'][0].__setitem__(0, numpy.zeros(3, numpy.float32)),
     type_check.InvalidType, r'bs\[0\]\[0\]'),
])
def test_invalid_inputs(change, error, match):
    args = _bad(change)
    with pytest.raises(error, match=match):
        F.n_step_rnn(2, 0.0, args['hx'], args['ws'], args['bs'], args['xs'])


def test_module_path():
    assert F.n_step_rnn is n_step_rnn.n_step_rnn
    assert F.n_step_birnn is n_step_rnn.n_step_birnn
    assert F.n_step_rnn.__module__ == 'chainer.functions.rnn.n_step_rnn'
