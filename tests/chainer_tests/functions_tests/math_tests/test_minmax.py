import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


# name -> (function, NumPy reference)
_FUNCS = {
    'max': (F.max, numpy.amax),
    'min': (F.min, numpy.amin),
    'argmax': (F.argmax, numpy.argmax),
    'argmin': (F.argmin, numpy.argmin),
}


def _distinct(shape, dtype):
    # A shuffled grid with step 0.1: no ties, and far from each other compared
    # to the numerical-gradient step.
    size = int(numpy.prod(shape))
    x = (numpy.random.permutation(size) - size / 2) * 0.1
    return x.reshape(shape).astype(dtype)


@testing.parameterize(*(
    testing.product({
        'function': ['max', 'min'],
        'shape': [(3, 4)],
        'axis': [None, 1, (0, 1), -2],
        'keepdims': [False, True],
        'dtype': [numpy.float32],
    })
    + testing.product({
        'function': ['max', 'min'],
        'shape': [(2, 3, 2), ()],
        'axis': [None],
        'keepdims': [False],
        'dtype': [numpy.float16, numpy.float64],
    })
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestMinMax(testing.FunctionTestCase):

    def generate_inputs(self):
        return _distinct(self.shape, self.dtype),

    def forward(self, inputs, device):
        f = _FUNCS[self.function][0]
        return f(inputs[0], axis=self.axis, keepdims=self.keepdims),

    def forward_expected(self, inputs):
        f = _FUNCS[self.function][1]
        return numpy.asarray(f(inputs[0], axis=self.axis, keepdims=self.keepdims)),


@testing.parameterize(*testing.product({
    'function': ['argmax', 'argmin'],
    'shape': [(3, 4), (2, 3, 2)],
    'axis': [None, 0, -1],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestArgMinMax(testing.FunctionTestCase):

    skip_backward_test = True
    skip_double_backward_test = True

    def generate_inputs(self):
        return _distinct(self.shape, self.dtype),

    def forward(self, inputs, device):
        return _FUNCS[self.function][0](inputs[0], axis=self.axis),

    def forward_expected(self, inputs):
        y = _FUNCS[self.function][1](inputs[0], axis=self.axis)
        return numpy.asarray(y, numpy.int32),


@pytest.mark.parametrize('function', ['max', 'min'])
def test_ties_all_receive_the_gradient(function):
    x = chainer.Variable(numpy.array([[1., 3., 3.], [2., 0., 2.]], numpy.float32))
    y = _FUNCS[function][0](x, axis=1)
    y.grad = numpy.array([1., 2.], numpy.float32)
    y.backward()
    expected = {'max': [[0, 1, 1], [2, 0, 2]], 'min': [[1, 0, 0], [0, 2, 0]]}[function]
    numpy.testing.assert_array_equal(x.grad, expected)


@pytest.mark.parametrize('function', ['argmax', 'argmin'])
def test_arg_has_no_gradient(function):
    x = chainer.Variable(numpy.array([1., 3., 2.], numpy.float32))
    y = _FUNCS[function][0](x)
    assert y.dtype == numpy.int32
    assert y.shape == ()
    assert y.creator is not None
    gx, = chainer.grad([F.sum(x * 2)], [x])  # the graph through x still works
    numpy.testing.assert_array_equal(gx.array, [2, 2, 2])


@pytest.mark.parametrize('function,label', [
    ('max', 'Max'), ('min', 'Min'), ('argmax', 'ArgMax'), ('argmin', 'ArgMin')])
def test_invalid(function, label):
    f = _FUNCS[function][0]
    with pytest.raises(type_check.InvalidType, match=label):
        f(numpy.zeros((2, 3), numpy.int32))
    with pytest.raises(type_check.InvalidType, match=label):
        f(numpy.zeros((2, 3), numpy.float32), axis=2)
    with pytest.raises(type_check.InvalidType, match=label):
        f(numpy.zeros((2, 3), numpy.float32), axis=-3)
    with pytest.raises(TypeError):
        f(numpy.zeros((2, 3), numpy.float32), axis='0')


def test_arg_rejects_tuple_axis():
    with pytest.raises(TypeError):
        F.argmax(numpy.zeros((2, 3), numpy.float32), axis=(0, 1))
    with pytest.raises(ValueError, match='max: axis must not repeat an axis'):
        F.max(numpy.zeros((2, 3), numpy.float32), axis=(0, 0))
