import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shapes': [((4, 3), (4, 2), 5), ((1, 3, 1), (1, 2, 2), 1), ((3, 1), (3, 4), 2)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'linear': [True, False],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestBilinear(testing.FunctionTestCase):

    # float16: sums of products of three float16 factors
    tolerances = {numpy.float16: (1e-2, 2e-2, 5e-2)}

    def setUp(self):
        self.check_backward_options = {'atol': 1e-3, 'rtol': 1e-3}
        self.check_double_backward_options = {'atol': 1e-3, 'rtol': 1e-2}

    def generate_inputs(self):
        s1, s2, out = self.shapes
        j, k = int(numpy.prod(s1[1:])), int(numpy.prod(s2[1:]))
        shapes = [s1, s2, (j, k, out)] + ([(j, out), (k, out), (out,)] if self.linear else [])
        return tuple(numpy.random.uniform(-1, 1, s).astype(self.dtype) for s in shapes)

    def forward(self, inputs, device):
        return F.bilinear(*inputs),

    def forward_expected(self, inputs):
        e1, e2, W = (a.astype(numpy.float64) for a in inputs[:3])
        n = e1.shape[0]
        e1, e2 = e1.reshape(n, -1), e2.reshape(n, -1)
        y = numpy.zeros((n, W.shape[2]))
        for i in range(n):          # the sum written out, term by term
            for j in range(W.shape[0]):
                for k in range(W.shape[1]):
                    y[i] += e1[i, j] * e2[i, k] * W[j, k]
        if self.linear:
            V1, V2, b = (a.astype(numpy.float64) for a in inputs[3:])
            y += e1 @ V1 + e2 @ V2 + b
        return y.astype(self.dtype),


_E1, _E2 = numpy.ones((4, 3), numpy.float32), numpy.ones((4, 2), numpy.float32)
_W = numpy.ones((3, 2, 5), numpy.float32)


def test_linear_terms_come_together():
    with pytest.raises(ValueError, match='bilinear: .*V2, b'):
        F.bilinear(_E1, _E2, _W, numpy.ones((3, 5), numpy.float32))


@pytest.mark.parametrize('args', [
    (_E1, _E2, _W[:2]),
    (_E1, _E2[:2], _W),
    (_E1.astype(numpy.float64), _E2, _W),
    (_E1.astype(numpy.int32), _E2, _W),
    (_E1, _E2, _W, numpy.ones((2, 5), numpy.float32), numpy.ones((2, 5), numpy.float32),
     numpy.ones(5, numpy.float32)),
    (_E1, _E2, _W, numpy.ones((3, 5), numpy.float32), numpy.ones((2, 5), numpy.float32),
     numpy.ones(2, numpy.float32)),
])
def test_invalid_inputs(args):
    with pytest.raises(type_check.InvalidType, match='BilinearFunction'):
        F.bilinear(*args)
