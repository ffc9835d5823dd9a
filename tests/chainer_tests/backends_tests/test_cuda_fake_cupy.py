"""The CuPy code paths of chainer.backend and chainer.backends.cuda, run on the CPU.

A small NumPy-backed stand-in for CuPy (several fake GPUs, arrays that know
their device, kernels that record their arguments) is put in ``sys.modules``,
so the GPU-side logic (device resolution, transfers between devices, caching)
is exercised without a GPU. Real-CuPy checks live in test_cuda_gpu.py.
"""
import sys
import types
import warnings

import numpy
import pytest

from chainer import backend
from chainer.backends import cuda


# -- the fake ---------------------------------------------------------------------

class FakeDevice:
    current = 0

    def __init__(self, device=None):
        self.id = FakeDevice.current if device is None else int(device)
        self._previous = []

    def use(self):
        FakeDevice.current = self.id

    def __enter__(self):
        self._previous.append(FakeDevice.current)
        self.use()
        return self

    def __exit__(self, *exc):
        FakeDevice.current = self._previous.pop()

    def synchronize(self):
        pass

    def __eq__(self, other):
        return isinstance(other, FakeDevice) and other.id == self.id

    def __hash__(self):
        return hash(self.id)


class FakeArray:
    """A "GPU array": a NumPy array tagged with the device it was made on."""

    def __init__(self, data):
        self.data_ = numpy.array(data)
        self.device_id = FakeDevice.current

    @property
    def device(self):
        return FakeDevice(self.device_id)

    shape = property(lambda self: self.data_.shape)
    dtype = property(lambda self: self.data_.dtype)
    flags = property(lambda self: self.data_.flags)

    def get(self, stream=None):
        return self.data_.copy()

    def copy(self):
        return FakeArray(self.data_)  # lands on the current device, as in CuPy

    def set(self, arr, stream=None):
        if arr.shape != self.shape or arr.dtype != self.dtype:
            raise ValueError('set needs the same shape and dtype')
        self.data_[...] = arr
        self.set_stream = stream


class FakeStream:
    entered = 0

    def __enter__(self):
        FakeStream.entered += 1
        return self

    def __exit__(self, *exc):
        pass


class FakeKernel:
    def __init__(self, *args, **kwargs):
        self.args, self.kwargs = args, kwargs
        self.device_id = FakeDevice.current


def _copyto(dst, src):
    if isinstance(src, numpy.ndarray):
        raise TypeError('the fake, like CuPy, does not copy from NumPy arrays')
    dst.data_[...] = src.data_ if isinstance(src, FakeArray) else src


def make_fake_cupy():
    cupy = types.ModuleType('cupy')
    cupy.ndarray = FakeArray
    cupy.asarray = lambda a: a if isinstance(a, FakeArray) else FakeArray(a)
    cupy.empty = lambda shape, dtype: FakeArray(numpy.empty(shape, dtype))
    cupy.empty_like = lambda a: FakeArray(numpy.empty_like(a.data_))
    cupy.copyto = _copyto
    cupy.get_array_module = lambda *args: (
        cupy if any(isinstance(a, FakeArray) for a in args) else numpy)
    cupy.ElementwiseKernel = type('ElementwiseKernel', (FakeKernel,), {})
    cupy.ReductionKernel = type('ReductionKernel', (FakeKernel,), {})
    cupy.RawKernel = type('RawKernel', (FakeKernel,), {})
    cupy.cleared = 0

    def clear_memo():
        cupy.cleared += 1

    cupy.clear_memo = clear_memo
    cupy.fused = []

    def fuse(**kwargs):
        def decorator(f):
            cupy.fused.append((f.__name__, kwargs))
            return lambda *args: ('fused', f.__name__)
        return decorator

    cupy.fuse = fuse
    cupy.get_default_memory_pool = lambda: 'pool'
    cupy.get_default_pinned_memory_pool = lambda: 'pinned pool'
    cupy_cuda = types.ModuleType('cupy.cuda')
    cupy_cuda.Device = FakeDevice
    cupy_cuda.Stream = FakeStream
    cupy_cuda.Event = type('Event', (), {})
    cupy_cuda.get_device_id = lambda: FakeDevice.current
    cupy.cuda = cupy_cuda
    return cupy


def _reset_cuda_module():
    for name in cuda._LAZY_NAMES | set(cuda._POOL_FACTORIES):
        vars(cuda).pop(name, None)
    cuda._cupy = None
    cuda._import_error = None
    cuda._tried = False
    for memo in list(cuda._memos):
        memo.clear()


@pytest.fixture
def xp(monkeypatch):
    cupy = make_fake_cupy()
    monkeypatch.setitem(sys.modules, 'cupy', cupy)
    monkeypatch.setitem(sys.modules, 'cupy.cuda', cupy.cuda)
    monkeypatch.setitem(sys.modules, 'cupyx', types.ModuleType('cupyx'))
    FakeDevice.current = 0
    _reset_cuda_module()
    yield cupy
    _reset_cuda_module()


def on(device_id, data):
    with FakeDevice(device_id):
        return FakeArray(data)


# -- cuda module attributes ---------------------------------------------------------

def test_lazy_names_resolve_to_cupy(xp):
    assert cuda.available is True
    assert cuda.cupy is xp
    assert cuda.cuda is xp.cuda
    assert cuda.ndarray is FakeArray
    assert cuda.Device is FakeDevice
    assert cuda.Stream is FakeStream
    assert cuda.memory_pool == 'pool'
    assert cuda.pinned_memory_pool == 'pinned pool'
    cuda.check_cuda_available()


# -- to_gpu / to_cpu / copy ---------------------------------------------------------

def test_to_gpu_current_device(xp):
    a = numpy.arange(3.0)
    g = cuda.to_gpu(a)
    assert isinstance(g, FakeArray) and g.device_id == 0
    numpy.testing.assert_array_equal(g.data_, a)
    assert cuda.to_gpu(g) is g
    with FakeDevice(1):
        assert cuda.to_gpu(a).device_id == 1


@pytest.mark.parametrize('spec', [1, numpy.int64(1), '@cupy:1', FakeDevice(1)])
def test_to_gpu_device_specs(xp, spec):
    assert cuda.to_gpu(numpy.ones(2), device=spec).device_id == 1
    assert FakeDevice.current == 0


def test_to_gpu_gpu_device_spec(xp):
    device = backend.GpuDevice.from_device_id(2)
    assert cuda.to_gpu(numpy.ones(2), device=device).device_id == 2
    assert cuda.to_gpu(numpy.ones(2), device=cuda.DummyDevice).device_id == 0


def test_to_gpu_moves_between_gpus(xp):
    g0 = on(0, [1.0, 2.0])
    assert cuda.to_gpu(g0, device=0) is g0
    g1 = cuda.to_gpu(g0, device=1)
    assert g1 is not g0 and g1.device_id == 1
    numpy.testing.assert_array_equal(g1.data_, [1.0, 2.0])


def test_to_gpu_scalars_and_structures(xp):
    s = cuda.to_gpu(numpy.float32(2))
    assert isinstance(s, FakeArray) and s.shape == () and s.dtype == numpy.float32
    assert cuda.to_gpu(3).shape == ()
    a = numpy.ones(1)
    out = cuda.to_gpu([a, None, a])
    assert type(out) is list and out[1] is None and out[0] is out[2]
    out = cuda.to_gpu((a,))
    assert type(out) is tuple and isinstance(out[0], FakeArray)
    assert cuda.to_gpu(None) is None


def test_to_gpu_errors(xp):
    with pytest.raises(TypeError):
        cuda.to_gpu('text')
    with pytest.raises(ValueError):
        cuda.to_gpu(numpy.ones(1), device=-1)
    with pytest.raises(ValueError):
        cuda.to_gpu(numpy.ones(1), device='@numpy')
    with pytest.raises(TypeError):
        cuda.to_gpu(numpy.ones(1), device=1.5)


def test_to_gpu_with_stream(xp):
    stream = FakeStream()
    a = numpy.arange(6.0).reshape(2, 3)[:, ::2]  # non-contiguous source
    with pytest.warns(DeprecationWarning):
        g = cuda.to_gpu(a, stream=stream)
    assert g.set_stream is stream
    numpy.testing.assert_array_equal(g.data_, a)


def test_to_cpu(xp):
    g = on(1, [1.0, 2.0])
    c = cuda.to_cpu(g)
    assert isinstance(c, numpy.ndarray)
    numpy.testing.assert_array_equal(c, [1.0, 2.0])
    out = cuda.to_cpu({'a': [g, None]})
    assert isinstance(out['a'][0], numpy.ndarray) and out['a'][1] is None


def test_copy(xp):
    g = on(1, [1.0, 2.0])
    c = cuda.copy(g)
    assert c is not g and c.device_id == 1
    numpy.testing.assert_array_equal(c.data_, g.data_)
    assert cuda.copy(g, out_device=2).device_id == 2
    assert cuda.copy(g, out_device='@cupy:3').device_id == 3
    out = on(0, [0.0, 0.0])
    assert cuda.copy(g, out=out) is out
    numpy.testing.assert_array_equal(out.data_, [1.0, 2.0])
    FakeStream.entered = 0
    cuda.copy(g, stream=FakeStream())
    assert FakeStream.entered == 1
    with pytest.raises(TypeError):
        cuda.copy(numpy.ones(2))


# -- device lookup ------------------------------------------------------------------

def test_cuda_device_lookup(xp):
    assert cuda.get_device_from_id(1) == FakeDevice(1)
    assert cuda.get_device_from_id(-1) is cuda.DummyDevice
    g = on(2, [1.0])
    assert cuda.get_device_from_array(numpy.ones(1), g) == FakeDevice(2)
    assert cuda.get_device_from_array([numpy.ones(1), g]) == FakeDevice(2)
    with pytest.warns(DeprecationWarning):
        assert cuda.get_device(g) == FakeDevice(2)
    with pytest.warns(DeprecationWarning):
        assert cuda.get_device(FakeDevice(3)) == FakeDevice(3)
    with pytest.warns(DeprecationWarning):
        assert cuda.get_device('x', 1) == FakeDevice(1)


@pytest.mark.parametrize('spec', ['@cupy:1', 1, '1', numpy.int8(1), FakeDevice(1)])
def test_get_device_gpu(xp, spec):
    device = backend.get_device(spec)
    assert isinstance(device, backend.GpuDevice)
    assert device.device.id == 1
    assert device.name == '@cupy:1'
    assert str(device) == '@cupy:1'
    assert repr(device) == '<GpuDevice (cupy):1>'
    assert device.xp is xp
    assert device.supported_array_types == (FakeArray,)


def test_get_device_cupy_module_is_current_gpu(xp):
    with FakeDevice(2):
        assert backend.get_device(xp) == backend.GpuDevice.from_device_id(2)


def test_gpu_device_equality(xp):
    d1 = backend.GpuDevice.from_device_id(1)
    assert d1 == backend.get_device('@cupy:1')
    assert d1 != backend.get_device('@cupy:0')
    assert d1 != backend.CpuDevice()
    assert backend.CpuDevice() != d1
    assert len({d1, backend.get_device(1), backend.get_device(0)}) == 2
    with pytest.raises(TypeError):
        backend.GpuDevice(1)
    with pytest.raises(ValueError):
        backend.GpuDevice.from_device_id(-1)
    with pytest.raises(ValueError):
        backend.GpuDevice.from_device_id(True)


def test_gpu_device_send_use_and_context(xp):
    d1 = backend.get_device('@cupy:1')
    g = d1.send(numpy.ones(2))
    assert g.device_id == 1
    assert d1.send(g) is g
    moved = d1.send([on(0, [1.0]), None])
    assert moved[0].device_id == 1 and moved[1] is None
    assert d1.is_array_supported(g)
    assert not d1.is_array_supported(on(0, [1.0]))
    assert not d1.is_array_supported(numpy.ones(1))
    with backend.using_device('@cupy:1'):
        assert FakeDevice.current == 1
        with backend.using_device(2):
            assert FakeDevice.current == 2
        assert FakeDevice.current == 1
    assert FakeDevice.current == 0
    d1.use()
    assert FakeDevice.current == 1


def test_cpu_device_receives_gpu_arrays(xp):
    c = backend.CpuDevice().send(on(1, [3.0]))
    assert isinstance(c, numpy.ndarray)
    numpy.testing.assert_array_equal(c, [3.0])
    assert not backend.CpuDevice().is_array_supported(on(0, [1.0]))


def test_from_array(xp):
    g = on(1, [1.0])
    assert backend.GpuDevice.from_array(g) == backend.get_device('@cupy:1')
    assert backend.GpuDevice.from_array(numpy.ones(1)) is None
    assert backend.CpuDevice.from_array(g) is None
    assert backend.get_device_from_array(numpy.ones(1), g) == backend.get_device(1)
    assert backend.get_device_from_array(numpy.ones(1)) == backend.CpuDevice()


# -- get_array_module / copyto / compatibility ------------------------------------------

def test_get_array_module(xp, monkeypatch):
    g = on(0, [1.0])
    assert backend.get_array_module(g) is xp
    assert backend.get_array_module(numpy.ones(1), 2.0, g) is xp
    assert backend.get_array_module(numpy.ones(1), 2.0) is numpy
    assert backend.get_array_module() is numpy

    class Variable:
        def __init__(self, array):
            self.array = array

    fake_variable_module = types.SimpleNamespace(Variable=Variable)
    monkeypatch.setitem(sys.modules, 'chainer.variable', fake_variable_module)
    assert backend.get_array_module(Variable(g)) is xp
    assert backend.get_array_module(Variable(numpy.ones(1))) is numpy


def test_copyto(xp):
    dst = numpy.zeros(2)
    backend.copyto(dst, on(1, [1.0, 2.0]))
    numpy.testing.assert_array_equal(dst, [1.0, 2.0])

    g = on(1, [0.0, 0.0])
    backend.copyto(g, numpy.array([3.0, 4.0]))  # same shape and dtype: set()
    numpy.testing.assert_array_equal(g.data_, [3.0, 4.0])
    backend.copyto(g, numpy.array([5], numpy.int32))  # broadcast and cast
    numpy.testing.assert_array_equal(g.data_, [5.0, 5.0])
    backend.copyto(g, on(0, [6.0, 7.0]))
    numpy.testing.assert_array_equal(g.data_, [6.0, 7.0])
    backend.copyto(g, 8.0)
    numpy.testing.assert_array_equal(g.data_, [8.0, 8.0])
    with pytest.raises(TypeError):
        backend.copyto(g, 'text')


def test_is_arrays_compatible(xp):
    g = on(0, [1.0])
    assert backend.is_arrays_compatible([g, None, on(1, [2.0])])
    assert not backend.is_arrays_compatible([g, numpy.ones(1)])
    assert not backend.is_arrays_compatible([numpy.ones(1), g])


# -- kernels ------------------------------------------------------------------------------

def test_elementwise_is_cached_per_device(xp):
    k = cuda.elementwise('T x', 'T y', 'y = x', 'copy_kernel')
    assert isinstance(k, xp.ElementwiseKernel)
    assert k.args == ('T x', 'T y', 'y = x', 'copy_kernel')
    assert cuda.elementwise('T x', 'T y', 'y = x', 'copy_kernel') is k
    with FakeDevice(1):
        k1 = cuda.elementwise('T x', 'T y', 'y = x', 'copy_kernel')
    assert k1 is not k and k1.device_id == 1
    k_opt = cuda.elementwise('T x', 'T y', 'y = x', 'copy_kernel', preamble='//')
    assert k_opt is not k and k_opt.kwargs == {'preamble': '//'}
    cuda.clear_memo()
    assert xp.cleared == 1
    assert cuda.elementwise('T x', 'T y', 'y = x', 'copy_kernel') is not k


def test_reduce_and_raw(xp):
    r = cuda.reduce('T x', 'T y', 'x', 'a + b', 'y = a', '0', 'my_sum', reduce_type='float')
    assert isinstance(r, xp.ReductionKernel)
    assert r.args == ('T x', 'T y', 'x', 'a + b', 'y = a', '0', 'my_sum')
    assert r.kwargs == {'reduce_type': 'float'}
    assert cuda.reduce('T x', 'T y', 'x', 'a + b', 'y = a', '0', 'my_sum',
                       reduce_type='float') is r
    raw = cuda.raw('code', 'f', options=('-O3',))
    assert isinstance(raw, xp.RawKernel) and raw.args == ('code', 'f')
    assert cuda.raw('code', 'f', options=('-O3',)) is raw


def test_fuse_uses_cupy_fuse_for_gpu_arrays(xp):
    @cuda.fuse(kernel_name='k')
    def f(x, y):
        return x + y

    assert f(1, 2) == 3
    assert xp.fused == []  # NumPy-only calls never build the fused kernel
    assert f(on(0, [1.0]), 2) == ('fused', 'f')
    assert f(on(0, [1.0]), 2) == ('fused', 'f')
    assert xp.fused == [('f', {'kernel_name': 'k'})]
    assert f(numpy.ones(1), 1)[0] == 2


def test_warning_free_happy_path(xp):
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        cuda.to_cpu(cuda.to_gpu(numpy.ones(2), device=1))


def test_chainer_seed_seeds_cupy_on_load(monkeypatch):
    cupy = make_fake_cupy()
    seeds = []
    cupy.random = types.SimpleNamespace(seed=seeds.append)
    monkeypatch.setitem(sys.modules, 'cupy', cupy)
    monkeypatch.setitem(sys.modules, 'cupy.cuda', cupy.cuda)
    monkeypatch.setitem(sys.modules, 'cupyx', types.ModuleType('cupyx'))
    monkeypatch.setenv('CHAINER_SEED', '42')
    _reset_cuda_module()
    try:
        assert cuda.available
        assert seeds == [42]
    finally:
        _reset_cuda_module()
