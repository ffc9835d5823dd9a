import numpy as np
import pytest

import chainer
from chainer import _backprop
import chainer.functions as F
from chainer.functions.math import basic_math


def var(values, dtype=np.float64, **kw):
    return chainer.Variable(np.asarray(values, dtype=dtype), **kw)


class CountingHook(chainer.FunctionHook):
    name = 'counting'

    def __init__(self):
        self.backward_labels = []

    def backward_preprocess(self, function, in_data, out_grad):
        self.backward_labels.append(function.label)


class Tag(chainer.FunctionNode):
    """Identity with a configurable label, to see which nodes backward visits."""

    def __init__(self, tag):
        self.tag = tag

    @property
    def label(self):
        return self.tag

    def forward(self, inputs):
        return inputs[0].copy(),

    def backward(self, indexes, gy):
        return gy[0],


def tag(x, name):
    return Tag(name).apply((x,))[0]


class TestVariableBackward:

    def test_scalar_root_gets_ones(self):
        x = var([1., 2.])
        y = F.sum(x * x)
        y.backward()
        np.testing.assert_allclose(x.grad, [2., 4.])
        # As in Chainer, the pass takes the start gradient; retain_grad keeps it.
        assert y.grad is None

    def test_scalar_root_keeps_ones_with_retain_grad(self):
        x = var([1., 2.])
        y = F.sum(x * x)
        y.backward(retain_grad=True)
        np.testing.assert_allclose(y.grad, 1.)

    def test_non_scalar_without_grad_propagates_nothing(self):
        x = var([1., 2.])
        y = x * 2
        y.backward()
        assert x.grad is None

    def test_non_scalar_with_grad(self):
        x = var([1., 2.])
        y = x * 3
        y.grad = np.array([1., 10.])
        y.backward()
        np.testing.assert_allclose(x.grad, [3., 30.])

    def test_one_element_non_scalar(self):
        x = var([2.])
        y = x * x
        # Still seeded with 1, as in Chainer 7, which deprecates it.
        with pytest.warns(DeprecationWarning, match='only one element'):
            y.backward()
        np.testing.assert_allclose(x.grad, [4.])

    def test_scalar_root_does_not_warn(self, recwarn):
        x = var(2.)
        (x * x).backward()
        assert not [w for w in recwarn if w.category is DeprecationWarning]

    def test_gradients_accumulate(self):
        x = var([1., 2.])
        F.sum(x * 2).backward()
        F.sum(x * 3).backward()
        np.testing.assert_allclose(x.grad, [5., 5.])

    def test_shared_input_and_diamond(self):
        x = var([3.])
        a = x * 2
        y = F.sum(a * a + a)   # (2x)^2 + 2x -> 8x + 2
        y.backward()
        np.testing.assert_allclose(x.grad, [26.])

    def test_retain_grad(self):
        x = var([1., 2.])
        h = x * 2
        y = F.sum(h * h)
        y.backward()
        assert h.grad is None
        x.cleargrad()
        h2 = x * 2
        y2 = F.sum(h2 * h2)
        y2.backward(retain_grad=True)
        np.testing.assert_allclose(h2.grad, 2 * h2.array)

    def test_loss_scale(self):
        x = var([1., 2.])
        y = F.sum(x * x)
        y.backward(loss_scale=8.0)
        np.testing.assert_allclose(x.grad, [16., 32.])
        assert x._loss_scale == 8.0

    @staticmethod
    def _additions(y):
        # The summations of gradients that backward makes: (label, number of terms).
        class Adds(chainer.FunctionHook):
            name = 'adds'
            seen = []

            def forward_preprocess(self, function, in_data):
                if isinstance(function, (basic_math.Add, basic_math.MultiAdd)):
                    self.seen.append(len(in_data))
        hook = Adds()
        hook.seen = []
        with hook:
            y.backward()
        return hook.seen

    @pytest.mark.parametrize('lazy', [False, True])
    def test_lazy_grad_sum(self, lazy):
        # x feeds three nodes. Eager summation adds each term as it arrives (two
        # additions of two); lazy summation keeps the terms and adds them once.
        with chainer.using_config('lazy_grad_sum', lazy):
            x = var([1., 2.])
            y = F.sum(x * 2 + x * 3 + x * 4)
        with chainer.using_config('lazy_grad_sum', not lazy):  # read from the nodes
            adds = self._additions(y)
        assert adds == ([3] if lazy else [2, 2])
        np.testing.assert_allclose(x.grad, [9., 9.])

    def test_lazy_grad_sum_is_per_node(self):
        # Each node's own setting decides how its gradient terms are filed: a node made
        # with lazy_grad_sum appends its term, any other sums all terms gathered so far.
        # Backprop visits the three products last-made first: x * 4 (lazy), then x * 2
        # (eager: sums two terms), then x * 3 (lazy: appended, summed at the end).
        x = var([1., 2.])
        with chainer.using_config('lazy_grad_sum', False):
            a = x * 2
        with chainer.using_config('lazy_grad_sum', True):
            b = x * 3
            c = x * 4
        y = F.sum(a + b + c)
        assert self._additions(y) == [2, 2]
        x = var([1., 2.])
        with chainer.using_config('lazy_grad_sum', True):
            a = x * 2
        with chainer.using_config('lazy_grad_sum', False):
            b = x * 3
        with chainer.using_config('lazy_grad_sum', True):
            c = x * 4
        y = F.sum(a + b + c)
        assert self._additions(y) == [3]      # x * 3 sums all three at once
        np.testing.assert_allclose(x.grad, [9., 9.])

    def test_preset_grad_of_an_intermediate_is_not_added(self):
        # Only leaves accumulate into the gradient they hold.
        x = var([1., 2.])
        h = x * 2
        h.grad = np.array([10., 10.])
        F.sum(h * 3).backward()
        np.testing.assert_allclose(x.grad, [6., 6.])
        np.testing.assert_allclose(h.grad, [10., 10.])

    def test_unchain_backward(self):
        x = var([1., 2.])
        h = x * 2
        y = F.sum(h * 3)
        h.unchain_backward()
        assert h.creator is None
        y.backward()
        assert x.grad is None

    def test_unchain(self):
        x = var([1.])
        h = x * 2
        y = F.sum(h * 3)
        h.unchain()
        y.backward()
        assert x.grad is None

    def test_requires_grad_false(self):
        x = var([1.], requires_grad=False)
        w = var([2.])
        F.sum(x * w).backward()
        assert x.grad is None
        np.testing.assert_allclose(w.grad, [1.])

    def test_enable_double_backprop(self):
        x = var([1., 2.])
        y = F.sum(x * x * x)
        y.backward(enable_double_backprop=True)
        gx = x.grad_var
        assert gx.creator is not None
        x.cleargrad()
        F.sum(gx).backward()
        np.testing.assert_allclose(x.grad, 6 * x.array)

    def test_without_double_backprop_no_graph(self):
        x = var([1., 2.])
        F.sum(x * x).backward()
        assert x.grad_var.creator is None

    def test_freed_intermediate_variables(self):
        x = var([1., 2.])
        y = x
        for _ in range(5):
            y = F.tanh(y) * 2
        z = F.sum(y)
        del y
        z.backward()
        assert x.grad is not None


class TestChainerBackward:

    def test_multiple_outputs(self):
        x = var([1., 2.])
        y1 = x * 2
        y2 = x * x
        chainer.backward([y1, y2], [np.ones(2), np.ones(2)])
        np.testing.assert_allclose(x.grad, [4., 6.])

    def test_uses_output_grads(self):
        x = var([1., 2.])
        y = F.sum(x * 3)
        y.grad = np.array(2.)
        chainer.backward([y])
        np.testing.assert_allclose(x.grad, [6., 6.])
        # The output's gradient seeded the pass; like Chainer, it is not kept.
        assert y.grad is None

    def test_no_default_grad(self):
        # Unlike Variable.backward, a one-element output without grad is not seeded.
        x = var([1., 2.])
        y = F.sum(x * 3)
        with pytest.warns(RuntimeWarning, match='does not set default grad'):
            chainer.backward([y])
        assert x.grad is None

    def test_duplicate_outputs_count_once(self):
        x = var([1., 2.])
        y = x * 3
        y.grad = np.ones(2)
        with pytest.warns(RuntimeWarning):
            chainer.backward([y, y])
        np.testing.assert_allclose(x.grad, [3., 3.])

    def test_none_entry_skips_output(self, recwarn):
        x = var([1., 2.])
        y1, y2 = x * 2, x * 5
        chainer.backward([y1, y2], [np.ones(2), None])
        np.testing.assert_allclose(x.grad, [2., 2.])
        assert not recwarn.list

    def test_leaf_output(self):
        x = var([1., 2.])
        chainer.backward([x], [np.array([3., 4.])])
        np.testing.assert_allclose(x.grad, [3., 4.])

    def test_bad_arguments(self):
        x = var([1.])
        with pytest.raises(TypeError, match='outputs must be a tuple or a list'):
            chainer.backward(x)
        with pytest.raises(ValueError):
            chainer.backward([x], [None, None])
        with pytest.raises(TypeError):
            chainer.backward([x], foo=1)
        # Options of Variable.backward that chainer.backward refuses, as Chainer does.
        with pytest.raises(ValueError, match='retain_grad'):
            chainer.backward([x], retain_grad=True)
        with pytest.raises(ValueError, match='loss_scale'):
            chainer.backward([x], loss_scale=2.)


class TestGrad:

    def test_basic_and_does_not_touch_grad(self):
        x = var([1., 2.])
        y = F.sum(x * x)
        gx, = chainer.grad([y], [x])
        np.testing.assert_allclose(gx.array, [2., 4.])
        assert x.grad is None

    def test_set_grad(self):
        x = var([1., 2.])
        gx, = chainer.grad([F.sum(x * x)], [x], set_grad=True)
        assert x.grad_var is gx

    def test_grad_inputs_accumulate(self):
        x = var([1., 2.])
        gx, = chainer.grad([F.sum(x * x)], [x], grad_inputs=[var([10., 10.])])
        np.testing.assert_allclose(gx.array, [12., 14.])

    def test_grad_outputs(self):
        x = var([1., 2.])
        gx, = chainer.grad([x * 3], [x], grad_outputs=[var([1., 2.])])
        np.testing.assert_allclose(gx.array, [3., 6.])

    def test_loss_scale(self):
        x = var([1., 2.])
        gx, = chainer.grad([F.sum(x * x)], [x], loss_scale=4.)
        np.testing.assert_allclose(gx.array, [8., 16.])

    def test_retain_grad(self):
        x = var([1., 2.])
        h = x * 2
        gx, = chainer.grad([F.sum(h * h)], [x], retain_grad=True)
        np.testing.assert_allclose(h.grad, 2 * h.array)

    def test_unreachable_input_gets_none(self):
        x, z = var([1.]), var([2.])
        gx, gz = chainer.grad([F.sum(x * 2)], [x, z])
        assert gz is None
        np.testing.assert_allclose(gx.array, [2.])

    def test_intermediate_input(self):
        x = var([1., 2.])
        h = x * 3
        y = F.sum(h * h)
        gh, = chainer.grad([y], [h])
        np.testing.assert_allclose(gh.array, 2 * h.array)

    def test_input_and_its_ancestor(self):
        x = var([1.])
        h = x * 3
        y = F.sum(h * x)   # 3x^2 -> dy/dx = 6x total, dy/dh = x
        gx, gh = chainer.grad([y], [x, h])
        np.testing.assert_allclose(gx.array, [6.])
        np.testing.assert_allclose(gh.array, [1.])

    def test_minimal_subgraph(self):
        # a and b are inputs; c is a side branch feeding the output but not on any path from
        # an input, and d is upstream of a. Neither branch's backward may run.
        d = var([1.])
        a = tag(d, 'upstream_of_a')
        b = var([2.])
        c = tag(var([3.]), 'side_branch')
        y = F.sum(tag(a * b, 'on_path') + tag(c, 'side_only'))
        hook = CountingHook()
        with hook:
            ga, gb = chainer.grad([y], [a, b])
        np.testing.assert_allclose(ga.array, [2.])
        np.testing.assert_allclose(gb.array, [1.])
        assert 'on_path' in hook.backward_labels
        for label in ('side_only', 'side_branch', 'upstream_of_a'):
            assert label not in hook.backward_labels

    def test_the_three_steps(self):
        # chainer.grad's steps one by one: backward enumeration from the outputs, forward
        # enumeration from the inputs, backprop over what both reach.
        d = var([1.])
        a = tag(d, 'upstream_of_a')
        b = var([2.])
        on_path = tag(a * b, 'on_path')
        side = tag(tag(var([3.]), 'side_branch'), 'side_only')
        y = F.sum(on_path + side)
        behind = _backprop._nodes_behind([y.node])
        labels = {f.label for f in behind}
        assert {'upstream_of_a', 'side_branch', 'side_only', 'on_path'} <= labels
        reached, reachable = _backprop._nodes_reached(behind, [a.node, b.node])
        assert {f.label for f in reached} >= {'on_path'}
        assert not {'upstream_of_a', 'side_branch', 'side_only'} & {f.label for f in reached}
        assert on_path.node in reachable and side.node not in reachable
        assert y.node in reachable and d.node not in reachable

    def _split(self):
        # x -> (a, b) = split_axis(x, [1], 1), with a gradient already set on a.
        x = var([[1., 1., 1.]])
        a, b = F.split_axis(x, [1], 1)
        a.grad = np.full((1, 1), 10.)
        return x, a, b

    def test_ignores_gradients_set_on_outputs(self):
        # Unlike backward, chainer.grad uses only what flows through the graph.
        x, a, b = self._split()
        gx, = chainer.grad([F.sum(b * 2)], [x])
        np.testing.assert_allclose(gx.array, [[0., 2., 2.]])
        np.testing.assert_allclose(a.grad, [[10.]])

    def test_second_order_analytic(self):
        x = var([0.5, -1.5])
        y = F.sum(F.tanh(x) * x)
        gx, = chainer.grad([y], [x], enable_double_backprop=True)
        t = np.tanh(x.array)
        np.testing.assert_allclose(gx.array, t + x.array * (1 - t ** 2))
        ggx, = chainer.grad([F.sum(gx)], [x])
        # d/dx [t + x (1 - t^2)] = 2 (1 - t^2) - 2 x t (1 - t^2)
        np.testing.assert_allclose(ggx.array, 2 * (1 - t ** 2) - 2 * x.array * t * (1 - t ** 2))

    def test_third_order(self):
        x = var([2.])
        g1, = chainer.grad([F.sum(x ** 4)], [x], enable_double_backprop=True)
        g2, = chainer.grad([F.sum(g1)], [x], enable_double_backprop=True)
        g3, = chainer.grad([F.sum(g2)], [x])
        np.testing.assert_allclose(g3.array, [24 * 2.])

    def test_bad_arguments(self):
        x = var([1.])
        y = x * 2
        with pytest.raises(TypeError, match='outputs must be a tuple or a list'):
            chainer.grad(y, [x])
        with pytest.raises(TypeError, match='inputs must be a tuple or a list'):
            chainer.grad([y], x)
        with pytest.raises(TypeError, match='grad_outputs must be a tuple or a list or None'):
            chainer.grad([y], [x], grad_outputs=np.ones(1))
        with pytest.raises(TypeError, match='grad_inputs must be a tuple or a list or None'):
            chainer.grad([y], [x], grad_inputs=np.ones(1))
        with pytest.raises(ValueError):
            chainer.grad([y], [x], grad_outputs=[None, None])
        with pytest.raises(TypeError, match=r'inputs\[0\] must be a Variable'):
            chainer.grad([y], [np.ones(1)])


def _backward_from_b(x, a, b):
    b.grad = np.ones((1, 2))
    b.backward()


def _loss_through_b(x, a, b):
    F.sum(b * 2).backward()


def _loss_through_b_retained(x, a, b):
    F.sum(b * 2).backward(retain_grad=True)


def _loss_scaled(x, a, b):
    F.sum(b).backward(loss_scale=2.)


def _chainer_backward_of_grads(x, a, b):
    b.grad = np.ones((1, 2))
    chainer.backward([b])


def _chainer_backward_given(x, a, b):
    chainer.backward([a, b], [None, var([[1., 1.]])])


def _both_reached(x, a, b):
    F.sum(a * 3 + F.sum(b * 2)).backward()


def _a_unchained(x, a, b):
    a.unchain()
    F.sum(b).backward()


# backward on (x -> a, b = split_axis(x, [1], 1)) with a.grad = 10 set beforehand: when the pass
# reaches split_axis, an output that got no gradient from the graph contributes the gradient set
# on it, which the pass takes from the variable (retain_grad gives it back). Recorded on
# Chainer 7.8.1: (how backward runs, x.grad, a.grad afterwards).
_PRESET_OUTPUT_GRAD = {
    'issue_example': (_backward_from_b, [[10., 1., 1.]], None),
    'loss_through_sibling': (_loss_through_b, [[10., 2., 2.]], None),
    'retain_grad': (_loss_through_b_retained, [[10., 2., 2.]], [[10.]]),
    'loss_scale': (_loss_scaled, [[10., 2., 2.]], None),
    'chainer_backward_of_grads': (_chainer_backward_of_grads, [[10., 1., 1.]], None),
    'chainer_backward_given': (_chainer_backward_given, [[10., 1., 1.]], None),
    # a gradient from the graph wins; the one set stays on the variable
    'both_reached': (_both_reached, [[3., 2., 2.]], [[10.]]),
    # an unchained output is no output of split_axis any more
    'unchained': (_a_unchained, [[0., 1., 1.]], [[10.]]),
}


@pytest.mark.parametrize('case', sorted(_PRESET_OUTPUT_GRAD))
def test_backward_uses_gradients_set_on_outputs(case):
    run, x_grad, a_grad = _PRESET_OUTPUT_GRAD[case]
    x = var([[1., 1., 1.]])
    a, b = F.split_axis(x, [1], 1)
    a.grad = np.full((1, 1), 10.)
    run(x, a, b)
    np.testing.assert_allclose(x.grad, x_grad)
    if a_grad is None:
        assert a.grad is None
    else:
        np.testing.assert_allclose(a.grad, a_grad)


def test_backward_of_a_leaf_sets_ones():
    x = var(3.)
    x.backward()
    np.testing.assert_allclose(x.grad, 1.)


class TestThreads:

    def test_backward_in_threads(self):
        import threading
        errors = []

        def work():
            try:
                for _ in range(20):
                    x = var(np.random.rand(3))
                    gx, = chainer.grad([F.sum(x * x)], [x])
                    np.testing.assert_allclose(gx.array, 2 * x.array)
            except Exception as e:  # pragma: no cover - reported below
                errors.append(e)
        ts = [threading.Thread(target=work) for _ in range(4)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        assert not errors


def test_visits_in_decreasing_rank_on_branchy_graphs():
    # Chains skip the heap; the order must still be by rank wherever branches meet, and
    # the gradients must match finite differences.
    from chainer import gradient_check
    rng = np.random.RandomState(3)
    ranks = []

    class Ranks(chainer.FunctionHook):
        name = 'ranks'

        def backward_preprocess(self, function, in_data, out_grad):
            ranks.append(function.rank)

    for trial in range(20):
        plan = [(rng.randint(i + 1), rng.randint(i + 1), rng.randint(3)) for i in range(15)]
        last = rng.randint(16)

        def build(x):
            pool = [x]
            for i, j, kind in plan:
                a, b = pool[i], pool[j]
                pool.append(a * b if kind == 0 else F.tanh(a) if kind == 1 else a + 1)
            return F.sum(pool[-1] + pool[last])

        x0 = rng.uniform(0.5, 1, 3)
        x = var(x0)
        ranks.clear()
        with Ranks():
            build(x).backward()
        assert ranks == sorted(ranks, reverse=True)
        xs = x0.copy()
        num, = gradient_check.numerical_grad(lambda: (build(var(xs)).array,), (xs,),
                                             (np.ones(()),), eps=1e-6)
        np.testing.assert_allclose(x.grad, num, rtol=1e-5, atol=1e-8)
