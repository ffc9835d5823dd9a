import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape': [(3, 4), (0, 4), (2, 40)],   # 40 columns: more than numpy.choose allows
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    't_dtype': [numpy.int32, numpy.int64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSelectItem(testing.FunctionTestCase):

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        t = numpy.random.randint(0, self.shape[1], self.shape[0]).astype(self.t_dtype)
        return x, t

    def forward(self, inputs, device):
        x, t = inputs
        return F.select_item(x, t),

    def forward_expected(self, inputs):
        x, t = inputs
        return x[numpy.arange(len(t)), t],


def test_docstring_example():
    x = numpy.array([[0, 1, 2], [3, 4, 5]], numpy.float32)
    y = F.select_item(x, numpy.array([0, 2], numpy.int32))
    assert y.shape == (2,)
    numpy.testing.assert_array_equal(y.array, numpy.array([0, 5], numpy.float32))


def test_out_of_range_label_in_debug_mode():
    x = numpy.zeros((2, 3), numpy.float32)
    with chainer.using_config('debug', True), pytest.raises(ValueError):
        F.select_item(x, numpy.array([0, 3], numpy.int32))


@pytest.mark.parametrize('x, t', [
    (numpy.zeros((2, 3), 'f'), numpy.zeros((2,), 'f')),          # float labels
    (numpy.zeros((2, 3, 1), 'f'), numpy.zeros((2,), 'i')),       # x not 2-D
    (numpy.zeros((2, 3), 'f'), numpy.zeros((2, 1), 'i')),        # t not 1-D
    (numpy.zeros((2, 3), 'f'), numpy.zeros((3,), 'i')),          # length mismatch
])
def test_invalid_inputs(x, t):
    with pytest.raises(type_check.InvalidType, match='SelectItem'):
        F.select_item(x, t)
