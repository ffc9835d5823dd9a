"""L.GoogLeNet: structure, forward of every layer, arguments, prepare."""
import numpy
import pytest

import chainer
import chainer.links as L
from chainer_tests.links_tests.model_tests.vision_tests import _vision
from chainer.links.model.vision import googlenet


@pytest.mark.parametrize('name', ['GoogLeNet'])
def test_saved_keys_shapes_dtypes_and_param_order_equal_chainer(monkeypatch, name):
    _vision.check_saved_structure(monkeypatch, name)


def test_googlenet_forward_all_layers():
    model = L.GoogLeNet(pretrained_model=None)
    ref = _vision.REFERENCE['GoogLeNet']
    shape = (1,) + tuple(ref['input_shape'][1:])
    assert _vision.forward_shapes(model, shape, model.available_layers) == ref['output_shapes']
    # the auxiliary classifiers branch off inception_4a / 4d, not off prob
    with chainer.using_config('train', False):
        x = numpy.random.uniform(-1, 1, shape).astype(numpy.float32)
        both = model(x, layers=['loss1_fc2', 'inception_4a'])
        alone = model.loss1_fc2(chainer.functions.relu(model.loss1_fc1(chainer.functions.relu(
            model.loss1_conv(googlenet._average_pooling_2d_k5(both['inception_4a']))))))
    numpy.testing.assert_allclose(both['loss1_fc2'].array, alone.array, rtol=1e-5, atol=1e-6)


def test_forward_refuses_the_test_argument(monkeypatch):
    x = numpy.zeros((1, 3, 32, 32), numpy.float32)
    with pytest.raises(TypeError):
        _vision.build_unloaded(monkeypatch, L.GoogLeNet)(x, test=True)


def test_prepare():
    _vision.check_prepare(googlenet, (104.0, 117.0, 123.0))
