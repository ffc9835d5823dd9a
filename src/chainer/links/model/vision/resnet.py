"""Residual networks (He et al., 2015) with 50, 101 and 152 layers, named as the
authors' Caffe models."""
import collections

from chainer.functions.activation import relu
from chainer.functions.activation import softmax
from chainer.functions.pooling import max_pooling_nd
from chainer import initializers
from chainer import link
from chainer.links.connection.convolution_2d import Convolution2D
from chainer.links.connection.linear import Linear
from chainer.links.model.vision import _common
from chainer.links.normalization.batch_normalization import BatchNormalization

available = _common.available
_MEAN = (103.063, 115.903, 123.152)
# n_layers -> residual blocks in res2 .. res5
_BLOCKS = {50: (3, 4, 6, 3), 101: (3, 4, 23, 3), 152: (3, 8, 36, 3)}


def prepare(image, size=(224, 224)):
    """Converts an image for ResNet: RGB to BGR, resized, the mean subtracted, ``(3, H, W)``.

    Args:
        image (PIL.Image or numpy.ndarray): RGB image (see
            :func:`chainer.links.model.vision.vgg.prepare` for the accepted layouts).
        size (tuple of int or None): ``(width, height)``; ``None`` keeps the size.

    Returns:
        numpy.ndarray: The input array in ``chainer.config.dtype``.
    """
    return _common.prepare_image(image, size, _MEAN)


class BottleneckA(link.Chain):
    """Bottleneck unit that changes the width (and stride): a 1x1-3x3-1x1 path plus
    a 1x1 projection of the input (``conv4``/``bn4``).

    Args:
        in_channels (int): Input channels.
        mid_channels (int): Channels of the 3x3 convolution.
        out_channels (int): Output channels.
        stride (int): Stride of the unit.
        initialW: Initializer of the convolutions.
        downsample_fb (bool): Put the stride on the 3x3 convolution (Facebook's
            variant) instead of the first 1x1 one (the original Caffe model).
    """

    def __init__(self, in_channels, mid_channels, out_channels, stride=2, initialW=None,
                 downsample_fb=False):
        super().__init__()
        s1, s2 = (1, stride) if downsample_fb else (stride, 1)
        with self.init_scope():
            self.conv1 = Convolution2D(in_channels, mid_channels, 1, s1, 0, initialW=initialW,
                                       nobias=True)
            self.bn1 = BatchNormalization(mid_channels)
            self.conv2 = Convolution2D(mid_channels, mid_channels, 3, s2, 1,
                                       initialW=initialW, nobias=True)
            self.bn2 = BatchNormalization(mid_channels)
            self.conv3 = Convolution2D(mid_channels, out_channels, 1, 1, 0, initialW=initialW,
                                       nobias=True)
            self.bn3 = BatchNormalization(out_channels)
            self.conv4 = Convolution2D(in_channels, out_channels, 1, stride, 0,
                                       initialW=initialW, nobias=True)
            self.bn4 = BatchNormalization(out_channels)

    def forward(self, x):
        h = relu.relu(self.bn1(self.conv1(x)))
        h = relu.relu(self.bn2(self.conv2(h)))
        h = self.bn3(self.conv3(h))
        return relu.relu(h + self.bn4(self.conv4(x)))


class BottleneckB(link.Chain):
    """Bottleneck unit that keeps the shape: a 1x1-3x3-1x1 path plus the input.

    Args:
        in_channels (int): Input (and output) channels.
        mid_channels (int): Channels of the 3x3 convolution.
        initialW: Initializer of the convolutions.
    """

    def __init__(self, in_channels, mid_channels, initialW=None):
        super().__init__()
        with self.init_scope():
            self.conv1 = Convolution2D(in_channels, mid_channels, 1, 1, 0, initialW=initialW,
                                       nobias=True)
            self.bn1 = BatchNormalization(mid_channels)
            self.conv2 = Convolution2D(mid_channels, mid_channels, 3, 1, 1, initialW=initialW,
                                       nobias=True)
            self.bn2 = BatchNormalization(mid_channels)
            self.conv3 = Convolution2D(mid_channels, in_channels, 1, 1, 0, initialW=initialW,
                                       nobias=True)
            self.bn3 = BatchNormalization(in_channels)

    def forward(self, x):
        h = relu.relu(self.bn1(self.conv1(x)))
        h = relu.relu(self.bn2(self.conv2(h)))
        return relu.relu(self.bn3(self.conv3(h)) + x)


class BuildingBlock(link.Chain):
    """A stage of a ResNet: one :class:`BottleneckA` (``a``) then ``n_layers - 1``
    :class:`BottleneckB` units (``b1``, ``b2``...).

    Args:
        n_layers (int): Number of units.
        in_channels, mid_channels, out_channels (int): Widths (see :class:`BottleneckA`).
        stride (int): Stride of the first unit.
        initialW: Initializer of the convolutions.
        downsample_fb (bool): See :class:`BottleneckA`.
    """

    def __init__(self, n_layers=None, in_channels=None, mid_channels=None, out_channels=None,
                 stride=None, initialW=None, downsample_fb=None, **kwargs):
        if n_layers is None or in_channels is None or mid_channels is None or \
                out_channels is None or stride is None:
            raise TypeError('BuildingBlock requires n_layers, in_channels, mid_channels, '
                            'out_channels and stride')
        if kwargs:
            raise TypeError(f'BuildingBlock got unexpected keyword argument(s) '
                            f'{", ".join(sorted(kwargs))}')
        super().__init__()
        with self.init_scope():
            self.a = BottleneckA(in_channels, mid_channels, out_channels, stride, initialW,
                                 bool(downsample_fb))
            self._forward = ['a']
            for i in range(1, n_layers):
                setattr(self, f'b{i}', BottleneckB(out_channels, mid_channels, initialW))
                self._forward.append(f'b{i}')

    def forward(self, x):
        for name in self._forward:
            x = getattr(self, name)(x)
        return x


class ResNetLayers(_common.VisionModel, link.Chain):
    """ResNet with 50, 101 or 152 layers, named as the MSRA Caffe models.

    Args:
        pretrained_model (str or None): ``'auto'``: ``ResNet-<n>-model.npz`` from
            the dataset cache (``<dataset root>/pfnet/chainer/models/``); a path:
            that npz file; ``None``: random weights (He normal).
        n_layers (int): 50, 101 or 152.
        downsample_fb (bool): Stride on the 3x3 convolutions (Facebook's
            variant) instead of the 1x1 ones.

    Attributes:
        available_layers (list of str): ``conv1``, ``pool1``, ``res2`` ...
            ``res5``, ``pool5``, ``fc6``, ``prob``.
    """

    _mean = _MEAN

    def __init__(self, pretrained_model, n_layers, downsample_fb=False):
        super().__init__()
        if n_layers not in _BLOCKS:
            raise ValueError(f'ResNetLayers requires n_layers in {sorted(_BLOCKS)}, '
                             f'got {n_layers}')
        init = _common.initializer_or_zero(pretrained_model, initializers.HeNormal(scale=1.0))
        blocks = _BLOCKS[n_layers]
        with self.init_scope():
            self.conv1 = Convolution2D(3, 64, 7, 2, 3, initialW=init)
            self.bn1 = BatchNormalization(64)
            self.res2 = BuildingBlock(blocks[0], 64, 64, 256, 1, init, downsample_fb)
            self.res3 = BuildingBlock(blocks[1], 256, 128, 512, 2, init, downsample_fb)
            self.res4 = BuildingBlock(blocks[2], 512, 256, 1024, 2, init, downsample_fb)
            self.res5 = BuildingBlock(blocks[3], 1024, 512, 2048, 2, init, downsample_fb)
            # The classifier keeps Linear's default initializer (drawn even when pretrained
            # weights replace it), as in Chainer 7.8.1.
            self.fc6 = Linear(2048, 1000)
        _common.load_pretrained(
            self, pretrained_model, f'ResNet-{n_layers}-model.npz',
            f'convert ResNet-{n_layers}-model.caffemodel (from '
            f'https://github.com/KaimingHe/deep-residual-networks) with Chainer 7: '
            f'chainer.links.ResNet{n_layers}Layers(), which writes the npz there')

    @property
    def functions(self):
        """Ordered layer name -> list of callables computing it from the previous layer."""
        t = collections.OrderedDict()
        t['conv1'] = [self.conv1, self.bn1, relu.relu]
        t['pool1'] = [lambda x: max_pooling_nd.max_pooling_2d(x, ksize=3, stride=2)]
        t['res2'] = [self.res2]
        t['res3'] = [self.res3]
        t['res4'] = [self.res4]
        t['res5'] = [self.res5]
        t['pool5'] = [_common.global_average_pooling_2d]
        t['fc6'] = [self.fc6]
        t['prob'] = [softmax.softmax]
        return t

    @classmethod
    def convert_caffemodel_to_npz(cls, path_caffemodel, path_npz, n_layers=50):
        """Not supported by rechainer (no Caffe reader); convert with Chainer 7."""
        _common.unsupported_caffe_conversion(cls)


class ResNet50Layers(ResNetLayers):
    """ResNet-50; see :class:`ResNetLayers`."""

    def __init__(self, pretrained_model='auto', downsample_fb=False):
        super().__init__(pretrained_model, 50, downsample_fb)


class ResNet101Layers(ResNetLayers):
    """ResNet-101; see :class:`ResNetLayers`."""

    def __init__(self, pretrained_model='auto', downsample_fb=False):
        super().__init__(pretrained_model, 101, downsample_fb)


class ResNet152Layers(ResNetLayers):
    """ResNet-152; see :class:`ResNetLayers`."""

    def __init__(self, pretrained_model='auto', downsample_fb=False):
        super().__init__(pretrained_model, 152, downsample_fb)
