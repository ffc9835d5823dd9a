"""VGG 16- and 19-layer networks (Simonyan and Zisserman, 2014) with Chainer's layer names."""
import collections

from chainer.functions.activation import relu
from chainer.functions.activation import softmax
from chainer.functions.noise import dropout
from chainer.functions.pooling import max_pooling_nd
from chainer import initializers
from chainer import link
from chainer.links.connection.convolution_2d import Convolution2D
from chainer.links.connection.linear import Linear
from chainer.links.model.vision import _common

available = _common.available
_MEAN = (103.939, 116.779, 123.68)   # BGR means of the ILSVRC training images


def prepare(image, size=(224, 224)):
    """Converts an image for VGG: RGB to BGR, resized, the VGG mean subtracted, ``(3, H, W)``.

    Args:
        image (PIL.Image or numpy.ndarray): ``(H, W)``, ``(H, W, 3)``, ``(1, H, W)``
            or ``(3, H, W)`` RGB image.
        size (tuple of int or None): ``(width, height)``; ``None`` keeps the size.

    Returns:
        numpy.ndarray: The input array in ``chainer.config.dtype``.
    """
    return _common.prepare_image(image, size, _MEAN)


def _max_pooling_2d(x):
    return max_pooling_nd.max_pooling_2d(x, ksize=2)


class VGGLayers(_common.VisionModel, link.Chain):
    """VGG network (16 or 19 layers) with the layer names of the Caffe model.

    Args:
        pretrained_model (str or None): ``'auto'``: the converted weights
            ``VGG_ILSVRC_<n>_layers.npz`` from the dataset cache
            (``<dataset root>/pfnet/chainer/models/``); a path: that npz file;
            ``None``: random weights (normal with std 0.01, zero biases).
        n_layers (int): 16 or 19.

    Attributes:
        available_layers (list of str): ``conv1_1`` ... ``pool5``, ``fc6``,
            ``fc7``, ``fc8``, ``prob``.
    """

    _mean = _MEAN
    _default_extract = ('fc7',)

    def __init__(self, pretrained_model='auto', n_layers=16):
        super().__init__()
        if n_layers not in (16, 19):
            raise ValueError(f'VGGLayers requires n_layers 16 or 19, got {n_layers}')
        self._blocks = [2, 2, 3, 3, 3] if n_layers == 16 else [2, 2, 4, 4, 4]
        init = dict(
            initialW=_common.initializer_or_zero(pretrained_model, initializers.Normal(0.01)),
            initial_bias=initializers.Zero())
        widths = [64, 128, 256, 512, 512]
        with self.init_scope():
            # The layers of VGG16 first, the fourth convolutions of VGG19's last three
            # blocks after the classifier: the order Chainer 7.8.1 draws their weights in.
            in_ch = 3
            for b, width in enumerate(widths, start=1):
                for i in range(1, min(self._blocks[b - 1], 3) + 1):
                    setattr(self, f'conv{b}_{i}', Convolution2D(in_ch, width, 3, 1, 1, **init))
                    in_ch = width
            self.fc6 = Linear(512 * 7 * 7, 4096, **init)
            self.fc7 = Linear(4096, 4096, **init)
            self.fc8 = Linear(4096, 1000, **init)
            for b, width in enumerate(widths, start=1):
                if self._blocks[b - 1] == 4:
                    setattr(self, f'conv{b}_4', Convolution2D(width, width, 3, 1, 1, **init))
        _common.load_pretrained(
            self, pretrained_model, f'VGG_ILSVRC_{n_layers}_layers.npz',
            f'convert VGG_ILSVRC_{n_layers}_layers.caffemodel with Chainer 7: '
            f'chainer.links.VGG{n_layers}Layers.convert_caffemodel_to_npz')

    @property
    def functions(self):
        """Ordered layer name -> list of callables computing it from the previous layer."""
        table = collections.OrderedDict()
        for b, n in enumerate(self._blocks, start=1):
            for i in range(1, n + 1):
                table[f'conv{b}_{i}'] = [getattr(self, f'conv{b}_{i}'), relu.relu]
            table[f'pool{b}'] = [_max_pooling_2d]
        table['fc6'] = [self.fc6, relu.relu, dropout.dropout]
        table['fc7'] = [self.fc7, relu.relu, dropout.dropout]
        table['fc8'] = [self.fc8]
        table['prob'] = [softmax.softmax]
        return table

    @classmethod
    def convert_caffemodel_to_npz(cls, path_caffemodel, path_npz):
        """Not supported by rechainer (no Caffe reader); convert with Chainer 7."""
        _common.unsupported_caffe_conversion(cls)


class VGG16Layers(VGGLayers):
    """VGG 16-layer network; see :class:`VGGLayers`.

    .. admonition:: Example

        >>> model = L.VGG16Layers(pretrained_model=None)   # random weights  # doctest: +SKIP
        >>> model.available_layers[:3]                                      # doctest: +SKIP
        ['conv1_1', 'conv1_2', 'pool1']
    """

    def __init__(self, pretrained_model='auto'):
        super().__init__(pretrained_model, 16)


class VGG19Layers(VGGLayers):
    """VGG 19-layer network; see :class:`VGGLayers`."""

    def __init__(self, pretrained_model='auto'):
        super().__init__(pretrained_model, 19)
