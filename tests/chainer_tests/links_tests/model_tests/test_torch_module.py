"""L.TorchModule: a torch.nn.Module inside a Chainer model, on the same memory.

A mixed model is checked against the same model written in pure Chainer and in pure PyTorch:
outputs, every gradient, training steps, and double backprop."""
import numpy
import pytest

import chainer
from chainer import backend
import chainer.functions as F
from chainer import gradient_check
import chainer.links as L
from chainer import serializers
from chainer.links.model import torch_module
from chainer.testing import attr

torch = pytest.importorskip('torch', reason='PyTorch is not installed')
nn = torch.nn
pytestmark = pytest.mark.torch

TOL = {numpy.float32: dict(rtol=1e-5, atol=1e-6), numpy.float64: dict(rtol=1e-10, atol=1e-12)}


def _address(array):
    if isinstance(array, numpy.ndarray):
        return array.__array_interface__['data'][0]
    return array.data.ptr


def _torch_dtype(dtype):
    return getattr(torch, numpy.dtype(dtype).name)


class Mixed(chainer.Chain):
    """Linear -> [torch: Linear, Tanh, Linear] -> relu -> Linear."""

    def __init__(self, dtype, seed=0):
        super().__init__()
        torch.manual_seed(seed)
        inner = nn.Sequential(nn.Linear(5, 6), nn.Tanh(), nn.Linear(6, 6)).to(
            _torch_dtype(dtype))
        with self.init_scope():
            init = dict(initialW=chainer.initializers.Normal(1.0, dtype),
                        initial_bias=chainer.initializers.Zero(dtype))
            self.l1 = L.Linear(4, 5, **init)
            self.inner = L.TorchModule(inner)
            self.l3 = L.Linear(6, 3, **init)
        for b in (self.l1.b, self.l3.b):
            b.array[...] = numpy.random.RandomState(seed).randn(*b.shape)

    def forward(self, x):
        return self.l3(F.relu(self.inner(self.l1(x))))


def _pure_chainer(mixed):
    # The same function with Chainer links only (copies of the weights).
    inner = mixed.inner.module
    a, b = L.Linear(5, 6), L.Linear(6, 6)
    for link, module in ((a, inner[0]), (b, inner[2])):
        link.W.array = module.weight.detach().numpy().copy()
        link.b.array = module.bias.detach().numpy().copy()
    l1 = mixed.l1.copy('copy')
    l3 = mixed.l3.copy('copy')
    return chainer.Sequential(l1, a, F.tanh, b, F.relu, l3)


def _pure_torch(mixed):
    dtype = mixed.l1.W.dtype
    inner = mixed.inner.module

    def linear(link_or_module):
        if isinstance(link_or_module, nn.Linear):
            m = nn.Linear(link_or_module.in_features, link_or_module.out_features)
            m.load_state_dict(link_or_module.state_dict())
            return m.to(_torch_dtype(dtype))
        W, b = link_or_module.W.array, link_or_module.b.array
        m = nn.Linear(W.shape[1], W.shape[0]).to(_torch_dtype(dtype))
        with torch.no_grad():
            m.weight.copy_(torch.from_numpy(W))
            m.bias.copy_(torch.from_numpy(b))
        return m

    return nn.Sequential(linear(mixed.l1), linear(inner[0]), nn.Tanh(), linear(inner[2]),
                         nn.ReLU(), linear(mixed.l3))


def _data(dtype, n=7, seed=1):
    rng = numpy.random.RandomState(seed)
    return rng.randn(n, 4).astype(dtype), rng.randint(0, 3, n).astype(numpy.int32)


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_mixed_model_equals_pure_chainer_and_pure_torch(dtype):
    mixed = Mixed(dtype)
    x, t = _data(dtype)
    xv = chainer.Variable(x)
    loss = F.softmax_cross_entropy(mixed(xv), t)
    mixed.cleargrads()
    loss.backward()

    pure = _pure_chainer(mixed)
    pure.cleargrads()
    xc = chainer.Variable(x)
    loss_c = F.softmax_cross_entropy(pure(xc), t)
    loss_c.backward()

    pt = _pure_torch(mixed)
    xt = torch.from_numpy(x).requires_grad_(True)
    loss_t = nn.functional.cross_entropy(pt(xt), torch.from_numpy(t).long())
    loss_t.backward()

    tol = TOL[dtype]
    numpy.testing.assert_allclose(loss.array, loss_c.array, **tol)
    numpy.testing.assert_allclose(loss.array, loss_t.item(), **tol)
    numpy.testing.assert_allclose(xv.grad, xc.grad, **tol)
    numpy.testing.assert_allclose(xv.grad, xt.grad.numpy(), **tol)
    # Every parameter's gradient, in the order of the pure models' layers.
    mixed_grads = [mixed.l1.W.grad, mixed.l1.b.grad,
                   getattr(mixed.inner, '0.weight').grad, getattr(mixed.inner, '0.bias').grad,
                   getattr(mixed.inner, '2.weight').grad, getattr(mixed.inner, '2.bias').grad,
                   mixed.l3.W.grad, mixed.l3.b.grad]
    chainer_grads = [p.grad for layer in (pure[0], pure[1], pure[3], pure[5])
                     for p in (layer.W, layer.b)]
    torch_grads = [p.grad.numpy() for p in pt.parameters()]
    for got, c, t_ in zip(mixed_grads, chainer_grads, torch_grads):
        numpy.testing.assert_allclose(got, c, **tol)
        numpy.testing.assert_allclose(got, t_, **tol)


def test_parameters_share_the_module_memory():
    mixed = Mixed(numpy.float32)
    module = mixed.inner.module
    assert sorted(name for name, _ in mixed.inner.namedparams()) == [
        '/0.bias', '/0.weight', '/2.bias', '/2.weight']
    for name, p in module.named_parameters():
        assert _address(getattr(mixed.inner, name).array) == p.data_ptr()


def test_chainer_optimizer_trains_the_module_in_place_as_torch_would():
    mixed = Mixed(numpy.float64)
    pt = _pure_torch(mixed)
    opt = chainer.optimizers.MomentumSGD(lr=0.1, momentum=0.9)
    opt.setup(mixed)
    opt_t = torch.optim.SGD(pt.parameters(), lr=0.1, momentum=0.9)
    module = mixed.inner.module
    addresses = [p.data_ptr() for p in module.parameters()]
    for step in range(3):
        x, t = _data(numpy.float64, seed=step)
        opt.update(lambda: F.softmax_cross_entropy(mixed(x), t))
        opt_t.zero_grad()
        nn.functional.cross_entropy(pt(torch.from_numpy(x)), torch.from_numpy(t).long()
                                    ).backward()
        opt_t.step()
    assert [p.data_ptr() for p in module.parameters()] == addresses
    numpy.testing.assert_allclose(module[0].weight.detach().numpy(),
                                  pt[1].weight.detach().numpy(), rtol=1e-10)
    numpy.testing.assert_allclose(module[2].bias.detach().numpy(),
                                  pt[3].bias.detach().numpy(), rtol=1e-10)
    numpy.testing.assert_allclose(mixed.l1.W.array, pt[0].weight.detach().numpy(), rtol=1e-10)


def _tanh_layer(x, W, b):
    return torch.tanh(x @ W.T + b) ** 2


@pytest.mark.parametrize('double', [False, True])
def test_torch_function_gradients_pass_the_numerical_check(double):
    # The node under every TorchModule call: first- and second-order gradients of a torch
    # function of several inputs against central differences.
    rng = numpy.random.RandomState(0)
    inputs = [rng.randn(5, 3), rng.randn(4, 3), rng.randn(4)]
    gy = rng.randn(5, 4)

    def f(*xs):
        return torch_module.TorchFunction(_tanh_layer).apply(xs)
    if double:
        ggx = [rng.randn(*a.shape) for a in inputs]
        gradient_check.check_double_backward(f, inputs, gy, ggx, dtype=numpy.float64,
                                             atol=1e-6, rtol=1e-5)
    else:
        gradient_check.check_backward(f, inputs, gy, dtype=numpy.float64, atol=1e-6,
                                      rtol=1e-5)


def test_double_backprop_equals_pure_chainer():
    mixed = Mixed(numpy.float64)
    pure = _pure_chainer(mixed)
    x, _ = _data(numpy.float64)
    grads = []
    for model in (mixed, pure):
        xv = chainer.Variable(x)
        y = F.sum(model(xv) ** 2)
        gx, = chainer.grad([y], [xv], enable_double_backprop=True)
        z = F.sum(gx * gx)
        ggx, = chainer.grad([z], [xv])
        grads.append((gx.array, ggx.array))
    numpy.testing.assert_allclose(grads[0][0], grads[1][0], rtol=1e-10)
    numpy.testing.assert_allclose(grads[0][1], grads[1][1], rtol=1e-8, atol=1e-12)


def test_recomputed_backward_replays_dropout_and_keeps_statistics():
    # Double backprop runs the module again: the dropout mask must be the same and
    # BatchNorm's running statistics must not move twice.
    torch.manual_seed(0)
    module = nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8), nn.Dropout(0.5),
                           nn.Linear(8, 2)).double()
    link = L.TorchModule(module)
    x = numpy.random.RandomState(0).randn(6, 4)
    grads = []
    stats = []
    for double in (False, True):
        torch.manual_seed(1)
        xv = chainer.Variable(x)
        y = F.sum(link(xv) ** 2)
        stats.append(module[1].running_mean.clone())
        gx, = chainer.grad([y], [xv], enable_double_backprop=double)
        grads.append(gx.array)
        assert torch.equal(module[1].running_mean, stats[-1])
    numpy.testing.assert_allclose(grads[0], grads[1], rtol=1e-12)


def test_train_mode_follows_chainer_config_and_buffers_are_persistent(tmp_path):
    torch.manual_seed(0)
    link = L.TorchModule(nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4)))
    assert link._persistent == {'1.running_mean', '1.running_var', '1.num_batches_tracked'}
    module = link.module
    x = numpy.random.RandomState(0).randn(8, 3).astype(numpy.float32)
    with chainer.using_config('train', False):
        link(x)
    assert not module.training and int(module[1].num_batches_tracked) == 0
    link(x)
    assert module.training and int(module[1].num_batches_tracked) == 1
    # The persistent values are the buffers' memory.
    mean = getattr(link, '1.running_mean')
    assert _address(mean) == module[1].running_mean.data_ptr()
    assert numpy.abs(mean).sum() > 0

    path = str(tmp_path / 'mixed.npz')
    serializers.save_npz(path, link)
    torch.manual_seed(1)
    other = L.TorchModule(nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4)))
    serializers.load_npz(path, other)
    for key, value in module.state_dict().items():
        assert torch.equal(other.module.state_dict()[key], value), key
    with chainer.using_config('train', False):
        numpy.testing.assert_array_equal(other(x).array, link(x).array)


def test_replaced_arrays_are_bound_again():
    # An array replaced on the Chainer side (assignment, a device move...) is what torch
    # computes with at the next call.
    link = L.TorchModule(nn.Linear(3, 2, bias=False))
    link.weight.array = numpy.ones((2, 3), numpy.float32)
    y = link(numpy.ones((1, 3), numpy.float32))
    numpy.testing.assert_array_equal(y.array, [[3, 3]])
    assert link.module.weight.data_ptr() == _address(link.weight.array)


def test_tuple_outputs_other_arguments_and_keywords():
    class Split(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin = nn.Linear(3, 4)

        def forward(self, x, scale, shift=0.0):
            h = self.lin(x) * scale + shift
            return h[:, :2], h[:, 2:]

    link = L.TorchModule(Split())
    x = chainer.Variable(numpy.random.RandomState(0).randn(5, 3).astype(numpy.float32))
    a, b = link(x, 2.0, shift=1.0)
    expected = link.module(torch.from_numpy(x.array), 2.0, shift=1.0)
    numpy.testing.assert_allclose(a.array, expected[0].detach().numpy(), rtol=1e-6)
    F.sum(a).backward()             # only one output gets a gradient
    numpy.testing.assert_allclose(x.grad, numpy.tile(
        2 * link.module.lin.weight.detach().numpy()[:2].sum(0), (5, 1)), rtol=1e-6)


def test_no_backprop_mode_runs_torch_without_a_graph():
    link = L.TorchModule(nn.Linear(3, 2))
    with chainer.no_backprop_mode():
        y = link(numpy.ones((1, 3), numpy.float32))
    assert y.creator is None


def test_integer_inputs_get_no_gradient():
    link = L.TorchModule(nn.Embedding(5, 3))
    ids = numpy.array([0, 2, 2], numpy.int64)
    y = link(ids)
    F.sum(y).backward()
    numpy.testing.assert_array_equal(link.weight.grad[:3], [[1] * 3, [0] * 3, [2] * 3])


@pytest.mark.parametrize('bad, error, message', [
    (lambda: L.TorchModule(L.Linear(2, 3)), TypeError, 'requires a torch.nn.Module'),
    (lambda: L.TorchModule(nn.LazyLinear(3)), ValueError, 'not initialized yet'),
])
def test_bad_arguments(bad, error, message):
    with pytest.raises(error, match=message):
        bad()


@attr.gpu
def test_on_gpu_runs_on_the_same_cuda_memory():
    if not torch.cuda.is_available():
        pytest.skip('PyTorch has no CUDA here')
    mixed = Mixed(numpy.float32)
    x, t = _data(numpy.float32)
    loss_cpu = F.softmax_cross_entropy(mixed(x), t)
    mixed.cleargrads()
    loss_cpu.backward()
    grad_cpu = getattr(mixed.inner, '0.weight').grad.copy()
    mixed.to_device('@cupy:0')
    device = backend.get_device('@cupy:0')
    loss = F.softmax_cross_entropy(mixed(device.send(x)), device.send(t))
    mixed.cleargrads()
    loss.backward()
    weight = getattr(mixed.inner, '0.weight')
    assert mixed.inner.module[0].weight.is_cuda
    assert mixed.inner.module[0].weight.data_ptr() == weight.array.data.ptr
    numpy.testing.assert_allclose(float(loss.array), float(loss_cpu.array), rtol=1e-5)
    numpy.testing.assert_allclose(chainer.backends.cuda.to_cpu(weight.grad), grad_cpu,
                                  rtol=1e-4, atol=1e-6)
