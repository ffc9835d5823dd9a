"""GoogLeNet (Szegedy et al., 2014) with the layer names of the BVLC Caffe model."""
import collections

from chainer.functions.activation import relu
from chainer.functions.activation import softmax
from chainer.functions.noise import dropout
from chainer.functions.normalization import local_response_normalization
from chainer.functions.pooling import average_pooling_2d
from chainer.functions.pooling import max_pooling_nd
from chainer import initializers
from chainer import link
from chainer.links.connection.convolution_2d import Convolution2D
from chainer.links.connection.inception import Inception
from chainer.links.connection.linear import Linear
from chainer.links.model.vision import _common

available = _common.available
_MEAN = (104.0, 117.0, 123.0)

# name -> Inception(in, out1, proj3, out3, proj5, out5, proj_pool)
_INCEPTIONS = (
    ('3a', (192, 64, 96, 128, 16, 32, 32)),
    ('3b', (256, 128, 128, 192, 32, 96, 64)),
    ('4a', (480, 192, 96, 208, 16, 48, 64)),
    ('4b', (512, 160, 112, 224, 24, 64, 64)),
    ('4c', (512, 128, 128, 256, 24, 64, 64)),
    ('4d', (512, 112, 144, 288, 32, 64, 64)),
    ('4e', (528, 256, 160, 320, 32, 128, 128)),
    ('5a', (832, 256, 160, 320, 32, 128, 128)),
    ('5b', (832, 384, 192, 384, 48, 128, 128)),
)


def prepare(image, size=(224, 224)):
    """Converts an image for GoogLeNet: RGB to BGR, resized, the mean subtracted, ``(3, H, W)``.

    Args:
        image (PIL.Image or numpy.ndarray): RGB image (see
            :func:`chainer.links.model.vision.vgg.prepare` for the accepted layouts).
        size (tuple of int or None): ``(width, height)``; ``None`` keeps the size.

    Returns:
        numpy.ndarray: The input array in ``chainer.config.dtype``.
    """
    return _common.prepare_image(image, size, _MEAN)


def _max_pooling_2d(x):
    return max_pooling_nd.max_pooling_2d(x, ksize=3, stride=2)


def _local_response_normalization(x):
    return local_response_normalization.local_response_normalization(x, n=5, k=1,
                                                                     alpha=1e-4 / 5)


def _average_pooling_2d_k5(x):
    return average_pooling_2d.average_pooling_2d(x, ksize=5, stride=3)


def _average_pooling_2d_k7(x):
    return average_pooling_2d.average_pooling_2d(x, ksize=7, stride=1)


def _dropout(x):
    return dropout.dropout(x, ratio=0.4)


class GoogLeNet(_common.VisionModel, link.Chain):
    """GoogLeNet (Inception v1) with its two auxiliary classifiers.

    ``loss1_fc2`` and ``loss2_fc2`` are the auxiliary classifiers' outputs,
    computed from ``inception_4a`` and ``inception_4d``.

    Args:
        pretrained_model (str or None): ``'auto'``: ``bvlc_googlenet.npz`` from
            the dataset cache (``<dataset root>/pfnet/chainer/models/``); a path:
            that npz file; ``None``: random weights (LeCun uniform).

    Attributes:
        available_layers (list of str): ``conv1`` ... ``pool5``, ``loss3_fc``,
            ``prob``, ``loss1_fc2``, ``loss2_fc2``.
    """

    _mean = _MEAN
    _branches = {'loss1_fc2': 'inception_4a', 'loss2_fc2': 'inception_4d'}
    # Chainer's GoogLeNet names no retired forward option: ``test`` is just unexpected.
    _forward_kwargs = {}

    def __init__(self, pretrained_model='auto'):
        super().__init__()
        init = dict(initialW=_common.initializer_or_zero(
            pretrained_model, initializers.LeCunUniform(scale=1.0)))
        with self.init_scope():
            self.conv1 = Convolution2D(3, 64, 7, stride=2, pad=3, **init)
            self.conv2_reduce = Convolution2D(64, 64, 1, **init)
            self.conv2 = Convolution2D(64, 192, 3, stride=1, pad=1, **init)
            for name, sizes in _INCEPTIONS:
                # The inception blocks keep their default initializers (and draw from the
                # random stream even when pretrained weights replace them), as in Chainer.
                setattr(self, 'inc' + name, Inception(*sizes))
            self.loss3_fc = Linear(1024, 1000, **init)
            self.loss1_conv = Convolution2D(512, 128, 1, **init)
            self.loss1_fc1 = Linear(2048, 1024, **init)
            self.loss1_fc2 = Linear(1024, 1000, **init)
            self.loss2_conv = Convolution2D(528, 128, 1, **init)
            self.loss2_fc1 = Linear(2048, 1024, **init)
            self.loss2_fc2 = Linear(1024, 1000, **init)
        _common.load_pretrained(
            self, pretrained_model, 'bvlc_googlenet.npz',
            'convert bvlc_googlenet.caffemodel with Chainer 7: '
            'chainer.links.GoogLeNet.convert_caffemodel_to_npz')

    @property
    def functions(self):
        """Ordered layer name -> list of callables computing it from the previous layer
        (the auxiliary ``loss*_fc2`` layers start from ``inception_4a`` / ``_4d``)."""
        r = relu.relu
        t = collections.OrderedDict()
        t['conv1'] = [self.conv1, r]
        t['pool1'] = [_max_pooling_2d, _local_response_normalization]
        t['conv2_reduce'] = [self.conv2_reduce, r]
        t['conv2'] = [self.conv2, r, _local_response_normalization]
        t['pool2'] = [_max_pooling_2d]
        for name, _ in _INCEPTIONS:
            t['inception_' + name] = [getattr(self, 'inc' + name)]
            if name == '3b':
                t['pool3'] = [_max_pooling_2d]
            elif name == '4e':
                t['pool4'] = [_max_pooling_2d]
        t['pool5'] = [_average_pooling_2d_k7]
        t['loss3_fc'] = [_dropout, self.loss3_fc]
        t['prob'] = [softmax.softmax]
        for k in (1, 2):
            t[f'loss{k}_fc2'] = [_average_pooling_2d_k5, getattr(self, f'loss{k}_conv'), r,
                                 getattr(self, f'loss{k}_fc1'), r, getattr(self, f'loss{k}_fc2')]
        return t

    @classmethod
    def convert_caffemodel_to_npz(cls, path_caffemodel, path_npz):
        """Not supported by rechainer (no Caffe reader); convert with Chainer 7."""
        _common.unsupported_caffe_conversion(cls)
