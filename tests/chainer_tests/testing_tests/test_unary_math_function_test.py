import unittest

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.functions.math import exponential
from chainer.testing import function_link


@testing.unary_math_function_unittest(F.exp)
class TestExp(unittest.TestCase):
    pass


def _positive_data(shape, dtype):
    x = numpy.random.uniform(0.5, 2, shape).astype(dtype)
    gy = numpy.random.uniform(-1, 1, shape).astype(dtype)
    return x, gy        # two arrays: ggx is drawn by the decorator


@testing.unary_math_function_unittest(F.log, make_data=_positive_data,
                                      forward_options={'atol': 1e-3, 'rtol': 1e-3})
class TestLogWithOptions(unittest.TestCase):

    def test_extra_method_is_kept(self):
        assert self.check_forward_options == {'atol': 1e-3, 'rtol': 1e-3}


@testing.unary_math_function_unittest(exponential.Exp(), label_expected='exp')
class TestExpNode(unittest.TestCase):
    pass


def _twice(x):
    return 2 * x


@testing.unary_math_function_unittest(_twice, func_expected=lambda x: 2 * x, is_linear=True)
class TestLinear(unittest.TestCase):
    pass


def test_generated_classes():
    names = sorted(k for k in globals() if k.startswith('TestExp_param_'))
    assert len(names) == 6          # 2 shapes x 3 dtypes
    cls = globals()[names[0]]
    assert issubclass(cls, function_link.FunctionTestCase)
    assert cls.__test__ and not TestExp.__test__
    methods = {m for m in dir(cls) if m.startswith('test_')}
    # Chainer's method names: one per check and device, no backend argument.
    assert {'test_forward_cpu', 'test_backward_cpu', 'test_double_backward_cpu',
            'test_forward_gpu', 'test_backward_gpu', 'test_double_backward_gpu'} <= methods
    assert cls.test_forward is None     # the harness's own method is not run as well
    assert [m.name for m in cls.test_forward_gpu.pytestmark][0] == 'gpu'
    assert 'test_label' not in methods      # plain functions have no label to check
    assert 'test_label' in dir(globals()['TestExpNode_param_0_{dtype=float16, shape=(3, 2)}'])
    params = {(c.shape, numpy.dtype(c.dtype).name) for k, c in globals().items()
              if k.startswith('TestExp_param_')}
    assert params == {(s, d) for s in [(3, 2), ()] for d in ['float16', 'float32', 'float64']}


def _take_generated(prefix):
    # Classes decorated inside a test are registered in this module by parameterize; take
    # them out again (collection is over, so they would not run anyway).
    names = [k for k in globals() if k.startswith(prefix + '_param_')]
    return {k[len(prefix) + 1:]: globals().pop(k) for k in names}


def test_wrong_function_fails():
    @testing.unary_math_function_unittest(F.exp, func_expected=numpy.expm1)
    class TestWrong(unittest.TestCase):
        pass

    cls = _take_generated('TestWrong')['param_2_{dtype=float32, shape=(3, 2)}']
    with pytest.raises(function_link.FunctionTestError, match='differs'):
        cls('test_forward_cpu').test_forward_cpu()


def test_bad_arguments():
    def no_such_numpy_function(x):
        return x

    with pytest.raises(ValueError, match='func_expected'):
        testing.unary_math_function_unittest(no_such_numpy_function)


def test_label_check_of_a_function_node():
    @testing.unary_math_function_unittest(exponential.Exp(), label_expected='not-exp')
    class TestBadLabel(unittest.TestCase):
        pass

    cls = _take_generated('TestBadLabel')['param_0_{dtype=float16, shape=(3, 2)}']
    with pytest.raises(AssertionError):
        cls('test_label').test_label()
