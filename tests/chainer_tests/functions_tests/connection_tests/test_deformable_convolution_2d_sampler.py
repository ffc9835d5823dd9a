import math

import numpy
import pytest

import chainer.functions as F
from chainer import testing


def _bilinear(img, y, x):
    # img: (c, h, w); zero outside the image.
    h, w = img.shape[1:]
    y0, x0 = math.floor(y), math.floor(x)
    out = numpy.zeros(img.shape[0])
    for yy, wy in ((y0, y0 + 1 - y), (y0 + 1, y - y0)):
        for xx, wx in ((x0, x0 + 1 - x), (x0 + 1, x - x0)):
            if 0 <= yy < h and 0 <= xx < w:
                out += wy * wx * img[:, yy, xx]
    return out


def _reference(x, offset, W, b, stride, pad):
    sy, sx = stride
    ph, pw = pad
    out_c, c, kh, kw = W.shape
    n, _, out_h, out_w = offset.shape
    y = numpy.zeros((n, out_c, out_h, out_w))
    x = x.astype(numpy.float64)
    for b_ in range(n):
        for i in range(out_h):
            for j in range(out_w):
                for p in range(kh):
                    for q in range(kw):
                        k = p * kw + q
                        dy = float(offset[b_, kh * kw + k, i, j])
                        dx = float(offset[b_, k, i, j])
                        v = _bilinear(x[b_], i * sy - ph + p + dy, j * sx - pw + q + dx)
                        y[b_, :, i, j] += W[:, :, p, q].astype(numpy.float64) @ v
    if b is not None:
        y += b.reshape(1, -1, 1, 1)
    return y


@testing.parameterize(*testing.product_dict(
    [
        {'x_shape': (2, 3, 4, 5), 'ksize': (2, 3), 'stride': (1, 1), 'pad': (0, 0)},
        {'x_shape': (1, 2, 5, 4), 'ksize': (3, 3), 'stride': (2, 1), 'pad': (1, 1)},
        {'x_shape': (1, 1, 3, 6), 'ksize': (1, 2), 'stride': (1, 2), 'pad': (1, 0)},
    ],
    [{'dtype': numpy.float16}, {'dtype': numpy.float32}, {'dtype': numpy.float64}],
    [{'nobias': False}, {'nobias': True}],
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestDeformableConvolution2DSampler(testing.FunctionTestCase):

    check_backward_options = {'atol': 1e-4, 'rtol': 1e-3}
    check_double_backward_options = {'atol': 1e-3, 'rtol': 1e-2}
    # float16: bilinear sampling weights and sums of products, each rounded to float16
    tolerances = {numpy.float16: (2e-2, 5e-2, 1e-1)}

    def generate_inputs(self):
        n, c, h, w = self.x_shape
        kh, kw = self.ksize
        out_h = (h + 2 * self.pad[0] - kh) // self.stride[0] + 1
        out_w = (w + 2 * self.pad[1] - kw) // self.stride[1] + 1
        x = numpy.random.uniform(-1, 1, self.x_shape).astype(self.dtype)
        # Offsets kept off integers, where bilinear sampling has kinks; some leave the image.
        offset = (numpy.random.randint(-2, 3, (n, 2 * kh * kw, out_h, out_w))
                  + numpy.random.uniform(0.2, 0.8, (n, 2 * kh * kw, out_h, out_w)))
        W = numpy.random.uniform(-1, 1, (2, c, kh, kw)).astype(self.dtype)
        inputs = (x, offset.astype(self.dtype), W)
        if not self.nobias:
            inputs += (numpy.random.uniform(-1, 1, 2).astype(self.dtype),)
        return inputs

    def forward(self, inputs, device):
        return F.deformable_convolution_2d_sampler(
            *inputs, stride=self.stride, pad=self.pad),

    def forward_expected(self, inputs):
        x, offset, W = inputs[:3]
        b = None if self.nobias else inputs[3]
        return _reference(x, offset, W, b, self.stride, self.pad).astype(self.dtype),


def test_zero_offsets_give_a_plain_convolution():
    x = numpy.random.rand(2, 3, 5, 6)
    W = numpy.random.rand(4, 3, 3, 2)
    offset = numpy.zeros((2, 12, 3, 5))
    y = F.deformable_convolution_2d_sampler(x, offset, W, stride=(1, 1)).array
    cols = F.im2col(x, (3, 2)).array.reshape(2, 18, 3, 5)
    expected = numpy.einsum('ok,nkij->noij', W.reshape(4, 18), cols)
    numpy.testing.assert_allclose(y, expected, rtol=1e-12)


@pytest.mark.parametrize('shapes, match', [
    (((2, 3, 5, 6), (2, 10, 4, 4), (4, 3, 2, 3), None), 'offset does not match the kernel'),
    (((2, 3, 5, 6), (2, 12, 4, 4), (4, 2, 2, 3), None), '3 channels in x and 2 in W'),
    (((2, 3, 5, 6), (1, 12, 4, 4), (4, 3, 2, 3), None), 'got 1 for a batch of 2'),
    (((2, 3, 5, 6), (2, 12, 4, 4), (4, 3, 2, 3), (5,)), r'b.shape == \(4,\), got \(5,\)'),
    (((3, 5, 6), (2, 12, 4, 4), (4, 3, 2, 3), None), 'requires 4-D x, offset and W'),
])
def test_invalid_shapes(shapes, match):
    args = [None if s is None else numpy.zeros(s, numpy.float32) for s in shapes]
    with pytest.raises(ValueError, match=match):
        F.deformable_convolution_2d_sampler(*args)
