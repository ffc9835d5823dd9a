import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*(
    testing.product({
        'case': [
            ((5, 3, 2), (3, 2, 4), 2),
            ((2, 3), (3, 4), 1),
            ((2, 3), (4,), 0),
            ((3, 4, 2), (2, 3, 5), ([0, 2], [1, 0])),
            ((4, 2, 3), (3, 4), ((0, 2), (1, 0))),
            ((2, 3, 4), (4, 3, 2), ([2, 1, 0], [0, 1, 2])),
            ((3,), (3,), ([-1], [0])),
            ((3, 4), (4, 2), (1, 0)),
        ],
        'dtype': [numpy.float32],
    })
    + testing.product({
        'case': [((2, 3), (3, 4), 1), ((0, 3), (3, 2), 1)],
        'dtype': [numpy.float16, numpy.float64],
    })
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestTensorDot(testing.FunctionTestCase):

    # float16: dot products of several float16 terms
    tolerances = {numpy.float16: (5e-3, (1e-2, 5e-2), (5e-2, 1e-1))}

    def generate_inputs(self):
        sa, sb, _ = self.case
        return (numpy.random.uniform(-1, 1, sa).astype(self.dtype),
                numpy.random.uniform(-1, 1, sb).astype(self.dtype))

    def forward(self, inputs, device):
        return F.tensordot(*inputs, axes=self.case[2]),

    def forward_expected(self, inputs):
        a, b = (x.astype(numpy.float64) for x in inputs)
        return numpy.asarray(numpy.tensordot(a, b, self.case[2]), self.dtype),


def test_shape_mismatch():
    # ValueError for paired axes of different sizes, as in Chainer.
    with pytest.raises(ValueError, match=r'tensordot: paired axes .* a.shape\[1\] = 3'):
        F.tensordot(numpy.ones((2, 3), numpy.float32), numpy.ones((4, 2), numpy.float32), 1)
    with pytest.raises(type_check.InvalidType, match='TensorDot'):
        F.tensordot(numpy.ones((2, 3), numpy.int32), numpy.ones((3, 2), numpy.float32), 1)


@pytest.mark.parametrize('axes', [3, -1, ([0], [0, 1]), ([5], [0]), ([0, 0], [0, 1]), 'x',
                                  (), ((0,), (0,), (0,))])
def test_bad_axes(axes):
    with pytest.raises(ValueError, match='tensordot: '):
        F.tensordot(numpy.ones((2, 3), numpy.float32), numpy.ones((2, 3), numpy.float32), axes)


@pytest.mark.parametrize('axes', [1.0, None, ([0.5], [0])])
def test_axes_of_the_wrong_type(axes):
    with pytest.raises(TypeError, match='tensordot: '):
        F.tensordot(numpy.ones((2, 3), numpy.float32), numpy.ones((2, 3), numpy.float32), axes)
