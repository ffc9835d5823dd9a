import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check
from chainer_tests.functions_tests.pooling_tests import _reference


def upsample_reference(x, idx, k, s, p, outs):
    # Explicit scatter, one input element at a time.
    y = numpy.zeros(x.shape[:2] + tuple(outs), x.dtype)
    for i in numpy.ndindex(x.shape):
        n, c, oy, ox = i
        ky, kx = divmod(int(idx[i]), k[1])
        yy, xx = oy * s[0] - p[0] + ky, ox * s[1] - p[1] + kx
        if 0 <= yy < outs[0] and 0 <= xx < outs[1]:
            y[n, c, yy, xx] += x[i]
    return y


@testing.parameterize(*testing.product_dict(
    [
        {'in_shape': (2, 3, 6, 8), 'ksize': 2, 'stride': 2, 'pad': 0, 'cover_all': False},
        {'in_shape': (1, 2, 5, 7), 'ksize': 2, 'stride': 2, 'pad': 0, 'cover_all': True},
        {'in_shape': (1, 2, 5, 4), 'ksize': 3, 'stride': 2, 'pad': 1, 'cover_all': True},
        {'in_shape': (2, 1, 5, 5), 'ksize': (3, 2), 'stride': (2, 1), 'pad': (1, 0),
         'cover_all': False},
    ],
    testing.product({'dtype': [numpy.float16, numpy.float32, numpy.float64]}),
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestUpsampling2D(testing.FunctionTestCase):

    # float16: the double backward sums overlapping windows in float16
    tolerances = {numpy.float16: (None, None, 3e-2)}

    def setUp(self):
        x = _reference.distinct(self.in_shape, self.dtype)
        _, self.indexes = F.max_pooling_2d(x, self.ksize, self.stride, self.pad,
                                           self.cover_all, return_indices=True)
        self.pooled_shape = self.indexes.shape

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.pooled_shape).astype(self.dtype),

    def forward(self, inputs, device):
        idx = device.send(self.indexes)
        return F.upsampling_2d(inputs[0], idx, self.ksize, self.stride, self.pad,
                               self.in_shape[2:], self.cover_all),

    def forward_expected(self, inputs):
        def pair(v):
            return v if isinstance(v, tuple) else (v, v)
        return upsample_reference(inputs[0], self.indexes, pair(self.ksize),
                                  pair(self.stride), pair(self.pad), self.in_shape[2:]),


def test_default_outsize_and_classes():
    x = numpy.random.rand(1, 1, 4, 6).astype(numpy.float32)
    y, idx = F.max_pooling_2d(x, 2, return_indices=True)
    up = F.upsampling_2d(chainer.Variable(y.array), idx, 2, cover_all=False)
    assert up.shape == (1, 1, 4, 6)
    numpy.testing.assert_array_equal(F.max_pooling_2d(up, 2).array, y.array)
    assert type(up.creator_node).__name__ == 'Upsampling2D'


def test_indexes_shape_must_match():
    x = numpy.zeros((1, 1, 2, 3), numpy.float32)
    with pytest.raises(type_check.InvalidType, match='Upsampling2D'):
        F.upsampling_2d(x, numpy.zeros((1, 1, 2, 2), numpy.int64), 2)
