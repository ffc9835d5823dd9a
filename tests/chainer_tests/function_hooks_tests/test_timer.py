import collections
import io
import time

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import computational_graph
from chainer import function_hooks
from chainer import testing


def _gpu_available():
    try:
        import cupy
        return cupy.cuda.runtime.getDeviceCount() > 0
    except Exception:
        return False


class Scale(chainer.FunctionNode):
    """Doubles its input; backward works on arrays, so it calls no other function."""

    def forward(self, inputs):
        return inputs[0] * 2,

    def backward(self, indexes, grad_outputs):
        return chainer.Variable(grad_outputs[0].array * 2),


class Shift(chainer.FunctionNode):
    def forward(self, inputs):
        return inputs[0] + 1,

    def backward(self, indexes, grad_outputs):
        return chainer.Variable(grad_outputs[0].array),


class Sleepy(chainer.FunctionNode):
    def forward(self, inputs):
        time.sleep(0.002)
        return inputs[0].copy(),

    def backward(self, indexes, grad_outputs):
        return chainer.Variable(grad_outputs[0].array),


class Broken(chainer.FunctionNode):
    def forward(self, inputs):
        raise ValueError('broken on purpose')


def _scale(x):
    return Scale().apply((x,))[0]


def _shift(x):
    return Shift().apply((x,))[0]


def _graph_counts(y):
    g = computational_graph.build_computational_graph([y])
    return collections.Counter(n.label for n in g.nodes if isinstance(n, chainer.FunctionNode))


def _occurrences(hook):
    return {k: v['occurrence'] for k, v in hook.summary().items()}


def test_forward_counts_match_graph():
    x = chainer.Variable(numpy.random.RandomState(0).randn(2, 3).astype(numpy.float32))
    w = chainer.Variable(numpy.ones((3, 4), numpy.float32))
    hook = function_hooks.TimerHook()
    with hook:
        h = F.tanh(F.matmul(x, w))
        y = F.sum(F.tanh(h * 2) + h)
    assert _occurrences(hook) == dict(_graph_counts(y))
    assert len(hook.call_history) == sum(_graph_counts(y).values())


def test_backward_counts_match_graph():
    x = chainer.Variable(numpy.ones((2, 2), numpy.float32))
    h = x
    for _ in range(3):
        h = _shift(_scale(h))
    h = _scale(h)
    assert dict(_graph_counts(h)) == {'Scale': 4, 'Shift': 3}
    h.grad = numpy.ones_like(h.array)
    hook = function_hooks.TimerHook()
    with hook:
        h.backward()
    # one entry per function type; one backward call per node of the graph
    assert _occurrences(hook) == {'Scale': 4, 'Shift': 3}
    testing.assert_allclose(x.grad, numpy.full((2, 2), 16, numpy.float32))


def test_forward_and_backward_together():
    x = chainer.Variable(numpy.ones(3, numpy.float32))
    hook = function_hooks.TimerHook()
    with hook:
        y = _scale(_shift(_scale(x)))
        y.grad = numpy.ones_like(y.array)
        y.backward()
    assert _occurrences(hook) == {'Scale': 4, 'Shift': 2}
    assert list(hook.summary()) == ['Scale', 'Shift']   # order of first appearance


def test_backward_written_with_functions_is_recorded_too():
    x = chainer.Variable(numpy.ones(3, numpy.float32))
    y = F.sum(F.tanh(x))
    hook = function_hooks.TimerHook()
    with hook:
        y.backward()
    occ = _occurrences(hook)
    assert occ['Sum'] == 1 and occ['Tanh'] == 1   # the backward calls themselves
    assert len(hook.call_history) > 2              # plus the functions they ran


def test_call_history_and_total_time():
    x = chainer.Variable(numpy.ones(3, numpy.float32))
    hook = function_hooks.TimerHook()
    with hook:
        y = Sleepy().apply((x,))[0]
        _scale(y)
    labels = [label for label, _ in hook.call_history]
    assert labels == ['Sleepy', 'Scale']
    assert all(isinstance(t, float) and t >= 0 for _, t in hook.call_history)
    assert hook.call_history[0][1] >= 0.0015
    assert hook.total_time() == pytest.approx(sum(t for _, t in hook.call_history))
    summary = hook.summary()
    assert summary['Sleepy']['elapsed_time'] == hook.call_history[0][1]


def test_nested_calls_counted_once_in_total():
    x = chainer.Variable(numpy.ones(3, numpy.float32))
    hook = function_hooks.TimerHook()
    with hook:
        F.forget(lambda v: _scale(Sleepy().apply((v,))[0]), x)
    labels = [label for label, _ in hook.call_history]
    assert labels == ['Sleepy', 'Scale', 'Forget']     # inner ones finish first
    forget_time = hook.call_history[-1][1]
    assert forget_time >= hook.call_history[0][1]
    assert hook.total_time() == forget_time


def test_failed_call_does_not_skew_later_totals():
    x = chainer.Variable(numpy.ones(3, numpy.float32))
    hook = function_hooks.TimerHook()

    def deeper(n):
        # later calls may come from any stack depth (operators, helpers, links...)
        return deeper(n - 1) if n else x * 2

    with hook:
        with pytest.raises(ValueError):
            Broken().apply((x,))
        deeper(4)
        with pytest.raises(ValueError):
            F.forget(lambda v: Broken().apply((v,)), x)
        Sleepy().apply((x,))
    assert [label for label, _ in hook.call_history] == ['_ * 2.0', 'Sleepy']
    assert hook.total_time() == pytest.approx(sum(t for _, t in hook.call_history))


def test_local_hook_on_one_node():
    x = chainer.Variable(numpy.ones(3, numpy.float32))
    hook = function_hooks.TimerHook()
    node = Scale()
    node.add_hook(hook)
    y = node.apply((x,))[0]
    _shift(y)
    y.grad = numpy.ones_like(y.array)
    y.backward()
    assert _occurrences(hook) == {'Scale': 2}


def test_no_hook_no_record():
    hook = function_hooks.TimerHook()
    with hook:
        pass
    _scale(chainer.Variable(numpy.ones(1, numpy.float32)))
    assert hook.call_history == [] and hook.total_time() == 0
    assert hook.summary() == {}
    out = io.StringIO()
    hook.print_report(file=out)
    assert out.getvalue().split() == ['FunctionName', 'ElapsedTime', 'Occurrence']


def test_name_and_registration():
    hook = function_hooks.TimerHook()
    assert hook.name == 'TimerHook'
    assert isinstance(hook, chainer.FunctionHook)
    with hook:
        assert chainer.get_function_hooks()['TimerHook'] is hook
    assert 'TimerHook' not in chainer.get_function_hooks()


def _report(hook, unit):
    out = io.StringIO()
    hook.print_report(unit=unit, file=out)
    return out.getvalue().splitlines()


def _fixed_hook():
    hook = function_hooks.TimerHook()
    hook.call_history = [('LinearFunction', 1.0), ('ReLU', 0.25), ('LinearFunction', 0.24),
                         ('Accuracy', 0.0000123)]
    return hook


def test_print_report_units():
    hook = _fixed_hook()
    lines = _report(hook, 'auto')
    assert lines[0].split() == ['FunctionName', 'ElapsedTime', 'Occurrence']
    assert [ln.split() for ln in lines[1:]] == [
        ['LinearFunction', '1.24sec', '2'], ['ReLU', '0.25sec', '1'],
        ['Accuracy', '0.00sec', '1']]
    assert len({len(ln) for ln in lines}) == 1      # aligned columns
    assert [ln.split()[1] for ln in _report(hook, 'auto_foreach')[1:]] == [
        '1.24sec', '250.00ms', '12.30us']
    assert [ln.split()[1] for ln in _report(hook, 'ms')[1:]] == [
        '1240.00ms', '250.00ms', '0.01ms']
    assert _report(hook, 'us')[2].split()[1] == '250000.00us'
    assert _report(hook, 'ns')[3].split()[1] == '12300.00ns'
    with pytest.raises(ValueError):
        hook.print_report(unit='minutes', file=io.StringIO())


def test_print_report_default_stdout(capsys):
    _fixed_hook().print_report()
    assert 'LinearFunction' in capsys.readouterr().out


@pytest.mark.gpu
@pytest.mark.skipif(not _gpu_available(), reason='needs CuPy and a CUDA GPU')
def test_gpu_timing():
    import cupy
    x = chainer.Variable(cupy.ones((256, 256), numpy.float32))
    hook = function_hooks.TimerHook()
    with hook:
        y = F.sum(F.tanh(F.matmul(x, x)))
        y.backward()
    occ = _occurrences(hook)
    assert occ['Tanh'] >= 2 and occ['Sum'] >= 2
    assert hook.total_time() > 0
