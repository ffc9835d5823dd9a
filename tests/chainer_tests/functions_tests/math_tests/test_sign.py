import numpy

import chainer.functions as F
from chainer import testing
from chainer_tests.functions_tests.math_tests import _rounding


@testing.parameterize(*_rounding.PARAMS)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSign(_rounding.RoundingTestBase):
    function = staticmethod(F.sign)
    reference = staticmethod(numpy.sign)


test_not_in_graph, test_integer_input, test_invalid_type = _rounding.module_checks(
    F.sign, numpy.sign, 'sign')
