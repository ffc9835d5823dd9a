import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check
from chainer_tests.functions_tests.pooling_tests import _reference


@testing.parameterize(*testing.product_dict(
    [
        {'shape': (2, 3, 5), 'ksize': 3, 'stride': 3, 'pad': 1, 'outsize': None},
        {'shape': (1, 2, 3, 2), 'ksize': 2, 'stride': 1, 'pad': 0, 'outsize': None},
        {'shape': (2, 1, 3, 2), 'ksize': 3, 'stride': 2, 'pad': 1, 'outsize': None},
        {'shape': (1, 2, 2, 3, 2), 'ksize': 2, 'stride': None, 'pad': 0, 'outsize': None},
        {'shape': (1, 2, 2, 2), 'ksize': 2, 'stride': 2, 'pad': 0, 'outsize': (5, 4)},
    ],
    testing.product({
        'cover_all': [True, False],
        'dtype': [numpy.float16, numpy.float32, numpy.float64],
    }),
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestUnpoolingND(testing.FunctionTestCase):

    # float16: the double backward sums overlapping windows in float16
    tolerances = {numpy.float16: (None, None, 3e-2)}

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        nd = len(self.shape) - 2
        f = {1: F.unpooling_1d, 3: F.unpooling_3d}.get(nd, F.unpooling_nd)
        outsize = self.outsize
        if outsize is not None and self.cover_all:
            outsize = tuple(o - 1 for o in outsize)     # the sizes cover_all maps back
        return f(inputs[0], self.ksize, self.stride, self.pad, outsize, self.cover_all),

    def forward_expected(self, inputs):
        x, = inputs
        nd = x.ndim - 2
        k = (self.ksize,) * nd
        s = k if self.stride is None else (self.stride,) * nd
        p = (self.pad,) * nd
        outs = self.outsize
        if outs is None:
            outs = [_reference.deconv_outsize(d, *a, self.cover_all)
                    for d, a in zip(x.shape[2:], zip(k, s, p))]
        elif self.cover_all:
            outs = tuple(o - 1 for o in outs)
        return _reference.unpool(x, k, s, p, outs),


def test_outsize_must_map_back_to_the_input():
    x = numpy.zeros((1, 1, 3, 3), numpy.float32)
    with pytest.raises(type_check.InvalidType, match='UnpoolingND'):
        F.unpooling_nd(x, 2, outsize=(8, 6))


@pytest.mark.parametrize('f, shape', [(F.unpooling_1d, (2, 3, 4, 4)),
                                      (F.unpooling_3d, (2, 3, 4, 4))])
def test_wrong_spatial_ndim(f, shape):
    with pytest.raises(ValueError, match=f.__name__):
        f(numpy.zeros(shape, numpy.float32), 2)
