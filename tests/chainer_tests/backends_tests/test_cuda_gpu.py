"""chainer.backend and chainer.backends.cuda against real CuPy on a GPU (``-m gpu``)."""
import numpy
import pytest

from chainer import backend
from chainer.backends import cuda


def _gpu_count():
    try:
        import cupy
        return cupy.cuda.runtime.getDeviceCount()
    except Exception:
        return 0


_n_gpus = _gpu_count()

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(_n_gpus == 0, reason='needs CuPy and a CUDA GPU'),
]
multi_gpu = pytest.mark.skipif(_n_gpus < 2, reason='needs two GPUs')


@pytest.fixture
def cupy():
    import cupy
    return cupy


def test_available(cupy):
    assert cuda.available is True
    assert cuda.cupy is cupy
    assert cuda.ndarray is cupy.ndarray
    assert cuda.Device is cupy.cuda.Device
    cuda.check_cuda_available()


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64, numpy.int32])
def test_round_trip(cupy, dtype):
    a = numpy.arange(12).reshape(3, 4).astype(dtype)
    g = cuda.to_gpu(a)
    assert isinstance(g, cupy.ndarray) and g.dtype == dtype
    assert cuda.to_gpu(g) is g
    c = cuda.to_cpu(g)
    assert isinstance(c, numpy.ndarray)
    numpy.testing.assert_array_equal(c, a)


def test_to_gpu_non_contiguous_and_scalars(cupy):
    a = numpy.arange(12.0).reshape(3, 4)[:, ::2]
    numpy.testing.assert_array_equal(cuda.to_cpu(cuda.to_gpu(a)), a)
    s = cuda.to_gpu(numpy.float32(3))
    assert isinstance(s, cupy.ndarray) and s.shape == () and s.dtype == numpy.float32
    out = cuda.to_gpu([a, None, a])
    assert out[1] is None and out[0] is out[2]


def test_to_gpu_with_stream(cupy):
    stream = cupy.cuda.Stream()
    a = numpy.arange(6.0).reshape(2, 3).T
    with pytest.warns(DeprecationWarning):
        g = cuda.to_gpu(a, stream=stream)
    stream.synchronize()
    numpy.testing.assert_array_equal(cuda.to_cpu(g, stream=stream), a)


def test_copy(cupy):
    g = cupy.arange(6.0).reshape(2, 3)
    c = cuda.copy(g)
    assert c is not g
    cupy.testing.assert_array_equal(c, g)
    out = cupy.zeros_like(g)
    assert cuda.copy(g, out=out) is out
    cupy.testing.assert_array_equal(out, g)


def test_gpu_device(cupy):
    device = backend.get_device('@cupy:0')
    assert device == backend.GpuDevice.from_device_id(0)
    assert device == backend.get_device(0)
    assert device.device.id == 0
    assert device.xp is cupy
    assert device.name == '@cupy:0'
    assert repr(device) == '<GpuDevice (cupy):0>'
    g = device.send(numpy.ones(3, numpy.float32))
    assert isinstance(g, cupy.ndarray) and device.is_array_supported(g)
    assert device.send(g) is g
    assert backend.get_device_from_array(g) == device
    assert backend.GpuDevice.from_array(g) == device
    with backend.using_device(device):
        assert cupy.cuda.Device().id == 0
    device.use()
    c = backend.CpuDevice().send(g)
    assert isinstance(c, numpy.ndarray) and (c == 1).all()


def test_get_array_module(cupy):
    g = cupy.ones(2)
    assert backend.get_array_module(g) is cupy
    assert backend.get_array_module(numpy.ones(1), g) is cupy
    assert backend.get_array_module(numpy.ones(1)) is numpy
    assert cuda.get_array_module(g) is cupy


def test_copyto(cupy):
    g = cupy.zeros((2, 3), numpy.float32)
    backend.copyto(g, numpy.arange(6, dtype=numpy.float32).reshape(2, 3))
    cupy.testing.assert_array_equal(g, numpy.arange(6).reshape(2, 3))
    backend.copyto(g, numpy.arange(3.0))  # broadcast with a cast
    cupy.testing.assert_array_equal(g, [[0, 1, 2]] * 2)
    dst = numpy.zeros((2, 3), numpy.float32)
    backend.copyto(dst, g)
    numpy.testing.assert_array_equal(dst, [[0, 1, 2]] * 2)


def test_elementwise_kernel(cupy):
    kernel = cuda.elementwise(
        'T x, T y', 'T z', 'z = (x - y) * (x - y)', 'rechainer_test_squared_diff')
    assert kernel is cuda.elementwise(
        'T x, T y', 'T z', 'z = (x - y) * (x - y)', 'rechainer_test_squared_diff')
    x = cupy.arange(5, dtype=numpy.float32)
    y = cupy.ones(5, dtype=numpy.float32)
    cupy.testing.assert_allclose(kernel(x, y), (x - y) ** 2)


def test_reduce_kernel(cupy):
    kernel = cuda.reduce(
        'T x', 'T y', 'x * x', 'a + b', 'y = sqrt(a)', '0', 'rechainer_test_l2norm')
    x = cupy.arange(10, dtype=numpy.float32).reshape(2, 5)
    cupy.testing.assert_allclose(kernel(x, axis=1), cupy.sqrt((x * x).sum(axis=1)), rtol=1e-6)


def test_raw_kernel(cupy):
    code = r'''
    extern "C" __global__ void rechainer_test_double(const float* x, float* y, int n) {
        int i = blockDim.x * blockIdx.x + threadIdx.x;
        if (i < n) y[i] = 2 * x[i];
    }
    '''
    kernel = cuda.raw(code, 'rechainer_test_double')
    x = cupy.arange(100, dtype=numpy.float32)
    y = cupy.empty_like(x)
    kernel((1,), (128,), (x, y, numpy.int32(100)))
    cupy.testing.assert_array_equal(y, 2 * x)


def test_fuse(cupy):
    @cuda.fuse()
    def squared_diff(x, y):
        return (x - y) * (x - y)

    x = cupy.arange(4, dtype=numpy.float32)
    cupy.testing.assert_allclose(squared_diff(x, 1), (x - 1) ** 2)
    numpy.testing.assert_allclose(squared_diff(numpy.arange(4.0), 1), (numpy.arange(4) - 1) ** 2)


def test_memory_pool(cupy):
    assert cuda.memory_pool is cupy.get_default_memory_pool()


@multi_gpu
def test_transfer_between_gpus(cupy):
    with cupy.cuda.Device(0):
        g0 = cupy.arange(3.0)
    g1 = cuda.to_gpu(g0, device=1)
    assert g1.device.id == 1
    cupy.testing.assert_array_equal(cuda.to_cpu(g1), [0.0, 1.0, 2.0])
    c = cuda.copy(g0, out_device=1)
    assert c.device.id == 1
    assert backend.get_device('@cupy:1').send(g0).device.id == 1
