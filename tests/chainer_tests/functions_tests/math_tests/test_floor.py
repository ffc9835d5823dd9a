import numpy

import chainer.functions as F
from chainer import testing
from chainer_tests.functions_tests.math_tests import _rounding


@testing.parameterize(*_rounding.PARAMS)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestFloor(_rounding.RoundingTestBase):
    function = staticmethod(F.floor)
    reference = staticmethod(numpy.floor)


test_not_in_graph, test_integer_input, test_invalid_type = _rounding.module_checks(
    F.floor, numpy.floor, 'floor')
