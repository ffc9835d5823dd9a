import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check
from chainer_tests.functions_tests.rnn_tests import _cells


def _sigmoid(x):
    return 1 / (1 + numpy.exp(-x))


def _tree_lstm(*inputs):
    inputs = [a.astype(numpy.float64) for a in inputs]
    cs, x = inputs[:-1], inputs[-1]
    units = cs[0].shape[1]
    gates = [x[:, k * units:(k + 1) * units] for k in range(3 + len(cs))]
    a, i, o, fs = gates[0], gates[1], gates[2], gates[3:]
    c = numpy.tanh(a) * _sigmoid(i)
    for f, c_k in zip(fs, cs):
        c = c + _sigmoid(f) * c_k
    return c, _sigmoid(o) * numpy.tanh(c)


@testing.parameterize(*testing.product_dict(
    [
        {'n_children': 1, 'c_shape': (3, 2)},
        {'n_children': 2, 'c_shape': (3, 2)},
        {'n_children': 3, 'c_shape': (2, 2, 3)},
        {'n_children': 2, 'c_shape': (0, 2)},
    ],
    [{'dtype': numpy.float16}, {'dtype': numpy.float32}, {'dtype': numpy.float64}],
    [{'grads': 'ch'}, {'grads': 'c'}],
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestTreeLSTM(testing.FunctionTestCase):

    # float16: the gates compound the rounding of the children's products
    tolerances = {numpy.float16: (5e-3, (1e-2, 5e-2), (5e-2, 1e-1))}

    def generate_inputs(self):
        n = self.n_children
        x_shape = (self.c_shape[0], (3 + n) * self.c_shape[1]) + self.c_shape[2:]
        cs = [numpy.random.uniform(-1, 1, self.c_shape).astype(self.dtype) for _ in range(n)]
        return tuple(cs) + (numpy.random.uniform(-1, 1, x_shape).astype(self.dtype),)

    def generate_grad_outputs(self, outputs_template):
        gc, gh = (numpy.random.uniform(-1, 1, t.shape).astype(t.dtype)
                  for t in outputs_template)
        return gc, (gh if 'h' in self.grads else None)

    def forward(self, inputs, device):
        return F.tree_lstm(*inputs)

    def forward_expected(self, inputs):
        return tuple(y.astype(self.dtype) for y in _tree_lstm(*inputs))


def test_gate_layout_is_contiguous():
    c1 = numpy.array([[1., 2.]], numpy.float32)
    x = numpy.zeros((1, 8), numpy.float32)   # blocks a, i, o, f1, each 2 wide
    x[0, 0:2] = 100     # a -> 1
    x[0, 6:8] = -100    # f1 -> 0
    c, h = F.tree_lstm(c1, x)
    numpy.testing.assert_allclose(c.array, [[0.5, 0.5]], atol=1e-6)


def test_first_and_second_order_paths_agree():
    _cells.check_first_and_second_order_paths_agree(
        F.tree_lstm, [(2, 3), (2, 3), (2, 15)], [(2, 3), (2, 3)])


def _f(*shape, dtype=numpy.float32):
    return numpy.ones(shape, dtype)


@pytest.mark.parametrize('args', [
    (_f(2, 3),),
    (_f(2, 3, dtype=numpy.int32), _f(2, 12, dtype=numpy.int32)),
    (_f(2, 3), _f(2, 12, dtype=numpy.float64)),
    (_f(2, 3), _f(2, 15)),
    (_f(2, 3), _f(2, 4), _f(2, 15)),
    (_f(3, 3), _f(2, 12)),
])
def test_invalid_inputs(args):
    with pytest.raises(type_check.InvalidType, match='TreeLSTM'):
        F.tree_lstm(*args)


def test_module_path():
    _cells.check_module_path('tree_lstm', 'tree_lstm', 'TreeLSTM')
