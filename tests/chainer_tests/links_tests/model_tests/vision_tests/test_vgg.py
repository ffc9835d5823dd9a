"""L.VGG16Layers and L.VGG19Layers: structure, forward, prepare."""
import pytest

import chainer.links as L
from chainer.testing import attr
from chainer_tests.links_tests.model_tests.vision_tests import _vision
from chainer.links.model.vision import vgg


@pytest.mark.parametrize('name', ['VGG16Layers', 'VGG19Layers'])
def test_saved_keys_shapes_dtypes_and_param_order_equal_chainer(monkeypatch, name):
    _vision.check_saved_structure(monkeypatch, name)


def test_vgg16_convolutions_on_small_images(monkeypatch):
    model = _vision.build_unloaded(monkeypatch, L.VGG16Layers)
    shapes = _vision.forward_shapes(model, (1, 3, 32, 32), ['conv3_3', 'pool5'])
    assert shapes == {'conv3_3': [1, 256, 8, 8], 'pool5': [1, 512, 1, 1]}


@attr.slow
@pytest.mark.parametrize('name', ['VGG16Layers', 'VGG19Layers'])
def test_full_size_forward(name):
    _vision.check_full_size_forward(name)


def test_prepare():
    _vision.check_prepare(vgg, (103.939, 116.779, 123.68))
