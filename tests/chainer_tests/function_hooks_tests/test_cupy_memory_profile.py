import io
import types

import numpy
import pytest

import chainer
from chainer import function_hooks
from chainer.function_hooks import cupy_memory_profile


def _cupy_importable():
    try:
        import cupy  # NOQA
        return True
    except Exception:
        return False


@pytest.mark.skipif(_cupy_importable(), reason='CuPy is installed')
def test_needs_cupy():
    with pytest.raises(RuntimeError, match='CuPy'):
        function_hooks.CupyMemoryProfileHook()


class FakePool:
    used = 0
    total = 0

    def used_bytes(self):
        return self.used

    def total_bytes(self):
        return self.total


@pytest.fixture
def pool(monkeypatch):
    # The bookkeeping does not depend on a GPU: run it against a scripted pool.
    fake = FakePool()
    stub = types.SimpleNamespace(
        check_cuda_available=lambda: None,
        cupy=types.SimpleNamespace(get_default_memory_pool=lambda: fake))
    monkeypatch.setattr(cupy_memory_profile, 'cuda', stub)
    return fake


def _allocating(pool, used, acquired, label):
    class Alloc(chainer.FunctionNode):
        def forward(self, inputs):
            pool.used += used
            pool.total += acquired
            return inputs[0] * 1,

        def backward(self, indexes, grad_outputs):
            pool.used += used
            return chainer.Variable(grad_outputs[0].array),

    Alloc.__name__ = label
    return Alloc


def test_records_pool_usage_per_call(pool):
    x = chainer.Variable(numpy.ones(3, numpy.float32))
    big = _allocating(pool, 4096, 8192, 'Big')
    small = _allocating(pool, 512, 0, 'Small')
    hook = function_hooks.CupyMemoryProfileHook()
    assert hook.name == 'CupyMemoryProfileHook'
    with hook:
        y = big().apply((x,))[0]
        y = small().apply((y,))[0]
        y = big().apply((y,))[0]
        y.grad = numpy.ones(3, numpy.float32)
        y.backward()
    assert hook.call_history[:3] == [('Big', 4096, 8192), ('Small', 512, 0), ('Big', 4096, 8192)]
    summary = hook.summary()
    assert summary['Big'] == {'used_bytes': 4 * 4096, 'acquired_bytes': 2 * 8192,
                              'occurrence': 4}
    assert summary['Small'] == {'used_bytes': 1024, 'acquired_bytes': 0, 'occurrence': 2}
    assert hook.total_used_bytes() == 4 * 4096 + 1024
    assert hook.total_acquired_bytes() == 2 * 8192

    out = io.StringIO()
    hook.print_report(file=out)
    lines = out.getvalue().splitlines()
    assert lines[0].split() == ['FunctionName', 'UsedBytes', 'AcquiredBytes', 'Occurrence']
    assert lines[1].split() == ['Big', '16.00KB', '16.00KB', '4']
    assert lines[2].split() == ['Small', '1.00KB', '0.00KB', '2']
    out = io.StringIO()
    hook.print_report(unit='auto_foreach', file=out)
    assert out.getvalue().splitlines()[2].split() == ['Small', '1.00KB', '0.00B', '2']
    out = io.StringIO()
    hook.print_report(unit='B', file=out)
    assert out.getvalue().splitlines()[1].split()[1] == '16384.00B'
    with pytest.raises(ValueError):
        hook.print_report(unit='kilo', file=io.StringIO())


def test_nested_calls_counted_once_in_totals(pool):
    x = chainer.Variable(numpy.ones(3, numpy.float32))
    inner = _allocating(pool, 100, 200, 'Inner')
    hook = function_hooks.CupyMemoryProfileHook()
    with hook:
        chainer.functions.forget(lambda v: inner().apply((v,))[0], x)
    assert [h[0] for h in hook.call_history] == ['Inner', 'Forget']
    assert hook.total_used_bytes() == 100 and hook.total_acquired_bytes() == 200


def _gpu_available():
    try:
        import cupy
        return cupy.cuda.runtime.getDeviceCount() > 0
    except Exception:
        return False


@pytest.mark.gpu
@pytest.mark.skipif(not _gpu_available(), reason='needs CuPy and a CUDA GPU')
def test_on_gpu():
    import cupy
    x = chainer.Variable(cupy.ones((128, 128), numpy.float32))
    hook = function_hooks.CupyMemoryProfileHook()
    with hook:
        y = chainer.functions.sum(chainer.functions.tanh(x * 2))
        y.backward()
    assert hook.summary()['Tanh']['occurrence'] >= 2
    assert hook.total_used_bytes() >= 0
