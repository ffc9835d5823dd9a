import operator

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

# ---------------------------------------------------------------------------
# Variable (op) Variable, with broadcasting

@testing.parameterize(*testing.product({
    'op': ['add', 'sub', 'mul', 'truediv', 'pow'],
    'shapes': [((3, 2), (3, 2)), ((3, 2), (2,)), ((1, 2), (3, 1)), ((), (2,)), ((0, 2), (2,))],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestBinaryVariableVariable(testing.FunctionTestCase):

    def generate_inputs(self):
        s1, s2 = self.shapes
        # Positive and away from 0: defined for pow and truediv.
        return (numpy.random.uniform(0.5, 2, s1).astype(self.dtype),
                numpy.random.uniform(0.5, 2, s2).astype(self.dtype))

    def forward(self, inputs, device):
        a, b = inputs
        return getattr(operator, self.op)(a, b),

    def forward_expected(self, inputs):
        a, b = inputs
        return numpy.asarray(getattr(operator, self.op)(a, b), self.dtype),


# ---------------------------------------------------------------------------
# Variable (op) constant and constant (op) Variable

@testing.parameterize(*testing.product({
    'op': ['add', 'sub', 'mul', 'truediv', 'pow'],
    'reflected': [False, True],
    'constant': ['int', 'float', 'numpy_scalar', 'array', 'array_broadcast'],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestBinaryVariableConstant(testing.FunctionTestCase):

    shape = (3, 2)

    def setUp(self):
        c = {
            'int': 2,
            'float': 1.5,
            'numpy_scalar': numpy.float64(1.25),
            'array': numpy.random.uniform(0.5, 2, self.shape),
            'array_broadcast': numpy.random.uniform(0.5, 2, (2,)),
        }[self.constant]
        self.value = c

    def generate_inputs(self):
        return numpy.random.uniform(0.5, 2, self.shape).astype(self.dtype),

    def _constant(self, device):
        if isinstance(self.value, numpy.ndarray):
            # A float64 array: the Variable's dtype wins.
            return device.send(self.value)
        return self.value

    def forward(self, inputs, device):
        x, = inputs
        op = getattr(operator, self.op)
        c = self._constant(device)
        y = op(c, x) if self.reflected else op(x, c)
        assert isinstance(y, chainer.Variable)
        return y,

    def forward_expected(self, inputs):
        x, = inputs
        op = getattr(operator, self.op)
        c = self.value
        if isinstance(c, numpy.ndarray):
            c = c.astype(self.dtype)
        else:
            c = self.dtype(c)
        y = op(c, x) if self.reflected else op(x, c)
        return numpy.asarray(y, self.dtype),


# ---------------------------------------------------------------------------
# Unary operators

@testing.parameterize(*testing.product({
    'op': ['neg', 'abs'],
    'shape': [(3, 2), (), (0, 3)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestUnary(testing.FunctionTestCase):

    def generate_inputs(self):
        x = numpy.random.uniform(0.2, 1, self.shape) * numpy.random.choice([-1, 1], self.shape)
        return x.astype(self.dtype),

    def forward(self, inputs, device):
        return getattr(operator, self.op)(inputs[0]),

    def forward_expected(self, inputs):
        return numpy.asarray(getattr(operator, self.op)(inputs[0]), self.dtype),


@testing.parameterize(*testing.product({
    'shape': [(3, 2), ()],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestAbsoluteFunction(testing.FunctionTestCase):

    def generate_inputs(self):
        x = numpy.random.uniform(0.2, 1, self.shape) * numpy.random.choice([-1, 1], self.shape)
        return x.astype(self.dtype),

    def forward(self, inputs, device):
        return F.absolute(inputs[0]),

    def forward_expected(self, inputs):
        return numpy.asarray(numpy.abs(inputs[0]), self.dtype),


# ---------------------------------------------------------------------------
# Matrix product and F.add

@testing.parameterize(*testing.product({
    'shapes': [((3, 4), (4, 2)), ((2, 3, 4), (4, 5))],
    'dtype': [numpy.float32, numpy.float64],
    'rhs_array': [False, True],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestMatMulOperator(testing.FunctionTestCase):

    def generate_inputs(self):
        s1, s2 = self.shapes
        self.b = numpy.random.uniform(-1, 1, s2).astype(self.dtype)
        inputs = (numpy.random.uniform(-1, 1, s1).astype(self.dtype),)
        if not self.rhs_array:
            inputs += (self.b,)
        return inputs

    def forward(self, inputs, device):
        if self.rhs_array:
            return inputs[0] @ device.send(self.b),
        return inputs[0] @ inputs[1],

    def forward_expected(self, inputs):
        return numpy.asarray(inputs[0] @ self.b, self.dtype),


@testing.parameterize(*testing.product({
    'n': [1, 2, 4],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestAddFunction(testing.FunctionTestCase):

    def generate_inputs(self):
        shapes = [(3, 2), (2,), (1, 2), (3, 1)][:self.n]
        return tuple(numpy.random.uniform(-1, 1, s).astype(self.dtype) for s in shapes)

    def forward(self, inputs, device):
        return F.add(*inputs),

    def forward_expected(self, inputs):
        y = inputs[0]
        for x in inputs[1:]:
            y = y + x
        return numpy.asarray(y, self.dtype),


def test_add_function_without_inputs():
    with pytest.raises(ValueError):
        F.add()


# ---------------------------------------------------------------------------
# Floor division: forward only; the result is cut from the graph as F.floor's.

@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('other', [2, 0.75, 'array', 'variable'])
@pytest.mark.parametrize('reflected', [False, True])
def test_floordiv(dtype, other, reflected):
    a = numpy.array([[-3.5, -1.], [0.25, 2.], [5., 7.5]], dtype)
    x = chainer.Variable(a)
    if other == 'array':
        other = numpy.array([1.5, -2.])
        c = other.astype(dtype)
    elif other == 'variable':
        c = numpy.array([1.5, -2.], dtype)
        other = chainer.Variable(c)
    else:
        c = dtype(other)
    if reflected:
        y = other // x
        expected = numpy.floor(c / a)
    else:
        y = x // other
        expected = numpy.floor(a / c)
    assert isinstance(y, chainer.Variable)
    assert y.dtype == dtype
    assert y.creator is None and not y.requires_grad
    numpy.testing.assert_array_equal(y.array, expected.astype(dtype))


def test_floordiv_variables_get_no_gradient():
    x = chainer.Variable(numpy.array([3., 4.], numpy.float32))
    z = F.sum(x // 2 + x)
    z.backward()
    numpy.testing.assert_array_equal(x.grad, [1, 1])


# ---------------------------------------------------------------------------
# dtype of scalar and array operands

_BINARY_OPS = ['add', 'sub', 'mul', 'truediv', 'pow', 'floordiv']


@pytest.mark.parametrize('op', _BINARY_OPS)
@pytest.mark.parametrize('value', [2, 1.5, numpy.float64(1.5), numpy.float32(2), True,
                                   numpy.array(1.5), numpy.array([1.5, 2.0])])
@pytest.mark.parametrize('reflected', [False, True])
def test_float16_keeps_its_dtype(op, value, reflected):
    # Python scalars, NumPy scalars and arrays all take the Variable's dtype
    # (NumPy 2 would promote float16 + float64 scalar to float64).
    x = chainer.Variable(numpy.array([[0.5, 1.0], [1.5, 2.0]], numpy.float16))
    f = getattr(operator, op)
    y = f(value, x) if reflected else f(x, value)
    assert isinstance(y, chainer.Variable)
    assert y.dtype == numpy.float16
    assert y.shape == (2, 2)


@pytest.mark.parametrize('op', ['add', 'sub', 'mul'])
def test_integer_variable_with_float_scalar(op):
    # The scalar is cast to the Variable's integer dtype, as in Chainer.
    x = chainer.Variable(numpy.array([1, 2], numpy.int32))
    y = getattr(operator, op)(x, 2.7)
    assert y.dtype == numpy.int32
    numpy.testing.assert_array_equal(y.array, getattr(operator, op)(x.array, 2))


@pytest.mark.parametrize('op', _BINARY_OPS + ['matmul'])
def test_ndarray_on_the_left_dispatches_to_variable(op):
    a = numpy.array([[0.5, 1.0], [1.5, 2.0]], numpy.float32)
    x = chainer.Variable(numpy.array([[1.0, 2.0], [3.0, 0.5]], numpy.float32))
    y = getattr(operator, op)(a, x)
    assert isinstance(y, chainer.Variable)
    expected = getattr(operator, op)(a, x.array)
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-6)


def test_ndarray_on_the_left_is_differentiable():
    a = numpy.array([1., 2.], numpy.float32)
    x = chainer.Variable(numpy.array([3., 4.], numpy.float32))
    F.sum(a * x + a - x).backward()
    numpy.testing.assert_array_equal(x.grad, a - 1)


@pytest.mark.parametrize('op', ['add', 'mul', 'sub', 'truediv'])
def test_broadcast_gradients(op):
    a = chainer.Variable(numpy.random.uniform(1, 2, (3, 1)).astype(numpy.float64))
    b = chainer.Variable(numpy.random.uniform(1, 2, (4,)).astype(numpy.float64))
    y = getattr(operator, op)(a, b)
    assert y.shape == (3, 4)
    F.sum(y).backward()
    assert a.grad.shape == (3, 1)
    assert b.grad.shape == (4,)


def test_python_2_division_aliases():
    x = chainer.Variable(numpy.array([1., 2.], numpy.float32))
    numpy.testing.assert_array_equal(x.__div__(2).array, [0.5, 1.])
    numpy.testing.assert_array_equal(x.__rdiv__(2).array, [2., 1.])


# ---------------------------------------------------------------------------
# Errors

@pytest.mark.parametrize('op', _BINARY_OPS)
@pytest.mark.parametrize('value', [[1.0, 2.0], 'a', None, object()])
def test_bad_operand_type(op, value):
    x = chainer.Variable(numpy.array([1., 2.], numpy.float32))
    f = getattr(operator, op)
    with pytest.raises(TypeError):
        f(x, value)
    with pytest.raises(TypeError):
        f(value, x)


@pytest.mark.parametrize('op', ['add', 'sub', 'mul', 'truediv', 'pow'])
def test_shape_mismatch(op):
    x = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    y = chainer.Variable(numpy.ones((3, 2), numpy.float32))
    with pytest.raises(type_check.InvalidType, match='Invalid operation'):
        getattr(operator, op)(x, y)


@pytest.mark.parametrize('op', ['add', 'sub', 'mul', 'truediv', 'pow'])
def test_dtype_mismatch_between_variables(op):
    x = chainer.Variable(numpy.ones(2, numpy.float32))
    y = chainer.Variable(numpy.ones(2, numpy.float64))
    with pytest.raises(type_check.InvalidType):
        getattr(operator, op)(x, y)


@pytest.mark.parametrize('op', ['truediv', 'pow'])
def test_integer_variables_for_float_only_ops(op):
    x = chainer.Variable(numpy.ones(2, numpy.int32))
    with pytest.raises(type_check.InvalidType):
        getattr(operator, op)(x, x)


def test_abs_of_integer_variable():
    with pytest.raises(type_check.InvalidType, match=r'\|_\|'):
        abs(chainer.Variable(numpy.ones(2, numpy.int32)))


def test_labels():
    x = chainer.Variable(numpy.ones(2, numpy.float32))
    assert (-x).creator.label == '__neg__'
    assert abs(x).creator.label == '|_|'
    assert (x + x).creator.label == '_ + _'
    assert (x + 2).creator.label == '_ + 2.0'
    assert (x * -1).creator.label == '_ * (-1.0)'
    assert (2 - x).creator.label == '2.0 - _'
    assert (x * numpy.ones(2, numpy.float32)).creator.label == '_ * _'
    assert (x ** x).creator.label == '_ ** _'


def test_matmul_operator_label():
    # Chainer 7's computational graphs show ``x @ w`` as a 'MatMul' node.
    x = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    w = chainer.Variable(numpy.ones((3, 2), numpy.float32))
    assert (x @ w).creator.label == 'MatMul'
    assert (x @ w.array).creator.label == 'MatMul'


@pytest.mark.parametrize('value', [2, 1.5, numpy.float64(0.5)])
def test_add_function_with_scalar(value):
    # F.add of two operands is the ``+`` operator, scalars included.
    x = chainer.Variable(numpy.array([1., 2.], numpy.float16))
    y = F.add(x, value)
    assert y.dtype == numpy.float16
    assert y.creator.label == f'_ + {numpy.float16(value)}'
    numpy.testing.assert_array_equal(y.array, x.array + numpy.float16(value))


def test_module_level_operator_functions():
    from chainer.functions.math import basic_math as bm
    x = chainer.Variable(numpy.array([1., 2.], numpy.float32))
    w = chainer.Variable(numpy.array([[1.], [1.]], numpy.float32))
    cases = [(bm.sub, [-1, 0]), (bm.rsub, [1, 0]), (bm.mul, [2, 4]), (bm.div, [0.5, 1]),
             (bm.rdiv, [2, 1]), (bm.floordiv, [0, 1]), (bm.rfloordiv, [2, 1]),
             (bm.pow, [1, 4]), (bm.rpow, [2, 4]), (bm.add, [3, 4])]
    for f, expected in cases:
        numpy.testing.assert_allclose(f(x, 2).array, expected, err_msg=f.__name__)
    numpy.testing.assert_allclose(bm.matmul(x, w).array, [3])
    numpy.testing.assert_allclose(bm.neg(x).array, [-1, -2])


def test_module_level_operators_accept_array_left_operand():
    from chainer.functions.math import basic_math
    a = numpy.array([1., 2.], numpy.float32)
    for fn, expected in ((basic_math.mul, a * 2), (basic_math.sub, a - 2),
                         (basic_math.div, a / 2), (basic_math.pow, a ** 2)):
        y = fn(a, 2)
        assert y.dtype == numpy.float32
        numpy.testing.assert_allclose(y.array, expected)
