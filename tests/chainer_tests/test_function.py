import numpy as np
import pytest

import chainer
import chainer.functions as F


class OldMul(chainer.Function):
    # Old-style functions commonly define __init__ without super().__init__().
    def __init__(self, k):
        self.k = k

    def forward(self, inputs):
        x, y = inputs
        return x * y * self.k,

    def backward(self, inputs, grad_outputs):
        x, y = inputs
        gz, = grad_outputs
        return gz * y * self.k, gz * x * self.k


class OldSplit(chainer.Function):
    def forward_cpu(self, inputs):
        x, = inputs
        self.retain_inputs(())
        self.retain_outputs((0,))
        return x * 2, x * 3

    def backward_cpu(self, inputs, grad_outputs):
        assert inputs == (None,)
        y0, _ = self.output_data
        g0, g1 = grad_outputs
        gx = np.zeros_like(y0)
        if g0 is not None:
            gx += 2 * g0
        if g1 is not None:
            gx += 3 * g1
        return gx,


def test_call_and_backward():
    x = chainer.Variable(np.array([1., 2.], np.float32))
    y = chainer.Variable(np.array([3., 4.], np.float32))
    f = OldMul(2.0)
    z = f(x, y)
    assert isinstance(z, chainer.Variable)
    assert z.creator is f and isinstance(z.creator_node, chainer.FunctionAdapter)
    assert f.label == 'OldMul' and f.inputs[0] is x.node and f.rank == 0
    F.sum(z).backward()
    np.testing.assert_allclose(x.grad, [6., 8.])
    np.testing.assert_allclose(y.grad, [2., 4.])


def test_instance_called_twice():
    f = OldMul(1.0)
    a = chainer.Variable(np.ones(2, np.float32))
    z1 = f(a, a)
    z2 = f(a, a * 2)
    assert z1.creator_node is not z2.creator_node
    F.sum(z1 + z2).backward()
    np.testing.assert_allclose(a.grad, [2 + 4, 2 + 4])


def test_multiple_outputs_and_retain():
    x = chainer.Variable(np.array([1., 2.], np.float32))
    y0, y1 = OldSplit()(x)
    F.sum(y1).backward()
    np.testing.assert_allclose(x.grad, [3., 3.])


def test_double_backprop_is_refused():
    x = chainer.Variable(np.array([1., 2.], np.float32))
    y = chainer.Variable(np.array([3., 4.], np.float32))
    z = F.sum(OldMul(1.0)(x, y))
    gx, = chainer.grad([z], [x], enable_double_backprop=True)
    with pytest.raises(RuntimeError, match='cannot twice-differentiate an old style Function'):
        chainer.grad([gx], [y])
    with pytest.raises(RuntimeError, match='OldMul'):
        F.sum(gx * 2).backward()


def test_type_check_through_old_style():
    from chainer.utils import type_check

    class Checked(chainer.Function):
        def check_type_forward(self, in_types):
            type_check.expect(in_types[0].dtype == np.float32)

        def forward(self, inputs):
            return inputs[0] * 2,
    with pytest.raises(type_check.InvalidType, match='Checked'):
        Checked()(np.ones(2, np.float64))


def test_default_backward_gives_none():
    class NoGrad(chainer.Function):
        def forward(self, inputs):
            return inputs[0] * 2,
    x = chainer.Variable(np.ones(2, np.float32))
    F.sum(NoGrad()(x)).backward()
    assert x.grad is None


def test_retain_after_backward_is_deprecated():
    class Keep(chainer.Function):
        def forward(self, inputs):
            self.retain_outputs((0,), retain_after_backward=True)
            return inputs[0] * 2,

    with pytest.warns(DeprecationWarning, match='retain_after_backward'):
        Keep()(chainer.Variable(np.ones(2, np.float32)))
