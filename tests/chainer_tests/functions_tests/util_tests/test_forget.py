import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.functions.util import forget as forget_module


def block(a, b):
    h = a * b + a
    return F.tanh(h) * b - a


def two_outputs(a, b):
    h = a * b
    return h + a, F.tanh(h)


def _inputs(shape=(3, 4), seed=0):
    rng = numpy.random.RandomState(seed)
    return (rng.uniform(-1, 1, shape).astype(numpy.float32),
            rng.uniform(-1, 1, shape).astype(numpy.float32))


@testing.parameterize(*testing.product({
    'shape': [(3, 2), ()],
    'dtype': [numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestForgetHarness(testing.FunctionTestCase):
    skip_double_backward_test = True    # F.forget refuses double backprop (as Chainer 7)

    def generate_inputs(self):
        rng = numpy.random
        return (rng.uniform(-1, 1, self.shape).astype(self.dtype),
                rng.uniform(-1, 1, self.shape).astype(self.dtype))

    def forward(self, inputs, device):
        a, b = inputs
        return F.forget(two_outputs, a, b)

    def forward_expected(self, inputs):
        a, b = inputs
        h = a * b
        return (h + a).astype(self.dtype), numpy.tanh(h).astype(self.dtype)


def _grads(func, a0, b0, use_forget, gy=None):
    a, b = chainer.Variable(a0), chainer.Variable(b0)
    ys = F.forget(func, a, b) if use_forget else func(a, b)
    if not isinstance(ys, tuple):
        ys = (ys,)
    loss = sum(F.sum(y * w) for y, w in zip(ys, (1.0, 3.0)))
    loss.backward()
    return [y.array for y in ys], a.grad, b.grad


@pytest.mark.parametrize('shape', [(3, 4), (), (0, 2)])
def test_same_values_and_gradients_as_plain_call(shape):
    a0, b0 = _inputs(shape)
    ys1, ga1, gb1 = _grads(block, a0, b0, False)
    ys2, ga2, gb2 = _grads(block, a0, b0, True)
    testing.assert_allclose(ys1[0], ys2[0])
    testing.assert_allclose(ga1, ga2)
    testing.assert_allclose(gb1, gb2)


def test_forgotten_segment_is_one_node():
    a0, b0 = _inputs()
    a, b = chainer.Variable(a0), chainer.Variable(b0)
    y = F.forget(block, a, b)
    assert isinstance(y.creator, forget_module.Forget)
    assert y.creator.label == 'Forget'
    assert y.creator.inputs == (a.node, b.node)


def test_no_graph_is_kept_in_forward():
    seen = []

    def f(x):
        h = x * 2
        seen.append(h.creator)
        return h + 1

    x = chainer.Variable(numpy.ones(3, numpy.float32))
    y = F.forget(f, x)
    assert seen == [None]           # forward: no graph behind intermediates
    F.sum(y).backward()
    assert seen[1] is not None      # recomputation builds the graph
    testing.assert_allclose(x.grad, numpy.full(3, 2, numpy.float32))


def test_config_flags_during_forward_and_recompute():
    flags = []

    def f(x):
        c = chainer.config
        flags.append((c.in_recomputing, c._will_recompute, c.enable_backprop))
        return x * x

    x = chainer.Variable(numpy.arange(3, dtype=numpy.float32))
    y = F.forget(f, x)
    assert flags == [(False, True, False)]
    y.grad = numpy.ones(3, numpy.float32)
    y.backward()
    assert flags[1] == (True, False, True)
    assert chainer.config.in_recomputing is False
    assert chainer.config._will_recompute is False
    testing.assert_allclose(x.grad, 2 * x.array)


def test_multiple_outputs():
    a0, b0 = _inputs()
    ys1, ga1, gb1 = _grads(two_outputs, a0, b0, False)
    ys2, ga2, gb2 = _grads(two_outputs, a0, b0, True)
    for y1, y2 in zip(ys1, ys2):
        testing.assert_allclose(y1, y2)
    testing.assert_allclose(ga1, ga2)
    testing.assert_allclose(gb1, gb2)


def test_multiple_outputs_one_used():
    a0, b0 = _inputs()
    a, b = chainer.Variable(a0), chainer.Variable(b0)
    _, y1 = F.forget(two_outputs, a, b)
    F.sum(y1).backward()       # y0 gets no gradient: its grad output is None
    a2, b2 = chainer.Variable(a0), chainer.Variable(b0)
    F.sum(two_outputs(a2, b2)[1]).backward()
    testing.assert_allclose(a.grad, a2.grad)
    testing.assert_allclose(b.grad, b2.grad)


def test_single_element_tuple_gives_a_variable():
    x = chainer.Variable(numpy.ones(2, numpy.float32))
    y = F.forget(lambda v: (v * 3,), x)
    assert isinstance(y, chainer.Variable)


def test_array_inputs_are_wrapped():
    a0, b0 = _inputs()
    b = chainer.Variable(b0)
    y = F.forget(block, a0, b)
    assert y.creator is not None
    F.sum(y).backward()
    b2 = chainer.Variable(b0)
    F.sum(block(chainer.Variable(a0), b2)).backward()
    testing.assert_allclose(b.grad, b2.grad)


def test_all_array_inputs_still_make_a_graph():
    a0, b0 = _inputs()
    y = F.forget(block, a0, b0)
    assert y.creator is not None and y.requires_grad


def test_input_not_requiring_grad():
    a0, b0 = _inputs()
    a = chainer.Variable(a0)
    b = chainer.Variable(b0, requires_grad=False)
    F.sum(F.forget(block, a, b)).backward()
    a2 = chainer.Variable(a0)
    F.sum(block(a2, chainer.Variable(b0, requires_grad=False))).backward()
    testing.assert_allclose(a.grad, a2.grad)
    assert b.grad is None


def test_parameters_captured_by_func_get_gradients():
    w = chainer.Variable(numpy.array([1.5, -2.0, 0.5], numpy.float32))
    x0 = numpy.array([0.1, 0.2, 0.3], numpy.float32)
    x = chainer.Variable(x0)
    F.sum(F.forget(lambda v: F.tanh(v * w), x)).backward()
    gw = w.grad.copy()
    w.cleargrad()
    x2 = chainer.Variable(x0)
    F.sum(F.tanh(x2 * w)).backward()
    testing.assert_allclose(gw, w.grad)
    testing.assert_allclose(x.grad, x2.grad)


def test_func_returning_its_input():
    x = chainer.Variable(numpy.arange(3, dtype=numpy.float32))
    y0, y1 = F.forget(lambda v: (v, v * 2), x)
    F.sum(y0 + y1).backward()
    testing.assert_allclose(x.grad, numpy.full(3, 3, numpy.float32))


def test_nested_forget():
    a0, b0 = _inputs()
    a, b = chainer.Variable(a0), chainer.Variable(b0)
    y = F.forget(lambda p, q: F.forget(block, p, q) * 2, a, b)
    F.sum(y).backward()
    a2, b2 = chainer.Variable(a0), chainer.Variable(b0)
    F.sum(block(a2, b2) * 2).backward()
    testing.assert_allclose(a.grad, a2.grad)
    testing.assert_allclose(b.grad, b2.grad)


def test_chained_forgets_share_gradients():
    x0, _ = _inputs()
    x = chainer.Variable(x0)
    h = x
    for _ in range(3):
        h = F.forget(lambda v: F.tanh(v) * 2, h)
    F.sum(h).backward()
    x2 = chainer.Variable(x0)
    h2 = x2
    for _ in range(3):
        h2 = F.tanh(h2) * 2
    F.sum(h2).backward()
    testing.assert_allclose(x.grad, x2.grad)


def test_double_backprop_is_refused():
    a0, b0 = _inputs()
    a = chainer.Variable(a0)
    loss = F.sum(F.forget(block, a, b0))
    with pytest.raises(RuntimeError, match='double backpropagation'):
        chainer.grad([loss], [a], enable_double_backprop=True)
    loss = F.sum(F.forget(block, a, b0))
    with pytest.raises(RuntimeError, match='double backpropagation'):
        loss.backward(enable_double_backprop=True)


def test_chainer_grad_without_double_backprop():
    a0, b0 = _inputs()
    a = chainer.Variable(a0)
    ga, = chainer.grad([F.sum(F.forget(block, a, b0))], [a])
    a2 = chainer.Variable(a0)
    ga2, = chainer.grad([F.sum(block(a2, b0))], [a2])
    testing.assert_allclose(ga.array, ga2.array)


def test_no_backprop_mode():
    x = chainer.Variable(numpy.ones(2, numpy.float32))
    with chainer.no_backprop_mode():
        y = F.forget(lambda v: v * 2, x)
    assert y.creator is None
    testing.assert_allclose(y.array, numpy.full(2, 2, numpy.float32))


def test_bad_func_results():
    x = chainer.Variable(numpy.ones(2, numpy.float32))
    with pytest.raises(RuntimeError, match='Variable'):
        F.forget(lambda v: v.array, x)
    with pytest.raises(RuntimeError, match='2nd element.*int'):
        F.forget(lambda v: (v * 1, 3), x)
    with pytest.raises(RuntimeError, match='12th element'):
        F.forget(lambda v: (v * 1,) * 11 + (3,), x)
    with pytest.raises(RuntimeError, match='22nd element'):
        F.forget(lambda v: (v * 1,) * 21 + (3,), x)
    with pytest.raises(RuntimeError):
        F.forget(lambda v: [v * 1], x)


def test_not_callable():
    x = chainer.Variable(numpy.ones(2, numpy.float32))
    with pytest.raises(TypeError, match='callable'):
        F.forget(1, x)
