"""L.ResNet50Layers, L.ResNet101Layers, L.ResNet152Layers: structure, forward, extract and
predict, copies."""
import numpy
import pytest

import chainer
import chainer.links as L
from chainer.testing import attr
from chainer_tests.links_tests.model_tests.vision_tests import _vision
from chainer.links.model.vision import resnet


@pytest.mark.parametrize('name', ['ResNet101Layers', 'ResNet152Layers', 'ResNet50Layers',
                                  'ResNet50Layers_downsample_fb'])
def test_saved_keys_shapes_dtypes_and_param_order_equal_chainer(monkeypatch, name):
    _vision.check_saved_structure(monkeypatch, name)


@pytest.fixture(scope='module')
def resnet50():
    numpy.random.seed(0)
    return L.ResNet50Layers(pretrained_model=None)


def test_resnet50_forward_on_small_images(resnet50):
    model = resnet50
    shapes = _vision.forward_shapes(model, (2, 3, 32, 32), model.available_layers)
    assert shapes['conv1'] == [2, 64, 16, 16] and shapes['pool1'] == [2, 64, 8, 8]
    assert shapes['res2'] == [2, 256, 8, 8] and shapes['res5'] == [2, 2048, 1, 1]
    assert shapes['pool5'] == [2, 2048] and shapes['prob'] == [2, 1000]
    assert list(_vision.forward_shapes(model, (1, 3, 32, 32), None)) == ['prob']


def test_resnet_downsample_fb_moves_the_stride(monkeypatch, resnet50):
    model = _vision.build_unloaded(monkeypatch, L.ResNet50Layers, downsample_fb=True)
    assert model.res3.a.conv1.stride == (1, 1) and model.res3.a.conv2.stride == (2, 2)
    plain = resnet50
    assert plain.res3.a.conv1.stride == (2, 2) and plain.res3.a.conv2.stride == (1, 1)


@attr.slow
@pytest.mark.parametrize('name', ['ResNet101Layers', 'ResNet152Layers'])
def test_full_size_forward(name):
    _vision.check_full_size_forward(name)


def test_forward_bad_arguments_name_the_model(monkeypatch, resnet50):
    model = resnet50
    x = numpy.zeros((1, 3, 32, 32), numpy.float32)
    with pytest.raises(ValueError, match="ResNet50Layers has no layer"):
        model(x, layers=['res9'])
    with pytest.raises(ValueError, match='test argument'):
        model(x, test=True)
    with pytest.raises(ValueError, match='volatile'):
        model.extract([numpy.zeros((8, 8, 3), numpy.uint8)], volatile=True)


def test_extract_and_predict(resnet50):
    model = resnet50
    images = [numpy.random.randint(0, 255, (40, 30, 3)).astype(numpy.uint8),
              numpy.random.randint(0, 255, (30, 40)).astype(numpy.uint8)]
    with chainer.using_config('train', False):
        out = model.extract(images, layers=['res3', 'pool5'], size=(48, 64))
        default = model.extract(images[:1], size=(32, 32))
    assert out['res3'].shape == (2, 512, 8, 6) and out['pool5'].shape == (2, 2048)
    assert list(default) == ['pool5']
    y = model.predict(images[:1], oversample=False)
    assert y.shape == (1, 1000) and y.creator is None
    numpy.testing.assert_allclose(y.array.sum(), 1, rtol=1e-5)


def test_prepare():
    _vision.check_prepare(resnet, (103.063, 115.903, 123.152))


def test_copy_keeps_the_layer_table_on_the_copy(resnet50):
    model = resnet50
    copied = model.copy()
    assert copied.conv1 is copied.functions['conv1'][0]
    assert copied.res2.a is getattr(copied.res2, copied.res2._forward[0])
    assert copied.conv1 is not model.conv1
