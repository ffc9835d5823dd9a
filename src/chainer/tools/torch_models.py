"""PyTorch equivalents of Chainer's vision models (``L.VGG16Layers``, ``L.ResNet50Layers``...).

Each module computes what the Chainer model computes, with the same layer names, so that
``convert_checkpoint`` turns one's weights into the other's (``conv1_1/W`` is
``conv1_1.weight``). They are not torchvision's models: Chainer's ResNet puts the stride of a
bottleneck on its first 1x1 convolution, has a bias on ``conv1``, pools without padding and
with the last window covering the edge (``ceil_mode``); its batch normalization uses Chainer's
``eps=2e-5``.

Calling a model returns its logits (``fc8`` for VGG, ``fc6`` for ResNet);
``model(x, layers=['pool5', 'prob'])`` returns a dict of the named layers as Chainer's
``forward(x, layers)`` does. Importing this module needs PyTorch.
"""
import collections

import torch
from torch import nn
from torch.nn import functional as F

# Chainer's BatchNormalization default (PyTorch's is 1e-5).
_EPS = 2e-5


class _LayeredModel(nn.Module):
    """A chain of named layers, as the Chainer vision models are."""

    _logits = None

    def functions(self):
        """Ordered layer name -> list of callables computing it from the previous layer."""
        raise NotImplementedError

    @property
    def available_layers(self):
        return list(self.functions())

    def forward(self, x, layers=None):
        """Runs the model.

        Args:
            x (torch.Tensor): Images, ``(N, 3, H, W)``, prepared as for the Chainer model.
            layers (list of str): Layers to return; ``None`` returns the logits.

        Returns:
            torch.Tensor or dict: The logits, or ``{name: tensor}`` for ``layers``.
        """
        wanted = [self._logits] if layers is None else list(layers)
        unknown = set(wanted) - set(self.available_layers)
        if unknown:
            raise ValueError(f'{type(self).__name__} has no layer(s) {sorted(unknown)}; '
                             f'available: {self.available_layers}')
        out = {}
        h = x
        for name, funcs in self.functions().items():
            if len(out) == len(wanted):
                break
            for f in funcs:
                h = f(h)
            if name in wanted:
                out[name] = h
        return out[self._logits] if layers is None else out


def _relu(x):
    return F.relu(x)


def _softmax(x):
    return F.softmax(x, dim=1)


class VGG(_LayeredModel):
    """VGG with 16 or 19 layers, as ``L.VGG16Layers``/``L.VGG19Layers``.

    Args:
        n_layers (int): 16 or 19.
    """

    _logits = 'fc8'

    def __init__(self, n_layers=16):
        super().__init__()
        if n_layers not in (16, 19):
            raise ValueError(f'VGG requires n_layers 16 or 19, got {n_layers}')
        self._blocks = [2, 2, 3, 3, 3] if n_layers == 16 else [2, 2, 4, 4, 4]
        in_ch = 3
        for b, (n, width) in enumerate(zip(self._blocks, [64, 128, 256, 512, 512]), 1):
            for i in range(1, n + 1):
                setattr(self, f'conv{b}_{i}', nn.Conv2d(in_ch, width, 3, 1, 1))
                in_ch = width
        self.fc6 = nn.Linear(512 * 7 * 7, 4096)
        self.fc7 = nn.Linear(4096, 4096)
        self.fc8 = nn.Linear(4096, 1000)

    def _pool(self, x):
        # Chainer's max_pooling_2d covers the whole input (cover_all): ceil_mode here.
        return F.max_pool2d(x, 2, 2, ceil_mode=True)

    def _dropout(self, x):
        return F.dropout(x, 0.5, self.training)

    def functions(self):
        t = collections.OrderedDict()
        for b, n in enumerate(self._blocks, 1):
            for i in range(1, n + 1):
                t[f'conv{b}_{i}'] = [getattr(self, f'conv{b}_{i}'), _relu]
            t[f'pool{b}'] = [self._pool]
        t['fc6'] = [_flatten, self.fc6, _relu, self._dropout]
        t['fc7'] = [self.fc7, _relu, self._dropout]
        t['fc8'] = [self.fc8]
        t['prob'] = [_softmax]
        return t


def _flatten(x):
    # Chainer's Linear flattens all axes after the first.
    return torch.flatten(x, 1)


class BottleneckA(nn.Module):
    """Bottleneck unit that changes the width (and stride), with a projection shortcut."""

    def __init__(self, in_channels, mid_channels, out_channels, stride=2, downsample_fb=False):
        super().__init__()
        s1, s2 = (1, stride) if downsample_fb else (stride, 1)
        self.conv1 = nn.Conv2d(in_channels, mid_channels, 1, s1, 0, bias=False)
        self.bn1 = nn.BatchNorm2d(mid_channels, eps=_EPS)
        self.conv2 = nn.Conv2d(mid_channels, mid_channels, 3, s2, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(mid_channels, eps=_EPS)
        self.conv3 = nn.Conv2d(mid_channels, out_channels, 1, 1, 0, bias=False)
        self.bn3 = nn.BatchNorm2d(out_channels, eps=_EPS)
        self.conv4 = nn.Conv2d(in_channels, out_channels, 1, stride, 0, bias=False)
        self.bn4 = nn.BatchNorm2d(out_channels, eps=_EPS)

    def forward(self, x):
        h = F.relu(self.bn1(self.conv1(x)))
        h = F.relu(self.bn2(self.conv2(h)))
        h = self.bn3(self.conv3(h))
        return F.relu(h + self.bn4(self.conv4(x)))


class BottleneckB(nn.Module):
    """Bottleneck unit that keeps the shape, with the identity shortcut."""

    def __init__(self, in_channels, mid_channels):
        super().__init__()
        self.conv1 = nn.Conv2d(in_channels, mid_channels, 1, 1, 0, bias=False)
        self.bn1 = nn.BatchNorm2d(mid_channels, eps=_EPS)
        self.conv2 = nn.Conv2d(mid_channels, mid_channels, 3, 1, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(mid_channels, eps=_EPS)
        self.conv3 = nn.Conv2d(mid_channels, in_channels, 1, 1, 0, bias=False)
        self.bn3 = nn.BatchNorm2d(in_channels, eps=_EPS)

    def forward(self, x):
        h = F.relu(self.bn1(self.conv1(x)))
        h = F.relu(self.bn2(self.conv2(h)))
        return F.relu(self.bn3(self.conv3(h)) + x)


class BuildingBlock(nn.Module):
    """A stage: ``a`` (:class:`BottleneckA`) then ``b1``, ``b2``... (:class:`BottleneckB`)."""

    def __init__(self, n_layers, in_channels, mid_channels, out_channels, stride,
                 downsample_fb=False):
        super().__init__()
        self.a = BottleneckA(in_channels, mid_channels, out_channels, stride, downsample_fb)
        self._names = ['a']
        for i in range(1, n_layers):
            setattr(self, f'b{i}', BottleneckB(out_channels, mid_channels))
            self._names.append(f'b{i}')

    def forward(self, x):
        for name in self._names:
            x = getattr(self, name)(x)
        return x


_BLOCKS = {50: (3, 4, 6, 3), 101: (3, 4, 23, 3), 152: (3, 8, 36, 3)}


class ResNet(_LayeredModel):
    """ResNet with 50, 101 or 152 layers, as ``L.ResNet50Layers``...

    Args:
        n_layers (int): 50, 101 or 152.
        downsample_fb (bool): Stride on the 3x3 convolutions, as the Chainer option.
    """

    _logits = 'fc6'

    def __init__(self, n_layers=50, downsample_fb=False):
        super().__init__()
        if n_layers not in _BLOCKS:
            raise ValueError(f'ResNet requires n_layers in {sorted(_BLOCKS)}, got {n_layers}')
        blocks = _BLOCKS[n_layers]
        self.conv1 = nn.Conv2d(3, 64, 7, 2, 3)
        self.bn1 = nn.BatchNorm2d(64, eps=_EPS)
        self.res2 = BuildingBlock(blocks[0], 64, 64, 256, 1, downsample_fb)
        self.res3 = BuildingBlock(blocks[1], 256, 128, 512, 2, downsample_fb)
        self.res4 = BuildingBlock(blocks[2], 512, 256, 1024, 2, downsample_fb)
        self.res5 = BuildingBlock(blocks[3], 1024, 512, 2048, 2, downsample_fb)
        self.fc6 = nn.Linear(2048, 1000)

    def functions(self):
        t = collections.OrderedDict()
        t['conv1'] = [self.conv1, self.bn1, _relu]
        t['pool1'] = [lambda x: F.max_pool2d(x, 3, 2, ceil_mode=True)]
        t['res2'] = [self.res2]
        t['res3'] = [self.res3]
        t['res4'] = [self.res4]
        t['res5'] = [self.res5]
        t['pool5'] = [lambda x: x.mean(dim=(2, 3))]
        t['fc6'] = [self.fc6]
        t['prob'] = [_softmax]
        return t


def VGG16():
    """The equivalent of ``L.VGG16Layers``."""
    return VGG(16)


def VGG19():
    """The equivalent of ``L.VGG19Layers``."""
    return VGG(19)


def ResNet50(downsample_fb=False):
    """The equivalent of ``L.ResNet50Layers``."""
    return ResNet(50, downsample_fb)


def ResNet101(downsample_fb=False):
    """The equivalent of ``L.ResNet101Layers``."""
    return ResNet(101, downsample_fb)


def ResNet152(downsample_fb=False):
    """The equivalent of ``L.ResNet152Layers``."""
    return ResNet(152, downsample_fb)


def for_chainer_model(link):
    """The PyTorch model equivalent to a Chainer vision model (weights not loaded), or None."""
    from chainer.links.model.vision import resnet
    from chainer.links.model.vision import vgg
    if isinstance(link, vgg.VGGLayers):
        return VGG(16 if link._blocks[2] == 3 else 19)
    if isinstance(link, resnet.ResNetLayers):
        n = {v[2]: k for k, v in _BLOCKS.items()}[len(link.res4._forward)]
        fb = tuple(link.res3.a.conv1.stride) == (1, 1)
        return ResNet(n, fb)
    return None
