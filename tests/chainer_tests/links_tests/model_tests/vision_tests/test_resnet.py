"""The vision models: the structure Chainer 7.8.1 saves (tests/fixtures/vision_models.json,
written by tests/fixtures/make_vision_models.py), forward/extract/predict/prepare,
copies, and pretrained-weight lookup."""
import json
import os

import numpy
import pytest

import chainer
from chainer.dataset import download
import chainer.links as L
from chainer.links.model.vision import _common
from chainer.links.model.vision import googlenet
from chainer.links.model.vision import resnet
from chainer.links.model.vision import vgg
from chainer import serializers
from chainer.testing import attr

with open(os.path.join(os.path.dirname(__file__), '..', '..', '..', 'fixtures',
                       'vision_models.json')) as _f:
    REFERENCE = json.load(_f)


def _build_unloaded(monkeypatch, cls, **kwargs):
    # A pretrained build initializes with zeros (cheap); skip the loading itself.
    monkeypatch.setattr(_common, 'load_pretrained', lambda *args: None)
    return cls(pretrained_model='given', **kwargs)


def _saved(model):
    target = {}
    serializers.DictionarySerializer(target).save(model)
    return sorted([k, list(numpy.shape(v)), str(numpy.asarray(v).dtype)]
                  for k, v in target.items())


@pytest.mark.parametrize('name', sorted(REFERENCE))
def test_saved_keys_shapes_dtypes_and_param_order_equal_chainer(monkeypatch, name):
    cls, _, variant = name.partition('_')
    kwargs = {'downsample_fb': True} if variant else {}
    model = _build_unloaded(monkeypatch, getattr(L, cls), **kwargs)
    ref = REFERENCE[name]
    assert _saved(model) == sorted(ref['saved'])
    assert [[n, list(p.shape)] for n, p in model.namedparams()] == ref['params']
    assert model.available_layers == ref['available_layers']
    assert list(model.functions) == ref['functions']


@pytest.fixture(scope='module')
def resnet50():
    numpy.random.seed(0)
    return L.ResNet50Layers(pretrained_model=None)


def _forward_shapes(model, shape, layers):
    with chainer.using_config('train', False), chainer.no_backprop_mode():
        outs = model(numpy.zeros(shape, numpy.float32), layers=layers)
    return {k: list(v.shape) for k, v in outs.items()}


def test_resnet50_forward_on_small_images(resnet50):
    model = resnet50
    shapes = _forward_shapes(model, (2, 3, 32, 32), model.available_layers)
    assert shapes['conv1'] == [2, 64, 16, 16] and shapes['pool1'] == [2, 64, 8, 8]
    assert shapes['res2'] == [2, 256, 8, 8] and shapes['res5'] == [2, 2048, 1, 1]
    assert shapes['pool5'] == [2, 2048] and shapes['prob'] == [2, 1000]
    assert list(_forward_shapes(model, (1, 3, 32, 32), None)) == ['prob']


def test_resnet_downsample_fb_moves_the_stride(monkeypatch, resnet50):
    model = _build_unloaded(monkeypatch, L.ResNet50Layers, downsample_fb=True)
    assert model.res3.a.conv1.stride == (1, 1) and model.res3.a.conv2.stride == (2, 2)
    plain = resnet50
    assert plain.res3.a.conv1.stride == (2, 2) and plain.res3.a.conv2.stride == (1, 1)


def test_googlenet_forward_all_layers():
    model = L.GoogLeNet(pretrained_model=None)
    ref = REFERENCE['GoogLeNet']
    shape = (1,) + tuple(ref['input_shape'][1:])
    assert _forward_shapes(model, shape, model.available_layers) == ref['output_shapes']
    # the auxiliary classifiers branch off inception_4a / 4d, not off prob
    with chainer.using_config('train', False):
        x = numpy.random.uniform(-1, 1, shape).astype(numpy.float32)
        both = model(x, layers=['loss1_fc2', 'inception_4a'])
        alone = model.loss1_fc2(chainer.functions.relu(model.loss1_fc1(chainer.functions.relu(
            model.loss1_conv(googlenet._average_pooling_2d_k5(both['inception_4a']))))))
    numpy.testing.assert_allclose(both['loss1_fc2'].array, alone.array, rtol=1e-5, atol=1e-6)


def test_vgg16_convolutions_on_small_images(monkeypatch):
    model = _build_unloaded(monkeypatch, L.VGG16Layers)
    shapes = _forward_shapes(model, (1, 3, 32, 32), ['conv3_3', 'pool5'])
    assert shapes == {'conv3_3': [1, 256, 8, 8], 'pool5': [1, 512, 1, 1]}


@attr.slow
@pytest.mark.parametrize('name', ['VGG16Layers', 'VGG19Layers', 'ResNet101Layers',
                                  'ResNet152Layers'])
def test_full_size_forward(name):
    model = getattr(L, name)(pretrained_model=None)
    ref = REFERENCE[name]
    assert _forward_shapes(model, ref['input_shape'], model.available_layers) == \
        ref['output_shapes']


def test_forward_bad_arguments_name_the_model(monkeypatch, resnet50):
    model = resnet50
    x = numpy.zeros((1, 3, 32, 32), numpy.float32)
    with pytest.raises(ValueError, match="ResNet50Layers has no layer"):
        model(x, layers=['res9'])
    with pytest.raises(ValueError, match='test argument'):
        model(x, test=True)
    with pytest.raises(ValueError, match='volatile'):
        model.extract([numpy.zeros((8, 8, 3), numpy.uint8)], volatile=True)
    with pytest.raises(TypeError):
        _build_unloaded(monkeypatch, L.GoogLeNet)(x, test=True)


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


class _TinyModel(_common.VisionModel, chainer.Chain):
    # The layer protocol on a model small enough to run on ten 224x224 crops.
    _mean = (0., 0., 0.)

    @property
    def functions(self):
        return {'mean': [lambda x: chainer.functions.mean(x, axis=(2, 3))],
                'prob': [chainer.functions.softmax]}


def test_predict_averages_the_ten_crops():
    model = _TinyModel()
    image = numpy.random.randint(0, 255, (256, 256, 3)).astype(numpy.uint8)
    y = model.predict([image, image[::-1]])
    assert y.shape == (2, 3)
    x = _common.prepare_image(image, (256, 256), model._mean)[None]
    from chainer.utils import imgproc
    crops = imgproc.oversample(x, (224, 224))
    expected = chainer.functions.softmax(crops.mean(axis=(2, 3))).array.mean(axis=0)
    numpy.testing.assert_allclose(y.array[0], expected, rtol=1e-5)
    center = model.predict([image], oversample=False)
    numpy.testing.assert_allclose(
        center.array[0],
        chainer.functions.softmax(x[:, :, 16:240, 16:240].mean(axis=(2, 3))).array[0],
        rtol=1e-5)


@pytest.mark.parametrize('module,mean', [(vgg, (103.939, 116.779, 123.68)),
                                         (googlenet, (104.0, 117.0, 123.0)),
                                         (resnet, (103.063, 115.903, 123.152))])
def test_prepare(module, mean):
    rgb = numpy.zeros((6, 4, 3), numpy.uint8)
    rgb[..., 0] = 10    # red
    y = module.prepare(rgb, size=None)
    assert y.shape == (3, 6, 4) and y.dtype == numpy.float32
    # BGR order: red ends up in channel 2
    numpy.testing.assert_allclose(y[:, 0, 0], numpy.array([0, 0, 10]) - numpy.array(mean),
                                  rtol=1e-6)
    assert module.prepare(rgb).shape == (3, 224, 224)
    assert module.prepare(rgb, size=(8, 5)).shape == (3, 5, 8)
    assert module.prepare(numpy.zeros((6, 4), numpy.uint8), size=None).shape == (3, 6, 4)
    assert module.prepare(numpy.zeros((1, 6, 4), numpy.float32), size=None).shape == (3, 6, 4)
    chw = module.prepare(rgb.transpose(2, 0, 1).copy(), size=None)
    numpy.testing.assert_array_equal(chw, y)
    with chainer.using_config('dtype', numpy.float16):
        assert module.prepare(rgb, size=None).dtype == numpy.float16


def test_copy_keeps_the_layer_table_on_the_copy(resnet50):
    model = resnet50
    copied = model.copy()
    assert copied.conv1 is copied.functions['conv1'][0]
    assert copied.res2.a is getattr(copied.res2, copied.res2._forward[0])
    assert copied.conv1 is not model.conv1


def test_pretrained_auto_missing_names_file_and_place(tmp_path, monkeypatch):
    monkeypatch.setattr(download, '_dataset_root', str(tmp_path))
    for cls, fname in ((L.ResNet50Layers, 'ResNet-50-model.npz'),
                       (L.GoogLeNet, 'bvlc_googlenet.npz')):
        with pytest.raises(FileNotFoundError) as e:
            cls()
        place = os.path.join(str(tmp_path), 'pfnet', 'chainer', 'models', fname)
        assert fname in str(e.value) and place in str(e.value)
        assert cls.__name__ in str(e.value)
    with pytest.raises(FileNotFoundError, match='nowhere.npz'):
        L.GoogLeNet(pretrained_model=str(tmp_path / 'nowhere.npz'))
    with pytest.raises(RuntimeError, match='not supported'):
        L.ResNet50Layers.convert_caffemodel_to_npz('a.caffemodel', 'a.npz')


def test_pretrained_auto_and_path_load_the_weights(tmp_path, monkeypatch):
    src = L.GoogLeNet(pretrained_model=None)
    models_dir = tmp_path / 'pfnet' / 'chainer' / 'models'
    models_dir.mkdir(parents=True)
    path = str(models_dir / 'bvlc_googlenet.npz')
    serializers.save_npz(path, src, compression=False)
    monkeypatch.setattr(download, '_dataset_root', str(tmp_path))
    for model in (L.GoogLeNet(), L.GoogLeNet(pretrained_model=path)):
        for (n, p), (m, q) in zip(src.namedparams(), model.namedparams()):
            assert n == m
            numpy.testing.assert_array_equal(p.array, q.array)
