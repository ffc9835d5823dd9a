"""DLPack exchange: Variables and rechainer's arrays with PyTorch, JAX and NumPy, without copies
(each case checks the memory address), on the CPU and (cases marked gpu) on CuPy."""
import numpy
import pytest

import chainer
from chainer import backend
from chainer.testing import attr

DTYPES = [numpy.float16, numpy.float32, numpy.float64, numpy.int32, numpy.int64, numpy.uint8]
SHAPES = [(), (3,), (2, 3), (2, 3, 4)]


def _address(array):
    if isinstance(array, numpy.ndarray):
        return array.__array_interface__['data'][0]
    return array.data.ptr


def _array(shape, dtype, seed=0):
    return numpy.random.RandomState(seed).uniform(0, 100, shape).astype(dtype)


def _torch():
    return pytest.importorskip('torch', reason='PyTorch is not installed')


@pytest.mark.parametrize('shape', SHAPES)
@pytest.mark.parametrize('dtype', DTYPES)
def test_variable_to_numpy_shares_memory(shape, dtype):
    v = chainer.Variable(_array(shape, dtype))
    a = numpy.from_dlpack(v)
    assert _address(a) == _address(v.array) and a.shape == shape and a.dtype == dtype
    assert v.__dlpack_device__() == (1, 0)


def test_parameter_exports_its_data():
    p = chainer.Parameter(_array((2, 3), numpy.float32))
    assert _address(numpy.from_dlpack(p)) == _address(p.array)


def test_from_dlpack_of_numpy_and_variable_shares_memory():
    a = _array((2, 3), numpy.float32)
    v = backend.from_dlpack(a)
    assert type(v) is chainer.Variable and v.array is a
    w = backend.from_dlpack(v)
    assert w is not v and w.array is a and w.creator is None


def test_from_dlpack_of_a_view_keeps_strides():
    base = _array((4, 6), numpy.float32)
    view = base[::2, 1::2]
    v = backend.from_dlpack(numpy.from_dlpack(view))
    numpy.testing.assert_array_equal(v.array, view)
    assert _address(v.array) == _address(view)


@pytest.mark.parametrize('obj, message', [
    ([1.0, 2.0], 'got list'),
    (3.0, 'got float'),
])
def test_from_dlpack_rejects_non_exporters(obj, message):
    with pytest.raises(TypeError, match=message):
        backend.from_dlpack(obj)


def test_variable_without_data_cannot_export():
    with pytest.raises(BufferError, match='holds no array'):
        chainer.Variable().__dlpack__()
    with pytest.raises(BufferError, match='holds no array'):
        chainer.Variable().__dlpack_device__()


# ---- PyTorch ------------------------------------------------------------------------------


@pytest.mark.torch
@pytest.mark.parametrize('shape', SHAPES)
@pytest.mark.parametrize('dtype', DTYPES)
def test_variable_to_torch_shares_memory(shape, dtype):
    torch = _torch()
    v = chainer.Variable(_array(shape, dtype))
    t = torch.from_dlpack(v)
    assert t.data_ptr() == _address(v.array)
    assert tuple(t.shape) == shape
    numpy.testing.assert_array_equal(t.numpy(), v.array)
    t += 1                          # one memory: a write through torch shows in Chainer
    numpy.testing.assert_array_equal(v.array, t.numpy())


@pytest.mark.torch
@pytest.mark.parametrize('shape', SHAPES)
@pytest.mark.parametrize('dtype', ['float16', 'float32', 'float64', 'int32', 'int64', 'uint8'])
def test_torch_to_variable_shares_memory(shape, dtype):
    torch = _torch()
    t = torch.from_numpy(_array(shape, dtype)).clone()
    v = backend.from_dlpack(t)
    assert type(v.array) is numpy.ndarray and v.dtype == numpy.dtype(dtype)
    assert _address(v.array) == t.data_ptr() and v.shape == shape
    v.array[...] = 7
    assert bool((t == 7).all())


@pytest.mark.torch
def test_torch_tensor_that_requires_grad_says_detach():
    torch = _torch()
    with pytest.raises(BufferError, match='detach'):
        backend.from_dlpack(torch.ones(3, requires_grad=True))


@pytest.mark.torch
def test_torch_legacy_capsule_is_refused_with_a_hint():
    torch = _torch()
    from torch.utils import dlpack
    with pytest.raises(TypeError, match='capsule'):
        backend.from_dlpack(dlpack.to_dlpack(torch.ones(3)))


@pytest.mark.torch
def test_variable_results_of_functions_export():
    # What rechainer computes (outputs of functions, gradients) goes out without a copy.
    torch = _torch()
    x = chainer.Variable(_array((2, 3), numpy.float32))
    y = chainer.functions.sum(x * x)
    y.backward()
    for v in (y, x.grad_var):
        assert torch.from_dlpack(v).data_ptr() == _address(v.array)


# ---- JAX ----------------------------------------------------------------------------------
# In a child process: JAX starts threads, and later tests fork (multiprocess iterators).

_JAX_CHECKS = """
import numpy, jax.numpy as jnp
import chainer
from chainer import backend

def address(a):
    return a.__array_interface__['data'][0]

def aligned(shape, dtype):
    # JAX takes host memory without a copy only when it is 64-byte aligned.
    size = int(numpy.prod(shape)) * numpy.dtype(dtype).itemsize
    raw = numpy.empty(size + 64, numpy.uint8)
    start = (-address(raw)) % 64
    out = raw[start:start + size].view(dtype).reshape(shape)
    out[...] = numpy.arange(out.size).reshape(shape)
    return out

for shape in [(3,), (2, 3), (2, 3, 4)]:
    for dtype in [numpy.float32, numpy.int32]:
        j = jnp.asarray(numpy.arange(numpy.prod(shape), dtype=dtype).reshape(shape))
        v = backend.from_dlpack(j)
        assert address(v.array) == j.unsafe_buffer_pointer(), ('jax -> chainer', shape, dtype)
        assert (v.array == numpy.asarray(j)).all()
        v = chainer.Variable(aligned(shape, dtype))
        j = jnp.from_dlpack(v, copy=False)
        assert j.unsafe_buffer_pointer() == address(v.array), ('chainer -> jax', shape, dtype)
        assert (numpy.asarray(j) == v.array).all()
print('ok')
"""


def test_jax_exchange_shares_memory():
    pytest.importorskip('jax', reason='JAX is not installed')
    import os
    import subprocess
    import sys
    src = os.path.join(os.path.dirname(__file__), '..', '..', 'src')
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [os.path.abspath(src)] + ([os.environ['PYTHONPATH']] if 'PYTHONPATH' in os.environ
                                  else [])))
    out = subprocess.run([sys.executable, '-c', _JAX_CHECKS], capture_output=True, text=True,
                         env=env, timeout=300)
    assert out.returncode == 0 and out.stdout.strip() == 'ok', out.stderr


# ---- CuPy (gpu) ---------------------------------------------------------------------------


@attr.gpu
@pytest.mark.torch
@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64, numpy.int64])
def test_cupy_variable_to_torch_cuda_shares_memory(dtype):
    torch = _torch()
    if not torch.cuda.is_available():
        pytest.skip('PyTorch has no CUDA here')
    from chainer.backends import cuda
    v = chainer.Variable(cuda.to_gpu(_array((2, 3), dtype)))
    t = torch.from_dlpack(v)
    assert t.is_cuda and t.data_ptr() == v.array.data.ptr
    t += 1
    numpy.testing.assert_array_equal(cuda.to_cpu(v.array), t.cpu().numpy())


@attr.gpu
@pytest.mark.torch
@pytest.mark.parametrize('dtype', ['float16', 'float32', 'float64', 'int64'])
def test_torch_cuda_to_cupy_variable_shares_memory(dtype):
    torch = _torch()
    if not torch.cuda.is_available():
        pytest.skip('PyTorch has no CUDA here')
    from chainer.backends import cuda
    t = torch.arange(6, dtype=getattr(torch, dtype), device='cuda').reshape(2, 3)
    v = backend.from_dlpack(t)
    assert isinstance(v.array, cuda.cupy.ndarray) and v.array.data.ptr == t.data_ptr()
    assert v.device == backend.get_device(f'@cupy:{t.device.index}')
    v.array[...] = 5
    assert bool((t == 5).all())


@attr.gpu
def test_cupy_variable_reports_its_cuda_device():
    from chainer.backends import cuda
    v = chainer.Variable(cuda.to_gpu(_array((2,), numpy.float32)))
    assert v.__dlpack_device__() == (2, v.array.device.id)
    w = backend.from_dlpack(v)
    assert w.array is v.array
