import copy
import pickle

import numpy as np
import pytest

import chainer
import chainer.functions as F
from chainer import testing


def _var(shape=(2, 3), dtype=np.float32, **kw):
    return chainer.Variable(np.arange(np.prod(shape), dtype=dtype).reshape(shape), **kw)


class TestBasics:

    def test_properties(self):
        x = _var(name='x')
        assert x.array is x.data
        assert x.shape == (2, 3) and x.ndim == 2 and x.size == 6 and len(x) == 2
        assert x.dtype == np.float32 and x.name == 'x' and x.node.name == 'x'
        assert x.requires_grad and x.creator is None and x.creator_node is None
        assert x.rank == 0 and x.grad is None and x.grad_var is None
        assert x.xp is np and x.device == chainer.get_device('@numpy')
        assert x.label == '(2, 3), float32'
        assert x.T.shape == (3, 2)
        assert x.reshape(3, 2).shape == (3, 2) and x.reshape((6,)).shape == (6,)
        assert x.transpose().shape == (3, 2) and x.transpose(1, 0).shape == (3, 2)
        assert x[0, 1:].shape == (2,)
        assert _var(()).item() == 0.0

    def test_uninitialized(self):
        v = chainer.Variable()
        assert v.array is None and v.xp is np
        assert repr(v) == 'variable(None)'

    def test_rejects_non_arrays(self):
        with pytest.raises(TypeError):
            chainer.Variable([1, 2])
        with pytest.raises(TypeError):
            chainer.Variable(_var())
        with pytest.raises(ValueError):
            chainer.Variable(np.zeros(1), volatile=True)
        x = _var()
        with pytest.raises(TypeError):
            x.array = [1, 2]

    def test_array_setter_updates_node(self):
        x = _var()
        x.array = np.zeros((4,), np.float64)
        assert x.node.shape == (4,) and x.node.dtype == np.float64

    def test_grad_setter_checks(self):
        x = _var()
        x.grad = np.ones((2, 3), np.float32)
        assert isinstance(x.grad_var, chainer.Variable)
        with pytest.raises(ValueError, match='Shape of data and grad mismatch'):
            x.grad = np.ones((3, 2), np.float32)
        with pytest.raises(TypeError, match='Dtype of data and grad mismatch'):
            x.grad = np.ones((2, 3), np.float64)
        x.grad_var = chainer.Variable(np.zeros((2, 3), np.float32))
        assert (x.grad == 0).all()
        x.cleargrad()
        assert x.grad is None
        with pytest.warns(DeprecationWarning, match='cleargrad'):
            x.zerograd()
        assert (x.grad == 0).all()

    def test_comparisons_raise_and_unhashable(self):
        x = _var()
        for op in (lambda: x == x, lambda: x != x, lambda: x < x, lambda: x <= x,
                   lambda: x > x, lambda: x >= x, lambda: bool(x)):
            with pytest.raises(TypeError):
                op()
            with pytest.raises(NotImplementedError):
                op()
        with pytest.raises(TypeError):
            hash(x)

    def test_repr_str(self):
        x = chainer.Variable(np.array([[1., 2.], [3., 4.]], np.float32))
        assert repr(x) == 'variable([[1., 2.],\n          [3., 4.]])'
        assert str(x) == 'variable([[1. 2.]\n          [3. 4.]])'
        x.name = 'w'
        assert repr(x).startswith('variable w([[1., 2.],')
        assert repr(chainer.Variable(np.zeros((0, 3), np.float32))) == \
            'variable([], shape=(0, 3))'
        assert x.summary() == '<variable w>'
        assert chainer.Variable(np.zeros(1)).summary().startswith('<variable at 0x')

    def test_debug_print(self):
        x = _var(name='x')
        text = x.debug_print()
        # Chainer prints 'CPU' as the device of NumPy data.
        assert text.startswith('<variable x>\n- device: CPU\n- backend: <class')
        assert '- shape: (2, 3)' in text and '- dtype: float32' in text
        assert '- statistics: mean=2.50000000, std=1.707825' in text
        assert text.endswith('- grad: None')
        x.grad = np.zeros((2, 3), np.float32)
        assert x.debug_print().endswith('- grad: 0')

    def test_copydata_addgrad(self):
        x, y = _var(), _var()
        y.array[...] = 7
        x.copydata(y)
        assert (x.array == 7).all()
        y.grad = np.full((2, 3), 2, np.float32)
        x.addgrad(y)
        x.addgrad(y)
        assert (x.grad == 4).all()

    def test_pickle_and_copy(self):
        x = _var(name='x')
        x.grad = np.ones((2, 3), np.float32)
        y = pickle.loads(pickle.dumps(x))
        assert y.name == 'x' and (y.array == x.array).all() and (y.grad == 1).all()
        z = copy.copy(x)
        assert z.array is x.array and z.node is not x.node
        w = copy.deepcopy(x)
        assert w.array is not x.array and (w.array == x.array).all()

    def test_to_device(self):
        x = _var()
        x.to_device('@numpy')
        x.to_cpu()
        assert isinstance(x.array, np.ndarray)

    def test_as_variable_as_array(self):
        a = np.zeros(3, np.float32)
        v = chainer.as_variable(a)
        assert v.array is a and not v.requires_grad
        assert chainer.as_variable(v) is v
        assert chainer.as_array(v) is a and chainer.as_array(a) is a
        with pytest.raises(TypeError):
            chainer.as_variable([1, 2])


class TestOperators:

    def test_arithmetic_forward(self):
        a = np.array([1., 2., 3.], np.float32)
        b = np.array([4., 5., 6.], np.float32)
        x, y = chainer.Variable(a), chainer.Variable(b)
        cases = [
            (x + y, a + b), (x - y, a - b), (x * y, a * b), (x / y, a / b), (x ** y, a ** b),
            (x + 2, a + 2), (2 + x, 2 + a), (x - 2, a - 2), (2 - x, 2 - a), (x * 2, a * 2),
            (2 * x, 2 * a), (x / 2, a / 2), (2 / x, 2 / a), (x ** 2, a ** 2), (2 ** x, 2 ** a),
            (-x, -a), (abs(-x), a), (x + b, a + b), (b + x, b + a), (b - x, b - a),
            (b * x, b * a), (b / x, b / a),
        ]
        for v, expected in cases:
            assert isinstance(v, chainer.Variable)
            assert v.dtype == np.float32
            np.testing.assert_allclose(v.array, expected, rtol=1e-6)

    def test_matmul_operator(self):
        a = np.arange(6, dtype=np.float32).reshape(2, 3)
        b = np.arange(12, dtype=np.float32).reshape(3, 4)
        x, y = chainer.Variable(a), chainer.Variable(b)
        np.testing.assert_allclose((x @ y).array, a @ b)
        np.testing.assert_allclose((a @ y).array, a @ b)
        np.testing.assert_allclose((x @ b).array, a @ b)

    def test_scalar_takes_variable_dtype(self):
        x = chainer.Variable(np.ones(3, np.float16))
        for v in (x + 1.5, 1.5 + x, x * np.float64(2), x - 1, x / 3, 3 / x, x ** 2.0,
                  2.0 ** x, x + np.array([1., 2., 3.])):
            assert v.dtype == np.float16, v

    def test_broadcasting_backward(self):
        x = chainer.Variable(np.ones((2, 3), np.float32))
        b = chainer.Variable(np.ones((3,), np.float32))
        y = F.sum(x * b + b)
        y.backward()
        assert b.grad.shape == (3,)
        # x * b contributes sum over rows of x (2); b broadcast to (2, 3) contributes 2
        np.testing.assert_allclose(b.grad, [4, 4, 4])

    def test_dtype_mismatch_is_invalid_type(self):
        x = chainer.Variable(np.ones(3, np.float32))
        y = chainer.Variable(np.ones(3, np.float64))
        with pytest.raises(chainer.utils.type_check.InvalidType):
            x + y

    def test_bad_operand(self):
        x = chainer.Variable(np.ones(3, np.float32))
        with pytest.raises(TypeError):
            x + 'a'
        with pytest.raises(TypeError):
            x + [1, 2, 3]

    @pytest.mark.parametrize('op', ['add', 'sub', 'mul', 'div', 'pow', 'rsub', 'rdiv', 'rpow',
                                    'neg', 'abs', 'matmul'])
    def test_gradients(self, op):
        rng = np.random.RandomState(0)
        a = rng.uniform(0.5, 2, (3, 3))
        b = rng.uniform(0.5, 2, (3, 3))
        f = {
            'add': lambda x, y: x + y, 'sub': lambda x, y: x - y, 'mul': lambda x, y: x * y,
            'div': lambda x, y: x / y, 'pow': lambda x, y: x ** y,
            'rsub': lambda x, y: 3.0 - x, 'rdiv': lambda x, y: 3.0 / x,
            'rpow': lambda x, y: 3.0 ** x, 'neg': lambda x, y: -x, 'abs': lambda x, y: abs(x),
            'matmul': lambda x, y: x @ y,
        }[op]
        x, y = chainer.Variable(a), chainer.Variable(b)
        gx, gy = chainer.grad([F.sum(f(x, y))], [x, y])
        eps = 1e-6
        for v, g in ((a, gx), (b, gy)):
            num = np.zeros_like(v)
            for i in np.ndindex(v.shape):
                old = v[i]
                v[i] = old + eps
                fp = f(a, b).sum()
                v[i] = old - eps
                fm = f(a, b).sum()
                v[i] = old
                num[i] = (fp - fm) / (2 * eps)
            got = np.zeros_like(v) if g is None else g.array
            np.testing.assert_allclose(got, num, rtol=1e-5, atol=1e-6)


class TestParameter:

    def test_shaped(self):
        p = chainer.Parameter(chainer.initializers.Constant(2.0), (2, 3), name='W')
        assert p.shape == (2, 3) and p.dtype == np.float32 and (p.array == 2).all()
        assert np.isnan(p.grad).all() and p.is_initialized and p.name == 'W'

    def test_scalar_and_array_initializers(self):
        assert (chainer.Parameter(3, (2,)).array == 3).all()
        a = np.arange(3, dtype=np.float32)
        assert chainer.Parameter(a).array is a
        assert np.isnan(chainer.Parameter(shape=(2,)).array).all()

    def test_lazy_initialization(self):
        p = chainer.Parameter(chainer.initializers.One())
        assert not p.is_initialized and p.array is None and p.dtype == np.float32
        p.initialize((4,))
        assert p.shape == (4,) and (p.array == 1).all() and np.isnan(p.grad).all()
        q = chainer.Parameter(chainer.initializers.One())
        q.cleargrad()
        q.initialize((2,))
        assert q.grad is None
        r = chainer.Parameter(chainer.initializers.One())
        with pytest.warns(DeprecationWarning):
            r.zerograd()
        r.initialize((2,))
        assert (r.grad == 0).all()

    def test_is_variable_and_pickles(self):
        p = chainer.Parameter(np.ones(2, np.float32))
        y = F.sum(p * 2)
        y.backward()
        np.testing.assert_allclose(p.grad, [2, 2])
        q = pickle.loads(pickle.dumps(p))
        assert isinstance(q, chainer.Parameter) and (q.array == 1).all()


def test_testing_assert_allclose_accepts_variables():
    x = _var()
    testing.assert_allclose(x, x.array)


class TestChainer7Surface:
    """Members of Chainer 7's Variable found missing or different in the audit."""

    def test_mean(self):
        x = _var()
        np.testing.assert_allclose(x.mean().array, 2.5)
        np.testing.assert_allclose(x.mean(axis=1).array, [1., 4.])
        y = x.mean(axis=1, weights=np.array([1., 0., 1.], np.float32), keepdims=True)
        assert y.shape == (2, 1)
        np.testing.assert_allclose(y.array[:, 0], [1., 4.])
        with pytest.raises(TypeError):
            x.mean(0, None)     # weights and keepdims are keyword-only
        x.mean().backward()
        np.testing.assert_allclose(x.grad, np.full((2, 3), 1 / 6))

    def test_raw_array_and_chainerx_array(self):
        x = _var()
        assert x.raw_array is x.array
        a = np.zeros((2, 3), np.float32)
        x.raw_array = a
        assert x.array is a
        assert x.chainerx_array is None

    def test_grad_of_uninitialized_variable_is_not_checked(self):
        v = chainer.Variable()
        v.grad = np.ones(3, np.float32)
        assert v.grad.shape == (3,)

    def test_copydata_initializes_parameters(self):
        src = _var()
        p = chainer.Parameter(chainer.initializers.Zero())
        p.copydata(src)
        assert p.shape == (2, 3) and (p.array == src.array).all()
        q = chainer.Parameter(chainer.initializers.One())
        dst = _var()
        dst.copydata(q)
        assert q.shape == (2, 3) and (dst.array == 1).all()

    def test_addgrad_initializes_parameter(self):
        src = _var()
        src.grad = np.full((2, 3), 3, np.float32)
        p = chainer.Parameter(chainer.initializers.Zero())
        p.cleargrad()
        p.addgrad(src)
        assert p.shape == (2, 3) and (p.grad == 3).all()

    def test_zerograd_warns(self):
        x = _var()
        with pytest.warns(DeprecationWarning, match='Variable.zerograd is deprecated'):
            x.zerograd()
        assert (x.grad == 0).all()


def test_variable_node_rejects_grad_and_unknown_kwargs():
    v = _var()
    with pytest.raises(ValueError, match='grad'):
        chainer.variable.VariableNode(v, 'x', grad=np.zeros((2, 3), np.float32))
    with pytest.raises(TypeError):
        chainer.variable.VariableNode(v, 'x', foo=1)
    assert chainer.variable.VariableNode(v, 'x').name == 'x'
