import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer_tests.functions_tests.math_tests import _rounding


@testing.parameterize(*_rounding.PARAMS)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSign(_rounding.RoundingTestBase):
    function = staticmethod(F.sign)
    reference = staticmethod(numpy.sign)


test_not_in_graph, test_integer_input, _ = _rounding.module_checks(F.sign, numpy.sign, 'sign')


def test_array_like_input():
    # As in Chainer 7.8.1: sign takes what NumPy turns into an array, with numpy.sign's dtype,
    # and NumPy scalars (as the other rounding functions do).
    y = F.sign([[1.5, -2.0], [0.0, 3.0]])
    assert y.dtype == numpy.float64 and not y.requires_grad
    numpy.testing.assert_array_equal(y.array, [[1, -1], [0, 1]])
    assert F.sign(numpy.float32(-2.5)).dtype == numpy.float32
    assert F.floor(numpy.float32(2.5)).array == 2
    with pytest.raises(TypeError, match='sign'):
        F.sign(None)
