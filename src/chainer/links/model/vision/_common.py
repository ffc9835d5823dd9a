"""What the vision models share: image preparation, pretrained-weight lookup,
and running an ordered table of layers (``functions``) up to the requested ones."""
import os

import numpy

import chainer
from chainer.dataset import convert
from chainer.dataset import download
from chainer.functions.array import reshape
from chainer.functions.pooling import average_pooling_2d
from chainer.functions.math import sum as sum_mod
from chainer import initializers
from chainer.serializers import npz
from chainer.utils import argument
from chainer.utils import imgproc
from chainer import variable

try:
    from PIL import Image
    available = True
except ImportError:
    Image = None
    available = False

MODELS_DIR = 'pfnet/chainer/models/'
_RETIRED = {
    'test': 'test argument is not supported anymore. Use chainer.using_config',
    'volatile': 'volatile argument is not supported anymore. Use chainer.using_config',
}


def prepare_image(image, size, mean):
    """Turns an image into a network input: RGB -> BGR, resized, mean subtracted, CHW.

    Args:
        image (PIL.Image or numpy.ndarray): ``(H, W)``, ``(H, W, 3)``, ``(1, H, W)``
            or ``(3, H, W)`` array (RGB, values 0-255), or a PIL image.
        size (tuple of int or None): ``(width, height)`` to resize to (PIL's
            order); ``None`` keeps the size.
        mean (sequence of float): Per-channel (B, G, R) mean.

    Returns:
        numpy.ndarray: ``(3, height, width)`` in ``chainer.config.dtype``.
    """
    if not available:
        raise ImportError('preparing images requires Pillow (pip install Pillow)')
    dtype = chainer.get_dtype()
    if isinstance(image, numpy.ndarray):
        if image.ndim == 3:
            if image.shape[0] == 1:
                image = image[0]
            elif image.shape[0] == 3:
                image = image.transpose(1, 2, 0)
        image = Image.fromarray(image.astype(numpy.uint8))
    image = image.convert('RGB')
    if size:
        image = image.resize(size)
    image = numpy.asarray(image, dtype=dtype)[:, :, ::-1]
    image = image - numpy.array(mean, dtype=dtype)
    return numpy.ascontiguousarray(image.transpose(2, 0, 1))


def initializer_or_zero(pretrained_model, initializer):
    """The random initializer, or zeros when weights are about to be loaded anyway."""
    if pretrained_model:
        return initializers.Zero()
    return initializer


def load_pretrained(model, pretrained_model, npz_name, how_to_get):
    """Loads ``pretrained_model`` into ``model``: ``'auto'`` means the converted file
    ``npz_name`` in the dataset cache, another string a path to an npz file."""
    if not pretrained_model:
        return
    name = type(model).__name__
    if pretrained_model == 'auto':
        path = os.path.join(download.get_dataset_directory(MODELS_DIR, create_directory=False),
                            npz_name)
        if not os.path.exists(path):
            raise FileNotFoundError(
                f'{name}: the pretrained weights {npz_name} are not in the dataset cache; '
                f'put the file at {path} ({how_to_get}). rechainer neither downloads nor '
                f'converts Caffe models. Pass pretrained_model=None for random weights.')
    else:
        path = pretrained_model
        if not os.path.exists(path):
            raise FileNotFoundError(f'{name}: pretrained_model file not found: {path}')
    npz.load_npz(path, model)


def global_average_pooling_2d(x):
    """Mean over the spatial axes: ``(N, C, H, W)`` to ``(N, C)``."""
    n, c, h, w = x.shape
    return reshape.reshape(average_pooling_2d.average_pooling_2d(x, (h, w), stride=1), (n, c))


class VisionModel:
    """The layer-table protocol of the vision models (mixed into a Chain).

    A subclass defines the property ``functions`` (an ordered mapping from layer
    name to the callables that compute it from the previous layer's output),
    ``_default_extract`` (the layers :meth:`extract` returns by default), and the
    image mean used by :meth:`prepare`. ``_branches`` maps a layer to the earlier
    layer its computation starts from, for side branches (GoogLeNet's auxiliary
    classifiers).
    """

    _branches = {}
    _forward_kwargs = _RETIRED
    _mean = None
    _default_extract = ('pool5',)

    @property
    def available_layers(self):
        """Names of the layers :meth:`forward` can return, in computation order."""
        return list(self.functions.keys())

    def forward(self, x, layers=None, **kwargs):
        """Computes the requested layers' outputs.

        Args:
            x (~chainer.Variable or N-dimensional array): Input images
                ``(N, 3, H, W)`` (see :meth:`prepare`).
            layers (list of str): Names from :attr:`available_layers`
                (default ``['prob']``).

        Returns:
            dict: Layer name to output Variable.
        """
        if kwargs:
            argument.check_unexpected_kwargs(kwargs, **self._forward_kwargs)
            argument.assert_kwargs_empty(kwargs)
        if layers is None:
            layers = ['prob']
        functions = self.functions
        unknown = [name for name in layers if name not in functions]
        if unknown:
            raise ValueError(f'{type(self).__name__} has no layer(s) {unknown}; '
                             f'available: {list(functions)}')
        targets = set(layers)
        keep = set(self._branches.values())
        saved = {}
        activations = {}
        h = x
        for key, funcs in functions.items():
            if not targets:
                break
            if key in self._branches:
                h = saved[self._branches[key]]
            for func in funcs:
                h = func(h)
            if key in targets:
                activations[key] = h
                targets.remove(key)
            if key in keep:
                saved[key] = h
        return activations

    def extract(self, images, layers=None, size=(224, 224), **kwargs):
        """Computes layer outputs for a list of images.

        Args:
            images (list): Images (PIL images or arrays, see :func:`prepare_image`).
            layers (list of str): Layers to return (default: the features layer).
            size (tuple of int or None): Size the images are resized to.

        Returns:
            dict: Layer name to output Variable. Wrap the call in
            ``chainer.using_config('train', False)`` for inference.
        """
        if kwargs:
            argument.check_unexpected_kwargs(kwargs, **_RETIRED)
            argument.assert_kwargs_empty(kwargs)
        if layers is None:
            layers = list(self._default_extract)
        x = convert.concat_examples([prepare_image(img, size, self._mean) for img in images])
        x = variable.Variable(self.xp.asarray(x))
        return self(x, layers=layers)

    def predict(self, images, oversample=True):
        """Class probabilities ``(N, 1000)`` for a list of images.

        Args:
            images (list): Images (PIL images or arrays).
            oversample (bool): Average over ten 224x224 crops (corners, center and
                their mirrors) of the 256x256 image; otherwise use its center crop.

        Returns:
            ~chainer.Variable: The averaged probabilities (computed in test mode
            without backprop).
        """
        x = convert.concat_examples(
            [prepare_image(img, (256, 256), self._mean) for img in images])
        if oversample:
            x = imgproc.oversample(x, crop_dims=(224, 224))
        else:
            x = x[:, :, 16:240, 16:240]
        with chainer.no_backprop_mode(), chainer.using_config('train', False):
            x = variable.Variable(self.xp.asarray(x))
            y = self(x, layers=['prob'])['prob']
            if oversample:
                y = reshape.reshape(y, (len(y) // 10, 10) + y.shape[1:])
                y = sum_mod.sum(y, axis=1) / 10
        return y


def unsupported_caffe_conversion(cls):
    raise RuntimeError(
        f'{cls.__name__}.convert_caffemodel_to_npz is not supported by rechainer (it has no '
        f'Caffe model reader); convert the caffemodel once with Chainer 7 and load the npz '
        f'with pretrained_model=<path>.')
