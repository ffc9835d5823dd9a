"""Inception module with batch normalization (Inception v2)."""
from chainer.functions.activation import relu
from chainer.functions.array import concat
from chainer.functions.pooling import average_pooling_2d
from chainer.functions.pooling import max_pooling_nd
from chainer import link
from chainer.links.connection import convolution_2d
from chainer.links.normalization import batch_normalization


class InceptionBN(link.Chain):
    """Inception module with batch normalization after every convolution.

    Paths: an optional 1x1 convolution (``out1 > 0``), 1x1 -> 3x3, 1x1 -> 3x3 -> 3x3,
    and 3x3 pooling with an optional 1x1 projection; concatenated on the channels.
    With ``stride > 1`` the 1x1 path must be absent (``out1 == 0``).

    Args:
        in_channels (int or None): Input channels; ``None`` for lazy initialization.
        out1 (int): Output channels of the 1x1 path (0: no such path).
        proj3 (int): Channels of the projection before the 3x3 convolution.
        out3 (int): Output channels of the 3x3 path.
        proj33 (int): Channels of the projection before the double 3x3 path.
        out33 (int): Output channels of the double 3x3 path.
        pooltype (str): ``'max'`` or ``'avg'``.
        proj_pool (int or None): Output channels of the projection after pooling
            (``None``: the pooled input is passed on as is). Required when ``out1 > 0``.
        stride (int): Stride of the last convolution of each path and of the pooling.
        conv_init: Initializer of the convolution weights.
        dtype: Data type of the batch normalization parameters.
    """

    def __init__(self, in_channels, out1, proj3, out3, proj33, out33, pooltype,
                 proj_pool=None, stride=1, conv_init=None, dtype=None):
        super().__init__()
        if pooltype not in ('max', 'avg'):
            raise NotImplementedError(
                f"InceptionBN: pooltype must be 'max' or 'avg', got {pooltype!r}")
        if out1 > 0 and (stride != 1 or proj_pool is None):
            # AssertionError, as in Chainer.
            raise AssertionError(
                'InceptionBN: a 1x1 path (out1 > 0) needs stride == 1 and proj_pool, got '
                f'stride={stride}, proj_pool={proj_pool}')
        self.out1 = out1
        self.proj_pool = proj_pool
        self.stride = stride
        self.pooltype = pooltype
        conv = convolution_2d.Convolution2D
        bn = batch_normalization.BatchNormalization
        with self.init_scope():
            self.proj3 = conv(in_channels, proj3, 1, nobias=True, initialW=conv_init)
            self.conv3 = conv(proj3, out3, 3, stride, 1, nobias=True, initialW=conv_init)
            self.proj33 = conv(in_channels, proj33, 1, nobias=True, initialW=conv_init)
            self.conv33a = conv(proj33, out33, 3, pad=1, nobias=True, initialW=conv_init)
            self.conv33b = conv(out33, out33, 3, stride, 1, nobias=True, initialW=conv_init)
            self.proj3n = bn(proj3, dtype=dtype)
            self.conv3n = bn(out3, dtype=dtype)
            self.proj33n = bn(proj33, dtype=dtype)
            self.conv33an = bn(out33, dtype=dtype)
            self.conv33bn = bn(out33, dtype=dtype)
            if out1 > 0:
                self.conv1 = conv(in_channels, out1, 1, nobias=True, initialW=conv_init)
                self.conv1n = bn(out1, dtype=dtype)
            if proj_pool is not None:
                self.poolp = conv(in_channels, proj_pool, 1, nobias=True, initialW=conv_init)
                self.poolpn = bn(proj_pool, dtype=dtype)

    def forward(self, x):
        """Applies the module to ``x`` of shape ``(n, in_channels, h, w)``."""
        outs = []
        if self.out1 > 0:
            outs.append(relu.relu(self.conv1n(self.conv1(x))))
        h3 = relu.relu(self.proj3n(self.proj3(x)))
        outs.append(relu.relu(self.conv3n(self.conv3(h3))))
        h33 = relu.relu(self.proj33n(self.proj33(x)))
        h33 = relu.relu(self.conv33an(self.conv33a(h33)))
        outs.append(relu.relu(self.conv33bn(self.conv33b(h33))))
        if self.pooltype == 'max':
            p = max_pooling_nd.max_pooling_2d(x, 3, stride=self.stride, pad=1,
                                              cover_all=False)
        else:
            p = average_pooling_2d.average_pooling_2d(x, 3, stride=self.stride, pad=1)
        if self.proj_pool is not None:
            p = relu.relu(self.poolpn(self.poolp(p)))
        outs.append(p)
        return concat.concat(outs, axis=1)
