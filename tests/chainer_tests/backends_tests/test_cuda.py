"""chainer.backends.cuda without CuPy (the default CI setup) and the chainer.cuda alias."""
import warnings

import numpy
import pytest

import chainer
from chainer.backends import cuda

try:
    import cupy  # NOQA
    _has_cupy = True
except Exception:
    _has_cupy = False

needs_no_cupy = pytest.mark.skipif(_has_cupy, reason='checks the behaviour without CuPy')


def test_alias_is_the_same_module():
    from chainer import cuda as old
    import chainer.cuda
    assert old is cuda
    assert chainer.cuda is cuda
    assert old.to_gpu is cuda.to_gpu


def test_constants():
    assert cuda.cudnn_enabled is False
    assert cuda.should_use_cudnn('>=auto') is False
    assert cuda.should_use_cudnn('==always', 8000) is False
    assert cuda.should_use_cudnn_tensor_core(numpy.float16) is False


@needs_no_cupy
def test_unavailable():
    assert cuda.available is False
    from chainer.backends.cuda import available
    assert available is False
    with pytest.raises(RuntimeError, match='pip install rechainer\\[cuda\\]'):
        cuda.check_cuda_available()


@needs_no_cupy
def test_placeholders():
    assert not isinstance(numpy.ones(1), cuda.ndarray)
    assert not isinstance(0, cuda.Device)
    assert numpy is not cuda.cupy
    with pytest.raises(RuntimeError, match='CuPy'):
        cuda.cupy.asarray
    with pytest.raises(RuntimeError, match='CuPy'):
        cuda.cupy.cuda.Device
    with pytest.raises(RuntimeError, match='CuPy'):
        cuda.ndarray((2,))
    with pytest.raises(RuntimeError, match='CuPy'):
        cuda.Device(0)
    assert not hasattr(cuda.cupy, '__array__')
    with pytest.raises(AttributeError, match='CuPy'):
        cuda.memory_pool
    with pytest.raises(AttributeError):
        cuda.no_such_name


@needs_no_cupy
@pytest.mark.parametrize('call', [
    lambda: cuda.to_gpu(numpy.ones(2)),
    lambda: cuda.to_gpu([numpy.ones(2)], device=0),
    lambda: cuda.to_gpu(None),
    lambda: cuda.copy(numpy.ones(2)),
    lambda: cuda.get_device_from_id(0),
    lambda: cuda.elementwise('T x', 'T y', 'y = x', 'copy_kernel'),
    lambda: cuda.reduce('T x', 'T y', 'x', 'a + b', 'y = a', '0', 'sum_kernel'),
    lambda: cuda.raw('extern "C" __global__ void f() {}', 'f'),
    lambda: cuda.GpuDevice.from_device_id(0),
])
def test_gpu_requests_fail_clearly(call):
    with pytest.raises(RuntimeError, match='CUDA environment is not correctly set up'):
        call()


def test_to_cpu_passes_numpy_through():
    a = numpy.arange(4.0)
    assert cuda.to_cpu(a) is a
    assert cuda.to_cpu(None) is None
    b = cuda.to_cpu(numpy.float64(3))
    assert isinstance(b, numpy.ndarray) and b.shape == () and b == 3
    c = cuda.to_cpu(5)
    assert isinstance(c, numpy.ndarray) and c == 5


def test_to_cpu_structures():
    a, b = numpy.ones(1), numpy.zeros(2)
    out = cuda.to_cpu([a, None, b])
    assert type(out) is list and out[0] is a and out[1] is None and out[2] is b
    out = cuda.to_cpu((a, b))
    assert type(out) is tuple and out[0] is a and out[1] is b


def test_to_cpu_rejects_other_objects():
    with pytest.raises(TypeError):
        cuda.to_cpu('text')
    with pytest.raises(TypeError):
        cuda.to_cpu(object())


def test_dummy_device():
    d = cuda.DummyDevice
    assert isinstance(d, cuda.DummyDeviceType)
    assert d.id == -1 and int(d) == -1
    assert d == cuda.DummyDeviceType()
    assert not d != cuda.DummyDeviceType()
    assert d != 0
    assert hash(d) == hash(cuda.DummyDeviceType())
    with d as entered:
        assert entered is d
    d.use()
    d.synchronize()


def test_get_device_from_id_cpu():
    assert cuda.get_device_from_id(None) is cuda.DummyDevice
    assert cuda.get_device_from_id(-1) is cuda.DummyDevice
    with pytest.raises(TypeError):
        cuda.get_device_from_id('0')


def test_get_device_from_array_cpu():
    assert cuda.get_device_from_array(numpy.ones(1)) is cuda.DummyDevice
    assert cuda.get_device_from_array([numpy.ones(1)]) is cuda.DummyDevice
    assert cuda.get_device_from_array() is cuda.DummyDevice


def test_get_device_deprecated():
    with pytest.warns(DeprecationWarning):
        assert cuda.get_device(numpy.ones(1), 'x') is cuda.DummyDevice
    with pytest.warns(DeprecationWarning):
        assert cuda.get_device(-1) is cuda.DummyDevice


def test_workspace_size():
    old = cuda.get_max_workspace_size()
    assert old == 8 * 1024 * 1024
    try:
        cuda.set_max_workspace_size(1024)
        assert cuda.get_max_workspace_size() == 1024
    finally:
        cuda.set_max_workspace_size(old)


# -- memoize / clear_memo / fuse ------------------------------------------------

def test_memoize_caches_per_arguments():
    calls = []

    @cuda.memoize()
    def f(x, y=1):
        calls.append((x, y))
        return [x, y]

    first = f(1)
    assert f(1) is first
    assert f(1, y=2) is not first
    assert f(1, y=2) == [1, 2]
    assert calls == [(1, 1), (1, 2)]
    assert f.__name__ == 'f'


def test_memoize_for_each_device_and_bare_form():
    calls = []

    @cuda.memoize(for_each_device=True)
    def g(x):
        calls.append(x)
        return object()

    assert g('a') is g('a')

    @cuda.memoize
    def h(x):
        calls.append(x)
        return object()

    assert h(2) is h(2)
    assert calls == ['a', 2]


def test_memoize_unhashable_arguments_are_not_cached():
    calls = []

    @cuda.memoize()
    def f(x):
        calls.append(x)
        return len(x)

    assert f([1, 2]) == 2
    assert f([1, 2]) == 2
    assert len(calls) == 2


def test_clear_memo():
    calls = []

    @cuda.memoize()
    def f(x):
        calls.append(x)
        return object()

    first = f(0)
    cuda.clear_memo()
    assert f(0) is not first
    assert calls == [0, 0]


def test_fuse_fallback_runs_python_function():
    @cuda.fuse()
    def squared_diff(x, y):
        return (x - y) * (x - y)

    x, y = numpy.arange(3.0), numpy.ones(3)
    numpy.testing.assert_array_equal(squared_diff(x, y), (x - y) ** 2)
    assert squared_diff.__name__ == 'squared_diff'

    @cuda.fuse
    def add(x, y):
        return x + y

    assert add(1, 2) == 3

    @cuda.fuse(kernel_name='mul')
    def mul(x, y):
        return x * y

    assert mul(2, 3) == 6


def test_fuse_rejects_positional_non_function():
    with pytest.raises(TypeError):
        cuda.fuse(1, 2)


def test_to_gpu_stream_is_deprecated():
    if _has_cupy:
        pytest.skip('needs the no-CuPy failure to stop before any copy')
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        with pytest.raises(RuntimeError):
            cuda.to_gpu(numpy.ones(1), stream=object())
    assert any(issubclass(w.category, DeprecationWarning) for w in caught)


def test_chainer_namespace_still_imports():
    assert chainer.backends.cuda is cuda
