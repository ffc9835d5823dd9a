"""chainer.backend on a machine without CuPy (the GPU side is in backends_tests)."""
import subprocess
import sys

import numpy
import pytest

import chainer
import chainerx
from chainer import backend
from chainer.backends import cuda
from chainer.backends import intel64

try:
    import cupy  # NOQA
    _has_cupy = True
except Exception:
    _has_cupy = False

needs_no_cupy = pytest.mark.skipif(_has_cupy, reason='checks the behaviour without CuPy')


class _HasArray:
    def __init__(self, array):
        self.array = array


# -- get_array_module ---------------------------------------------------------

@pytest.mark.parametrize('args', [
    (numpy.ones(3),),
    (numpy.ones(3), numpy.zeros((2, 2))),
    (1,),
    (2.5, numpy.float32(1)),
    (None,),
    (_HasArray(numpy.ones(2)),),
    ('text', object()),
    (),
])
def test_get_array_module_numpy(args):
    assert backend.get_array_module(*args) is numpy


def test_cuda_get_array_module_is_the_same():
    assert cuda.get_array_module(numpy.ones(1)) is numpy


# -- get_device ---------------------------------------------------------------

@pytest.mark.parametrize('spec', ['@numpy', -1, '-1', -3, numpy.int64(-1), numpy])
def test_get_device_cpu(spec):
    device = backend.get_device(spec)
    assert isinstance(device, backend.CpuDevice)
    assert device == backend.CpuDevice()


def test_copy_to_dummy_device_goes_to_the_cpu():
    # The legacy "no GPU" object names the CPU for F.copy only; as in Chainer, it is not a
    # device specifier elsewhere.
    y = chainer.functions.copy(numpy.zeros((2, 3), numpy.float32), cuda.DummyDevice)
    assert isinstance(y.device, backend.CpuDevice)
    with pytest.raises(TypeError):
        backend.get_device(cuda.DummyDevice)


def test_private_device_helpers():
    assert isinstance(backend._guess_device_from_array_module(numpy), backend.CpuDevice)
    assert isinstance(backend._get_device_cupy_or_numpy(-1), backend.CpuDevice)
    assert isinstance(backend._get_device_cupy_or_numpy('@numpy'), backend.CpuDevice)
    assert backend._contains_nan(numpy.array([1.0, numpy.nan]))
    assert not backend._contains_nan(numpy.array([1.0, 2.0]))
    assert not backend._contains_nan(numpy.array([1, 2]))


def test_get_device_returns_device_intact():
    device = backend.CpuDevice()
    assert backend.get_device(device) is device


@pytest.mark.parametrize('spec', ['@numpy:0', '@cupy', '@cupy:', '@cupy:x', '@cupy:-1',
                                  '@foo', '@', '@intel64:0'])
def test_get_device_invalid_string(spec):
    with pytest.raises(ValueError):
        backend.get_device(spec)


@pytest.mark.parametrize('spec', [None, 1.0, True, (numpy, 0), [0], object()])
def test_get_device_invalid_type(spec):
    with pytest.raises(TypeError):
        backend.get_device(spec)


@pytest.mark.parametrize('spec', ['native', 'native:0', 'cuda:0', chainerx])
def test_get_device_chainerx_unavailable(spec):
    with pytest.raises(RuntimeError, match='ChainerX'):
        backend.get_device(spec)


def test_get_device_intel64_unavailable():
    with pytest.raises(RuntimeError, match='iDeep'):
        backend.get_device('@intel64')


@needs_no_cupy
@pytest.mark.parametrize('spec', ['@cupy:0', 0, '0', 1, numpy.int32(0)])
def test_get_device_gpu_without_cupy(spec):
    with pytest.raises(RuntimeError, match='pip install rechainer\\[cuda\\]'):
        backend.get_device(spec)


@needs_no_cupy
def test_gpu_device_without_cupy():
    with pytest.raises(RuntimeError, match='CuPy'):
        backend.GpuDevice.from_device_id(0)
    with pytest.raises(RuntimeError, match='CuPy'):
        backend.GpuDevice(object())
    assert backend.GpuDevice.from_array(numpy.ones(1)) is None


@pytest.mark.parametrize('spec', ['@numpy', backend.CpuDevice()])
def test_using_device_cpu(spec):
    # The CPU has no current device to switch: the context gives None (as Chainer's does),
    # runs its body and lets its errors through.
    entered = []
    with backend.using_device(spec) as value:
        entered.append(value)
    assert entered == [None]
    with pytest.raises(KeyError):
        with backend.using_device(spec):
            raise KeyError('raised inside')


# -- CpuDevice ----------------------------------------------------------------

def test_cpu_device_basics():
    device = backend.CpuDevice()
    assert device.xp is numpy
    assert device.name == '@numpy'
    assert str(device) == '@numpy'
    assert repr(device) == '<CpuDevice (numpy)>'
    assert device.supported_array_types == (numpy.ndarray,)
    assert device == backend.CpuDevice()
    assert not device != backend.CpuDevice()
    assert device != '@numpy'
    assert hash(device) == hash(backend.CpuDevice())
    assert len({device, backend.CpuDevice()}) == 1
    assert device.is_array_supported(numpy.ones(1))
    assert not device.is_array_supported([1.0])
    device.use()


def test_cpu_device_is_not_a_context_manager():
    with pytest.raises(RuntimeError, match='using_device'):
        with backend.CpuDevice():
            pass


def test_cpu_device_from_array():
    assert backend.CpuDevice.from_array(numpy.ones(1)) == backend.CpuDevice()
    assert backend.CpuDevice.from_array(1.0) is None


def test_cpu_device_send():
    device = backend.CpuDevice()
    a = numpy.arange(3.0)
    assert device.send(a) is a
    assert device.send(None) is None
    s = device.send(numpy.float32(2))
    assert isinstance(s, numpy.ndarray) and s.dtype == numpy.float32 and s.shape == ()
    assert isinstance(device.send(3), numpy.ndarray)
    with pytest.raises(TypeError):
        device.send('text')


def test_cpu_device_send_structure():
    device = backend.CpuDevice()
    a, b = numpy.ones(2), numpy.zeros(3)
    out = device.send([a, (b, None), {'k': a}])
    assert type(out) is list and type(out[1]) is tuple and type(out[2]) is dict
    assert out[0] is a and out[1][0] is b and out[1][1] is None and out[2]['k'] is a


def test_device_base_is_abstract():
    device = backend.Device()
    with pytest.raises(NotImplementedError):
        device.xp
    with pytest.raises(NotImplementedError):
        device.name
    with pytest.raises(NotImplementedError):
        device.send_array(numpy.ones(1))


# -- get_device_from_array / copyto / is_arrays_compatible ---------------------

def test_get_device_from_array_cpu():
    assert backend.get_device_from_array(numpy.ones(1)) == backend.CpuDevice()
    assert backend.get_device_from_array() == backend.CpuDevice()
    assert backend.get_device_from_array(None, 1) == backend.CpuDevice()


def test_copyto_numpy():
    dst = numpy.zeros((2, 3), numpy.float32)
    backend.copyto(dst, numpy.arange(6.0).reshape(2, 3))
    numpy.testing.assert_array_equal(dst, numpy.arange(6).reshape(2, 3))
    backend.copyto(dst, numpy.float32(7))
    assert (dst == 7).all()
    backend.copyto(dst, numpy.arange(3.0))  # broadcast like numpy.copyto
    numpy.testing.assert_array_equal(dst, [[0, 1, 2]] * 2)


def test_copyto_errors():
    with pytest.raises(TypeError):
        backend.copyto([0, 0], numpy.ones(2))
    with pytest.raises(TypeError):
        backend.copyto(numpy.zeros(2), 'text')


def test_is_arrays_compatible():
    a = numpy.ones(1)
    assert backend.is_arrays_compatible([])
    assert backend.is_arrays_compatible([None])
    assert backend.is_arrays_compatible([a, None, numpy.zeros(2)])
    assert not backend.is_arrays_compatible([a, 1.0])
    assert not backend.is_arrays_compatible([[1.0], a])


# -- stubs ----------------------------------------------------------------------

def test_chainerx_stubs():
    assert not chainerx.is_available()
    assert not isinstance(numpy.ones(1), chainerx.ndarray)
    with pytest.raises(RuntimeError):
        chainerx.ndarray((2,))
    with pytest.raises(RuntimeError, match='ChainerX'):
        backend.ChainerxDevice(None)
    assert backend.ChainerxDevice.from_array(numpy.ones(1)) is None
    a = [numpy.ones(1)]
    assert backend.from_chx(a) is a
    with pytest.raises(RuntimeError):
        backend.to_chx(a)


def test_intel64_stubs():
    assert intel64.is_ideep_available() is False
    assert intel64.ideep is None
    assert intel64.should_use_ideep('>=auto') is False
    assert intel64.inputs_all_ready((numpy.ones((2, 2)),)) is False
    assert not isinstance(numpy.ones(1), intel64.mdarray)
    with pytest.raises(RuntimeError, match='iDeep'):
        intel64.check_ideep_available()
    with pytest.raises(RuntimeError, match='iDeep'):
        backend.Intel64Device()
    assert backend.Intel64Device.from_array(numpy.ones(1)) is None


# -- import cost ----------------------------------------------------------------

def test_import_chainer_does_not_import_cupy():
    code = (
        'import sys, numpy, chainer, chainer.backend, chainer.cuda\n'
        'from chainer.backends import cuda\n'
        'x = numpy.ones(2)\n'
        'assert chainer.backend.get_array_module(x) is numpy\n'
        'assert cuda.to_cpu(x) is x\n'
        'assert chainer.backend.get_device("@numpy").xp is numpy\n'
        'bad = sorted(m for m in sys.modules if m.split(".")[0] in ("cupy", "cupyx"))\n'
        'assert not bad, bad\n')
    subprocess.run([sys.executable, '-c', code], check=True)
