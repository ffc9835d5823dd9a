import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check
from chainer_tests.functions_tests.rnn_tests import _cells


def _sigmoid(x):
    return 1 / (1 + numpy.exp(-x))


def _slstm(c1, c2, x1, x2):
    c1, c2, x1, x2 = (a.astype(numpy.float64) for a in (c1, c2, x1, x2))
    shape = (len(x1), c1.shape[1], 4) + x1.shape[2:]
    r1, r2 = x1.reshape(shape), x2.reshape(shape)
    # Each child has its own cell input and input gate; the output gate sums both.
    c = (numpy.tanh(r1[:, :, 0]) * _sigmoid(r1[:, :, 1])
         + numpy.tanh(r2[:, :, 0]) * _sigmoid(r2[:, :, 1])
         + _sigmoid(r1[:, :, 2]) * c1 + _sigmoid(r2[:, :, 2]) * c2)
    o = _sigmoid(r1[:, :, 3] + r2[:, :, 3])
    return c, o * numpy.tanh(c)


@testing.parameterize(*testing.product_dict(
    [
        {'c_shape': (3, 2), 'x_shape': (3, 8)},
        {'c_shape': (2, 2, 3), 'x_shape': (2, 8, 3)},
        {'c_shape': (0, 2), 'x_shape': (0, 8)},
    ],
    [{'dtype': numpy.float16}, {'dtype': numpy.float32}, {'dtype': numpy.float64}],
    [{'grads': 'ch'}, {'grads': 'h'}],
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSLSTM(testing.FunctionTestCase):

    # float16: the gates compound the rounding of two cells' products
    tolerances = {numpy.float16: (5e-3, (1e-2, 5e-2), (5e-2, 1e-1))}

    def generate_inputs(self):
        cs = [numpy.random.uniform(-1, 1, self.c_shape).astype(self.dtype) for _ in range(2)]
        xs = [numpy.random.uniform(-1, 1, self.x_shape).astype(self.dtype) for _ in range(2)]
        return tuple(cs + xs)

    def generate_grad_outputs(self, outputs_template):
        gc, gh = (numpy.random.uniform(-1, 1, t.shape).astype(t.dtype)
                  for t in outputs_template)
        return (gc if 'c' in self.grads else None), gh

    def forward(self, inputs, device):
        return F.slstm(*inputs)

    def forward_expected(self, inputs):
        return tuple(y.astype(self.dtype) for y in _slstm(*inputs))


def test_values():
    c1 = numpy.array([[1.]], numpy.float32)
    c2 = numpy.array([[3.]], numpy.float32)
    x1 = numpy.array([[0., 0., 100., 0.]], numpy.float32)    # f1 -> 1
    x2 = numpy.array([[0., 0., -100., 0.]], numpy.float32)   # f2 -> 0
    c, h = F.slstm(c1, c2, x1, x2)
    numpy.testing.assert_allclose(c.array, [[1.]], atol=1e-6)
    numpy.testing.assert_allclose(h.array, [[0.5 * numpy.tanh(1.)]], atol=1e-6)


def test_each_child_has_its_own_cell_input_and_input_gate():
    # Child 1 writes tanh(a1) = 1 through an open gate; child 2's a2 = -1 is gated off.
    # Summing the pre-activations first would give tanh(0) = 0 instead.
    zeros = numpy.zeros((1, 1), numpy.float32)
    x1 = numpy.array([[100., 100., -100., 0.]], numpy.float32)
    x2 = numpy.array([[-100., -100., -100., 0.]], numpy.float32)
    c, h = F.slstm(zeros, zeros, x1, x2)
    numpy.testing.assert_allclose(c.array, [[1.]], atol=1e-6)
    numpy.testing.assert_allclose(h.array, [[0.5 * numpy.tanh(1.)]], atol=1e-6)


def test_first_and_second_order_paths_agree():
    _cells.check_first_and_second_order_paths_agree(
        F.slstm, [(2, 3), (2, 3), (2, 12), (2, 12)], [(2, 3), (2, 3)])


def _f(*shape, dtype=numpy.float32):
    return numpy.ones(shape, dtype)


@pytest.mark.parametrize('args', [
    (_f(2, 3, dtype=numpy.int32), _f(2, 3, dtype=numpy.int32),
     _f(2, 12, dtype=numpy.int32), _f(2, 12, dtype=numpy.int32)),
    (_f(2, 3), _f(2, 3), _f(2, 12), _f(2, 12, dtype=numpy.float64)),
    (_f(2, 3), _f(2, 4), _f(2, 12), _f(2, 12)),
    (_f(2, 3), _f(2, 3), _f(2, 12), _f(2, 8)),
    (_f(2, 3), _f(2, 3), _f(3, 12), _f(3, 12)),
    (_f(2, 3), _f(2, 3), _f(2, 9), _f(2, 9)),
])
def test_invalid_inputs(args):
    with pytest.raises(type_check.InvalidType, match='SLSTM'):
        F.slstm(*args)


def test_module_path():
    _cells.check_module_path('slstm', 'slstm', 'SLSTM')
