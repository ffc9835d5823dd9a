import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product_dict(
    [
        {'shape': (3, 4), 'pad_width': 1, 'mode': 'constant', 'kw': {}},
        {'shape': (3, 4), 'pad_width': ((1, 2), (0, 3)), 'mode': 'constant',
         'kw': {'constant_values': 2}},
        {'shape': (3,), 'pad_width': (2, 1), 'mode': 'constant', 'kw': {}},
        {'shape': (3, 4), 'pad_width': ((1, 2), (3, 1)), 'mode': 'edge', 'kw': {}},
        {'shape': (3, 4), 'pad_width': 2, 'mode': 'reflect', 'kw': {}},
        {'shape': (3, 4), 'pad_width': ((4, 1), (0, 2)), 'mode': 'symmetric', 'kw': {}},
        {'shape': (3, 4), 'pad_width': ((1, 5), (2, 2)), 'mode': 'wrap', 'kw': {}},
        {'shape': (0, 2), 'pad_width': ((0, 0), (1, 1)), 'mode': 'constant', 'kw': {}},
    ],
    testing.product({'dtype': [numpy.float16, numpy.float32, numpy.float64]}),
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestPad(testing.FunctionTestCase):

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.pad(inputs[0], self.pad_width, self.mode, **self.kw),

    def forward_expected(self, inputs):
        return numpy.pad(inputs[0], self.pad_width, self.mode, **self.kw),


def test_gradient_of_non_copying_mode_is_refused():
    x = chainer.Variable(numpy.ones((3,), numpy.float32))
    y = F.pad(x, 1, 'mean')
    numpy.testing.assert_array_equal(y.array, numpy.ones(5))
    with pytest.raises(NotImplementedError, match='mean'):
        F.sum(y).backward()


def test_integer_input():
    with pytest.raises(type_check.InvalidType, match='Pad'):
        F.pad(numpy.zeros(3, numpy.int32), 1, 'constant')
