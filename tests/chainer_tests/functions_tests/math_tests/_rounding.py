"""Shared cases for the elementwise functions that are cut from the graph (ceil, fix, floor,
sign): each test module subclasses the harness class below and binds its own function."""
import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing

PARAMS = testing.product({
    'shape': [(3, 2), (), (0, 3)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
})


class RoundingTestBase(testing.FunctionTestCase):
    """Forward against NumPy; subclasses set ``function`` and ``reference``."""

    __test__ = False
    # The result is cut from the graph: there is nothing to differentiate.
    skip_backward_test = True
    skip_double_backward_test = True

    def generate_inputs(self):
        x = numpy.random.uniform(-10, 10, self.shape).astype(self.dtype)
        if x.size:
            x.flat[0] = 0
        return x,

    def forward(self, inputs, device):
        return self.function(*inputs),

    def forward_expected(self, inputs):
        return numpy.asarray(self.reference(inputs[0]), self.dtype),


def module_checks(function, reference, name):
    """Returns the module-level checks (not in graph, integer input, bad input type)."""

    def test_not_in_graph():
        x = chainer.Variable(numpy.array([-1.5, 0.5, 2.], numpy.float32))
        y = function(x)
        assert y.creator is None
        assert not y.requires_grad
        assert y.dtype == numpy.float32
        # The result can still be used further without breaking backprop through x.
        F.sum(y * x).backward()
        numpy.testing.assert_array_equal(x.grad, y.array)

    def test_integer_input():
        x = numpy.array([-2, 0, 3], numpy.int32)
        y = function(x)
        assert y.dtype == numpy.int32
        numpy.testing.assert_array_equal(y.array, reference(x).astype(numpy.int32))

    def test_invalid_type():
        with pytest.raises(TypeError, match=name):
            function([1.0, 2.0])

    return test_not_in_graph, test_integer_input, test_invalid_type
