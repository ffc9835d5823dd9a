import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check
from chainer_tests.functions_tests.pooling_tests import _reference


@testing.parameterize(*testing.product_dict(
    testing.product_dict(
        [
            {'shape': (2, 3, 2, 1), 'ksize': 2, 'stride': None, 'pad': 0},
            {'shape': (1, 2, 3, 3), 'ksize': (2, 3), 'stride': (2, 1), 'pad': (1, 0)},
        ],
        [{'outsize': None, 'cover_all': True}, {'outsize': None, 'cover_all': False}],
    ) + [
        # A given size must be one the matching pooling maps back onto the input.
        {'shape': (2, 1, 4, 5), 'ksize': 2, 'stride': 2, 'pad': 2, 'outsize': (4, 6),
         'cover_all': False},
        {'shape': (1, 1, 2, 1), 'ksize': 2, 'stride': 2, 'pad': 0, 'outsize': (5, 2),
         'cover_all': False},
        {'shape': (1, 1, 2, 1), 'ksize': 2, 'stride': 2, 'pad': 0, 'outsize': (3, 1),
         'cover_all': True},
    ],
    testing.product({'dtype': [numpy.float16, numpy.float32, numpy.float64]}),
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestUnpooling2D(testing.FunctionTestCase):

    # float16: the double backward sums overlapping windows in float16
    tolerances = {numpy.float16: (None, None, 3e-2)}

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.unpooling_2d(inputs[0], self.ksize, self.stride, self.pad, self.outsize,
                              self.cover_all),

    def forward_expected(self, inputs):
        x, = inputs

        def pair(v):
            return v if isinstance(v, tuple) else (v, v)
        k = pair(self.ksize)
        s = k if self.stride is None else pair(self.stride)
        p = pair(self.pad)
        outs = self.outsize or [_reference.deconv_outsize(d, *a, self.cover_all)
                                for d, a in zip(x.shape[2:], zip(k, s, p))]
        return _reference.unpool(x, k, s, p, outs),


def test_attributes_and_double_backward_class():
    from chainer.functions.pooling.unpooling_2d import Unpooling2D
    f = Unpooling2D(2, outsize=(4, 6))
    assert (f.kh, f.sy, f.outh, f.outw) == (2, 2, 4, 6)
    x = chainer.Variable(numpy.random.rand(1, 1, 2, 3))
    gx, = chainer.grad([F.sum(F.unpooling_2d(x, 2) ** 2)], [x], enable_double_backprop=True)
    assert type(gx.creator_node).__name__ == 'Unpooling2DGrad'


def test_invalid():
    with pytest.raises(type_check.InvalidType, match='Unpooling2D'):
        F.unpooling_2d(numpy.zeros((1, 2, 2), numpy.float32), 2)
    with pytest.raises(type_check.InvalidType, match='Unpooling2D'):
        F.unpooling_2d(numpy.zeros((1, 1, 2, 2), numpy.float32), 2, outsize=(7, 4))
