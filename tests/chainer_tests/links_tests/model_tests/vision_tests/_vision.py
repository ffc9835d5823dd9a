"""What the vision models' tests share: the structure Chainer 7.8.1 saves
(tests/fixtures/vision_models.json, written by tests/fixtures/make_vision_models.py), builds
without the pretrained weights, and the checks run on every model."""
import json
import os

import numpy

import chainer
import chainer.links as L
from chainer.links.model.vision import _common
from chainer import serializers

with open(os.path.join(os.path.dirname(__file__), '..', '..', '..', '..', 'fixtures',
                       'vision_models.json')) as _f:
    REFERENCE = json.load(_f)


def build_unloaded(monkeypatch, cls, **kwargs):
    # A pretrained build initializes with zeros (cheap); skip the loading itself.
    monkeypatch.setattr(_common, 'load_pretrained', lambda *args: None)
    return cls(pretrained_model='given', **kwargs)


def _saved(model):
    target = {}
    serializers.DictionarySerializer(target).save(model)
    return sorted([k, list(numpy.shape(v)), str(numpy.asarray(v).dtype)]
                  for k, v in target.items())


def forward_shapes(model, shape, layers):
    with chainer.using_config('train', False), chainer.no_backprop_mode():
        outs = model(numpy.zeros(shape, numpy.float32), layers=layers)
    return {k: list(v.shape) for k, v in outs.items()}


def check_saved_structure(monkeypatch, name):
    """The saved keys, shapes and dtypes, parameter order and layers equal Chainer's."""
    cls, _, variant = name.partition('_')
    kwargs = {'downsample_fb': True} if variant else {}
    model = build_unloaded(monkeypatch, getattr(L, cls), **kwargs)
    ref = REFERENCE[name]
    assert _saved(model) == sorted(ref['saved'])
    assert [[n, list(p.shape)] for n, p in model.namedparams()] == ref['params']
    assert model.available_layers == ref['available_layers']
    assert list(model.functions) == ref['functions']


def check_full_size_forward(name):
    model = getattr(L, name)(pretrained_model=None)
    ref = REFERENCE[name]
    assert forward_shapes(model, ref['input_shape'], model.available_layers) == \
        ref['output_shapes']


def check_prepare(module, mean):
    """prepare: BGR, mean subtracted, CHW, resized; any input layout; config dtype."""
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
