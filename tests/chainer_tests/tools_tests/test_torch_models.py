"""chainer.tools.torch_models: the PyTorch equivalents of the vision models compute what
L.ResNet50Layers and L.VGG16Layers compute, with weights converted either way.

The issue's tolerance (rtol 1e-5, atol 1e-6) holds at every layer in float64. In float32,
fifty layers of random weights accumulate rounding (about 1e-4 of the output's scale at
ResNet-50's fc6, the same order between any two convolution implementations), so float32
runs are checked against that scale: the layer-by-layer float32 conversions themselves are
checked at the issue's tolerance in test_convert_checkpoint.py."""
import numpy
import pytest

import chainer
import chainer.links as L
from chainer.links.model.vision import _common
from chainer.serializers import npz

torch = pytest.importorskip('torch', reason='PyTorch is not installed')
from chainer.tools import convert_checkpoint as cc  # NOQA  (after the skip: needs torch)
from chainer.tools import torch_models  # NOQA

pytestmark = pytest.mark.torch

TOL = {numpy.float64: dict(rtol=1e-5, atol=1e-6)}
FLOAT32_SCALE = 1e-3    # max |difference| / max |output| in float32 (see above)


@pytest.fixture(autouse=True)
def _one_thread():
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(n)


def _chainer_model(monkeypatch, cls):
    # Zero weights without a file (cheaper than the random initializers), set below.
    monkeypatch.setattr(_common, 'load_pretrained', lambda *args: None)
    return cls(pretrained_model='given')


def _randomize(model, rng, dtype):
    """He-scaled weights, small biases and BatchNorm scales, so that every layer's values
    stay of order one. The weights repeat one random draw whose length, a prime, lines up
    with no axis: drawing VGG's 138 million values would take most of the test's time."""
    pool = rng.standard_normal(1_000_003).astype(dtype)
    for i, link in enumerate(model.links()):
        if isinstance(link, (L.Convolution2D, L.Linear)):
            W = link.W.array
            values = numpy.resize(numpy.roll(pool, 7919 * i), W.size).reshape(W.shape)
            link.W.array = values * dtype(numpy.sqrt(2 / W[0].size))
            if link.b is not None:
                link.b.array = (rng.standard_normal(link.b.shape) * 0.1).astype(dtype)
        elif isinstance(link, L.BatchNormalization):
            link.gamma.array = rng.uniform(0.5, 1.5, link.gamma.shape).astype(dtype)
            link.beta.array = (rng.standard_normal(link.beta.shape) * 0.1).astype(dtype)
            link.avg_mean = link.avg_mean.astype(dtype)
            link.avg_var = link.avg_var.astype(dtype)


def _batch_statistics(model, x):
    # One training-mode pass with decay 0: the running statistics become the batch's.
    bns = [link for link in model.links() if isinstance(link, L.BatchNormalization)]
    for bn in bns:
        bn.decay = 0.0
    with chainer.no_backprop_mode():
        model(x, layers=[model.available_layers[-1]])
    for bn in bns:
        bn.decay = 0.9


def _compare(chainer_model, torch_model, x, layers, dtype):
    torch_model.eval()
    with chainer.using_config('train', False), chainer.no_backprop_mode():
        expected = chainer_model(x, layers=layers)
    with torch.no_grad():
        got = torch_model(torch.from_numpy(x), layers=layers)
    assert set(got) == set(layers)
    for name in layers:
        a, b = expected[name].array, got[name].numpy()
        assert a.dtype == b.dtype == dtype and a.shape == b.shape, name
        if dtype == numpy.float64:
            numpy.testing.assert_allclose(b, a, err_msg=name, **TOL[dtype])
        else:
            assert numpy.abs(a - b).max() <= FLOAT32_SCALE * numpy.abs(a).max(), name


RESNET_LAYERS = ['conv1', 'pool1', 'res2', 'res3', 'res4', 'res5', 'pool5', 'fc6', 'prob']


@pytest.mark.parametrize('downsample_fb', [False, True])
@pytest.mark.parametrize('dtype', [numpy.float64, numpy.float32])
def test_resnet50_converted_to_torch(monkeypatch, dtype, downsample_fb):
    rng = numpy.random.default_rng(0)
    model = _chainer_model(monkeypatch, lambda **kw: L.ResNet50Layers(
        downsample_fb=downsample_fb, **kw))
    _randomize(model, rng, dtype)
    x = rng.uniform(-128, 128, (3, 3, 61, 64)).astype(dtype)     # odd sizes: pooling edges
    _batch_statistics(model, x)
    state = cc.chainer_to_torch(npz.serialize(model))            # from the file's entries
    module = torch_models.ResNet50(downsample_fb=downsample_fb).to(
        getattr(torch, numpy.dtype(dtype).name))
    module.load_state_dict({k: torch.from_numpy(v) for k, v in state.items()})
    _compare(model, module, x, RESNET_LAYERS, dtype)
    assert torch.equal(module.bn1.running_var, torch.from_numpy(model.bn1.avg_var))


def test_resnet50_converted_from_torch(monkeypatch):
    torch.manual_seed(0)
    module = torch_models.ResNet50().double()
    x = numpy.random.default_rng(1).uniform(-128, 128, (2, 3, 64, 64))
    with torch.no_grad():
        module.train()
        for m in module.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.momentum = 1.0         # running statistics of this batch
        module(torch.from_numpy(x))
    model = _chainer_model(monkeypatch, L.ResNet50Layers)
    model.to_device('@numpy')
    for p in model.params():
        p.array = p.array.astype(numpy.float64)
    for link in model.links():
        if isinstance(link, L.BatchNormalization):
            link.avg_mean = link.avg_mean.astype(numpy.float64)
            link.avg_var = link.avg_var.astype(numpy.float64)
    cc.load_state_dict(model, module.state_dict())
    _compare(model, module, x, RESNET_LAYERS, numpy.float64)


def test_resnet_equivalent_is_not_torchvision_layout():
    # The stride sits on the first 1x1 convolution of a stage's first unit, conv1 has a
    # bias, and pool1 has no padding.
    module = torch_models.ResNet50()
    assert module.res3.a.conv1.stride == (2, 2) and module.res3.a.conv2.stride == (1, 1)
    assert module.conv1.bias is not None and module.bn1.eps == 2e-5
    fb = torch_models.ResNet50(downsample_fb=True)
    assert fb.res3.a.conv1.stride == (1, 1) and fb.res3.a.conv2.stride == (2, 2)
    assert sorted(module.state_dict()) == sorted(cc.chainer_to_torch(
        npz.serialize(L.ResNet50Layers(pretrained_model=None))))


def test_torch_module_of_a_vision_model(monkeypatch):
    model = _chainer_model(monkeypatch, L.ResNet50Layers)
    _randomize(model, numpy.random.default_rng(2), numpy.float32)
    module = cc.torch_module(model)
    assert isinstance(module, torch_models.ResNet)
    numpy.testing.assert_array_equal(module.res4.b5.conv2.weight.detach().numpy(),
                                     model.res4.b5.conv2.W.array)


def test_unknown_layer_names_are_refused():
    with pytest.raises(ValueError, match="no layer.*'fc9'"):
        torch_models.ResNet50()(torch.zeros(1, 3, 64, 64), layers=['fc9'])


@pytest.mark.slow
@pytest.mark.parametrize('dtype', [numpy.float64])
def test_vgg16_both_ways(monkeypatch, dtype):
    rng = numpy.random.default_rng(0)
    model = _chainer_model(monkeypatch, L.VGG16Layers)
    _randomize(model, rng, dtype)
    x = rng.uniform(-128, 128, (1, 3, 193, 199)).astype(dtype)   # pooling covers the edges
    layers = ['conv1_2', 'pool1', 'pool3', 'pool5', 'fc6', 'fc7', 'fc8', 'prob']
    module = cc.torch_module(model)
    _compare(model, module, x, layers, dtype)
    # and back: PyTorch's weights into the Chainer model, emptied first
    for p in model.params():
        p.array[...] = 0
    cc.load_state_dict(model, module.state_dict())
    _compare(model, module, x, ['fc8'], dtype)
