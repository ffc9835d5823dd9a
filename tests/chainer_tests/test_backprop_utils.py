"""backprop_step: one node's backward, filing its gradients into lists of terms."""
import numpy as np
import pytest

import chainer
from chainer import _backprop
from chainer import _backprop_utils


def v(values, dtype=np.float32):
    return chainer.Variable(np.asarray(values, dtype))


class Scale(chainer.FunctionNode):
    """Two inputs; the gradient of input i is (i + 2) * gy, or None when told so."""

    def __init__(self, none_for=()):
        self.none_for = none_for

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        return tuple(None if i in self.none_for else gy * (i + 2) for i in indexes)


class ScaleAccumulating(Scale):
    """The same, adding the gathered gradients itself; records what it was handed."""

    def backward_accumulate(self, indexes, grad_outputs, grad_inputs):
        self.handed = grad_inputs
        gxs = self.backward(indexes, grad_outputs)
        return tuple(g if gx is None else gx if g is None else gx + g
                     for gx, g in zip(gxs, grad_inputs))


def _node_with_inputs(cls, *xs, **kw):
    f = cls(**kw)
    f.inputs = tuple(x.node for x in xs)
    return f


def _step(f, lists, gy=(1., 1.), lazy=False):
    f.lazy_grad_sum = lazy
    table = dict(zip(f.inputs, lists))
    gxs = _backprop_utils.backprop_step(f, (0, 1), (v(gy),), table, False)
    return gxs, [_backprop_utils._reduce(lst) for lst in lists]


@pytest.mark.parametrize('cls', [Scale, ScaleAccumulating])
def test_new_gradients_start_lists(cls):
    x0, x1 = v([1., 2.]), v([3., 4.])
    lists = [[], []]
    gxs, (g0, g1) = _step(_node_with_inputs(cls, x0, x1), lists)
    np.testing.assert_array_equal(g0.array, [2., 2.])
    np.testing.assert_array_equal(g1.array, [3., 3.])
    assert len(gxs) == 2


@pytest.mark.parametrize('cls', [Scale, ScaleAccumulating])
@pytest.mark.parametrize('lazy', [False, True])
def test_gradients_join_what_was_gathered(cls, lazy):
    x0, x1 = v([1., 2.]), v([3., 4.])
    lists = [[v([10., 10.])], [v([1., 1.]), v([5., 5.])]]
    f = _node_with_inputs(cls, x0, x1)
    f.lazy_grad_sum = lazy
    _backprop_utils.backprop_step(f, (0, 1), (v([1., 1.]),), dict(zip(f.inputs, lists)), False)
    if cls is ScaleAccumulating:
        # handed over summed, then replaced by the node's result
        assert [g.array.tolist() for g in f.handed] == [[10., 10.], [6., 6.]]
        assert [len(lst) for lst in lists] == [1, 1]
    elif lazy:
        assert [len(lst) for lst in lists] == [2, 3]    # appended, not summed
    else:
        assert [len(lst) for lst in lists] == [1, 1]    # everything summed at once
    np.testing.assert_array_equal(_backprop_utils._reduce(lists[0]).array, [12., 12.])
    np.testing.assert_array_equal(_backprop_utils._reduce(lists[1]).array, [9., 9.])


@pytest.mark.parametrize('cls', [Scale, ScaleAccumulating])
def test_none_gradient_leaves_the_list_alone(cls):
    x0, x1 = v([1., 2.]), v([3., 4.], np.int32)
    lists = [[], [v([7., 7.])]]
    f = _node_with_inputs(cls, x0, x1, none_for=(1,))
    gxs, (g0, g1) = _step(f, lists)
    np.testing.assert_array_equal(g0.array, [2., 2.])
    if cls is Scale:
        assert gxs[1] is None
    # (handed back unchanged by backward_accumulate: not checked against x1's dtype again)
    np.testing.assert_array_equal(g1.array, [7., 7.])


def test_invalid_gradient_is_reported():
    class Wrong(chainer.FunctionNode):
        def backward(self, indexes, grad_outputs):
            return v([1., 2., 3.]), None
    x0, x1 = v([1., 2.]), v([3., 4.])
    f = _node_with_inputs(Wrong, x0, x1)
    with pytest.raises(ValueError, match='input #0'):
        _step(f, [[], []])


def test_hooks_see_the_step():
    seen = []

    class Hook(chainer.FunctionHook):
        name = 'seen'

        def backward_preprocess(self, function, in_data, out_grad):
            seen.append(('pre', function, len(out_grad)))

        def backward_postprocess(self, function, in_data, out_grad):
            seen.append(('post', function, len(out_grad)))

    x0, x1 = v([1., 2.]), v([3., 4.])
    f = _node_with_inputs(Scale, x0, x1)
    with Hook():
        _step(f, [[], []])
    assert seen == [('pre', f, 1), ('post', f, 1)]


def test_reduce():
    assert _backprop_utils._reduce([]) is None
    one = v([1.])
    assert _backprop_utils._reduce([one]) is one
    terms = [v([1.]), v([2.]), v([3.])]
    total = _backprop_utils._reduce(terms)
    assert terms == [total] and total.array.tolist() == [6.]


def test_backprop_step_is_the_engine_step(monkeypatch):
    # backprop_step runs the step of the one backprop engine, which visits every node with it.
    visited = []
    real = _backprop._step

    def spy(func, *args):
        visited.append(func.label)
        return real(func, *args)
    monkeypatch.setattr(_backprop, '_step', spy)
    x0, x1 = v([1., 2.]), v([3., 4.])
    _step(_node_with_inputs(Scale, x0, x1), [[], []])
    assert visited == ['Scale']
    visited.clear()
    x = v([1., 2.])
    y = chainer.functions.sum(chainer.functions.tanh(x * 2))
    y.backward()
    assert visited[:2] == ['Sum', 'Tanh'] and visited[2].startswith('_ * ')
    assert len(visited) == 3
    np.testing.assert_allclose(x.grad, 2 * (1 - np.tanh(2 * x.array) ** 2), rtol=1e-6)
