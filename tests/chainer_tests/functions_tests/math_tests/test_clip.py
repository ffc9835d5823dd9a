import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape': [(3, 4), (), (0, 2)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'bounds': [(-0.5, 0.5), (None, 0.25), (-0.25, None)],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestClip(testing.FunctionTestCase):

    dodge_nondifferentiable = True     # the gradient jumps at the bounds

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.shape)
        return x.astype(self.dtype),

    def forward(self, inputs, device):
        return F.clip(inputs[0], *self.bounds),

    def forward_expected(self, inputs):
        return numpy.asarray(numpy.clip(inputs[0], *self.bounds), self.dtype),


def test_gradient_at_bounds_is_one():
    x = chainer.Variable(numpy.array([-1., -0.5, 0., 0.5, 1.], numpy.float32))
    F.sum(F.clip(x, -0.5, 0.5)).backward()
    numpy.testing.assert_array_equal(x.grad, [0, 1, 1, 1, 0])


def test_invalid_arguments():
    with pytest.raises(ValueError):
        F.clip(numpy.zeros(3, numpy.float32), None, None)
    with pytest.raises(ValueError):
        F.clip(numpy.zeros(3, numpy.float32), 1.0, -1.0)
    with pytest.raises(type_check.InvalidType, match=r'Clip \(Forward\)'):
        F.clip(numpy.zeros(3, numpy.int32), -1, 1)


def test_equal_bounds_are_refused():
    # Chainer 7 refuses an empty interval, x_min == x_max included.
    with pytest.raises(ValueError):
        F.clip(numpy.zeros(3, numpy.float32), 0.5, 0.5)


def test_node_label_is_class_name():
    y = F.clip(numpy.zeros(3, numpy.float32), -1.0, 1.0)
    assert y.creator.label == 'Clip'
