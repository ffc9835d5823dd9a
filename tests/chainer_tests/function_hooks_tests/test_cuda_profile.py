import types

import numpy
import pytest

import chainer
from chainer import function_hooks
from chainer.function_hooks import cuda_profile


def _cupy_importable():
    try:
        import cupy  # NOQA
        return True
    except Exception:
        return False


@pytest.mark.skipif(_cupy_importable(), reason='CuPy is installed')
def test_needs_cupy():
    with pytest.raises(RuntimeError, match='CuPy'):
        function_hooks.CUDAProfileHook()


def test_ranges_pushed_and_popped(monkeypatch):
    calls = []
    fake_nvtx = types.SimpleNamespace(RangePush=lambda name: calls.append(('push', name)),
                                      RangePop=lambda: calls.append(('pop',)))
    monkeypatch.setattr(cuda_profile, '_nvtx', lambda: fake_nvtx)
    hook = function_hooks.CUDAProfileHook()
    assert hook.name == 'CUDAProfileHook'
    x = chainer.Variable(numpy.ones(3, numpy.float32))
    y = x * 2
    y.grad = numpy.ones(3, numpy.float32)
    with hook:
        z = y + 1
        z.grad = numpy.ones(3, numpy.float32)
        z.backward()
    assert calls[:2] == [('push', '_ + 1.0.forward'), ('pop',)]
    assert ('push', '_ + 1.0.backward') in calls and ('push', '_ * 2.0.backward') in calls
    assert sum(c[0] == 'push' for c in calls) == sum(c[0] == 'pop' for c in calls)
