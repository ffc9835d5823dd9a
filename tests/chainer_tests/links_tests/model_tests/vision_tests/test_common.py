"""What the vision models share (_common): predict's ten crops, pretrained-weight lookup."""
import os

import numpy
import pytest

import chainer
from chainer.dataset import download
import chainer.links as L
from chainer.links.model.vision import _common
from chainer import serializers


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
