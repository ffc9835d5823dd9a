import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*(
    testing.product({
        'shape': [(3, 4)],
        'axis': [None, 0, -1, (0, 1), (-1, 0)],
        'keepdims': [False, True],
        'dtype': [numpy.float32],
    })
    + testing.product({
        'shape': [(2, 3, 4), (), (0, 3)],
        'axis': [None],
        'keepdims': [False, True],
        'dtype': [numpy.float16, numpy.float32, numpy.float64],
    })
    + testing.product({
        'shape': [(2, 3, 4)],
        'axis': [1, (0, 2)],
        'keepdims': [False],
        'dtype': [numpy.float16, numpy.float64],
    })
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSum(testing.FunctionTestCase):

    # float16: a sum of many float16 terms
    tolerances = {numpy.float16: (1e-2,)}

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.sum(inputs[0], axis=self.axis, keepdims=self.keepdims),

    def forward_expected(self, inputs):
        x, = inputs
        y = x.astype(numpy.float64).sum(axis=self.axis, keepdims=self.keepdims)
        return numpy.asarray(y, self.dtype),


@testing.parameterize(
    {'in_shape': (3, 4), 'shape': (1, 4)},
    {'in_shape': (3, 4), 'shape': (3, 1)},
    {'in_shape': (2, 3, 4), 'shape': (4,)},
    {'in_shape': (2, 3, 4), 'shape': (3, 1)},
    {'in_shape': (2, 3), 'shape': ()},
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSumTo(testing.FunctionTestCase):

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.in_shape).astype(numpy.float32),

    def forward(self, inputs, device):
        return F.sum_to(inputs[0], self.shape),

    def forward_expected(self, inputs):
        x, = inputs
        lead = x.ndim - len(self.shape)
        axes = tuple(range(lead)) + tuple(
            lead + i for i, n in enumerate(self.shape) if n == 1 and x.shape[lead + i] != 1)
        return x.sum(axis=axes, keepdims=True).reshape(self.shape),


def test_sum_to_same_shape_is_identity():
    x = numpy.ones((2, 3), numpy.float32)
    y = F.sum_to(x, (2, 3))
    assert isinstance(y, chainer.Variable)
    assert y.creator is None


def test_float16_keeps_dtype_and_precision():
    x = numpy.full(4096, 0.1, numpy.float16)
    y = F.sum(x)
    assert y.dtype == numpy.float16
    numpy.testing.assert_allclose(float(y.array), 409.6, rtol=1e-3)


@pytest.mark.parametrize('axis', [2, -3, (0, 2)])
def test_axis_out_of_range(axis):
    with pytest.raises(type_check.InvalidType, match='Sum'):
        F.sum(numpy.zeros((2, 3), numpy.float32), axis=axis)


def test_invalid_arguments():
    with pytest.raises(type_check.InvalidType, match='Sum'):
        F.sum(numpy.zeros((2, 3), numpy.int32))
    with pytest.raises(TypeError):
        F.sum(numpy.zeros((2, 3), numpy.float32), axis=[0])
    with pytest.raises(TypeError):
        F.sum(numpy.zeros((2, 3), numpy.float32), axis=1.0)
    with pytest.raises(ValueError, match='sum: axis must not repeat an axis'):
        F.sum(numpy.zeros((2, 3), numpy.float32), axis=(1, 1))
    with pytest.raises(type_check.InvalidType, match='SumTo'):
        F.sum_to(numpy.zeros((2, 3), numpy.float32), (2,))
