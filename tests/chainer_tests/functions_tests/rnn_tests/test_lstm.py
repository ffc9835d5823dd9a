import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check
from chainer_tests.functions_tests.rnn_tests import _cells


def _sigmoid(x):
    return 1 / (1 + numpy.exp(-x))


def _lstm(c_prev, x):
    x = x.astype(numpy.float64)
    c_prev = c_prev.astype(numpy.float64)
    batch, units = len(x), c_prev.shape[1]
    r = x.reshape((batch, units, 4) + x.shape[2:])
    a, i, f, o = numpy.tanh(r[:, :, 0]), _sigmoid(r[:, :, 1]), _sigmoid(r[:, :, 2]), \
        _sigmoid(r[:, :, 3])
    c = a * i + f * c_prev[:batch]
    h = o * numpy.tanh(c)
    return numpy.concatenate([c, c_prev[batch:]]), h


@testing.parameterize(*testing.product_dict(
    [
        {'c_shape': (3, 4), 'x_shape': (3, 16)},
        {'c_shape': (4, 2), 'x_shape': (2, 8)},        # shorter input batch
        {'c_shape': (2, 2, 3), 'x_shape': (2, 8, 3)},  # trailing axes
        {'c_shape': (2, 3), 'x_shape': (0, 12)},
    ],
    [{'dtype': numpy.float16}, {'dtype': numpy.float32}, {'dtype': numpy.float64}],
    [{'grads': 'ch'}, {'grads': 'c'}, {'grads': 'h'}],
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestLSTM(testing.FunctionTestCase):

    # float16: the gates compound the rounding of four products
    tolerances = {numpy.float16: (5e-3, (1e-2, 5e-2), (5e-2, 1e-1))}

    def generate_inputs(self):
        c = numpy.random.uniform(-1, 1, self.c_shape).astype(self.dtype)
        x = numpy.random.uniform(-1, 1, self.x_shape).astype(self.dtype)
        return c, x

    def generate_grad_outputs(self, outputs_template):
        gc, gh = (numpy.random.uniform(-1, 1, t.shape).astype(t.dtype)
                  for t in outputs_template)
        return (gc if 'c' in self.grads else None), (gh if 'h' in self.grads else None)

    def forward(self, inputs, device):
        return F.lstm(*inputs)

    def forward_expected(self, inputs):
        return tuple(y.astype(self.dtype) for y in _lstm(*inputs))


def test_gate_layout_is_interleaved():
    # two units: x[:, 4k:4k+4] are (a, i, f, o) of unit k
    c_prev = numpy.array([[1., 2.]], numpy.float32)
    x = numpy.zeros((1, 8), numpy.float32)
    x[0, 0] = 100   # a of unit 0 -> tanh = 1
    x[0, 6] = -100  # f of unit 1 -> sigmoid = 0
    x[0, 7] = 100   # o of unit 1 -> sigmoid = 1
    c, h = F.lstm(c_prev, x)
    numpy.testing.assert_allclose(c.array, [[0.5 + 0.5 * 1, 0 + 0 * 2]], atol=1e-6)
    numpy.testing.assert_allclose(h.array, [[0.5 * numpy.tanh(1.0), 0]], atol=1e-6)


def test_rows_beyond_the_batch_pass_through():
    c_prev = numpy.random.uniform(-1, 1, (3, 2)).astype(numpy.float32)
    x = numpy.random.uniform(-1, 1, (1, 8)).astype(numpy.float32)
    cv = chainer.Variable(c_prev)
    c, h = F.lstm(cv, x)
    assert c.shape == (3, 2) and h.shape == (1, 2)
    numpy.testing.assert_array_equal(c.array[1:], c_prev[1:])
    F.sum(c).backward()
    numpy.testing.assert_array_equal(cv.grad[1:], numpy.ones((2, 2)))


def test_first_and_second_order_paths_agree():
    _cells.check_first_and_second_order_paths_agree(
        F.lstm, [(4, 3), (2, 12)], [(4, 3), (2, 3)])


@pytest.mark.parametrize('c_prev, x', [
    (numpy.ones((2, 3), numpy.int32), numpy.ones((2, 12), numpy.int32)),
    (numpy.ones((2, 3), numpy.float32), numpy.ones((2, 12), numpy.float64)),
    (numpy.ones((2, 3), numpy.float32), numpy.ones((2, 9), numpy.float32)),
    (numpy.ones((2, 3), numpy.float32), numpy.ones((3, 12), numpy.float32)),
    (numpy.ones((3,), numpy.float32), numpy.ones((12,), numpy.float32)),
    (numpy.ones((2, 3, 2), numpy.float32), numpy.ones((2, 12, 3), numpy.float32)),
    (numpy.ones((2, 3), numpy.float32), numpy.ones((2, 12, 1), numpy.float32)),
])
def test_invalid_inputs(c_prev, x):
    with pytest.raises(type_check.InvalidType, match='LSTM'):
        F.lstm(c_prev, x)


def test_module_path():
    _cells.check_module_path('lstm', 'lstm', 'LSTM')
