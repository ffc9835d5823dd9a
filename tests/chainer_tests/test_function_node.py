import traceback
import weakref

import numpy as np
import pytest

import chainer
import chainer.functions as F
from chainer.utils import type_check


class Square(chainer.FunctionNode):
    # Defines __init__ without calling super().__init__(), as user code often does.
    def __init__(self, scale=1.0):
        self.scale = scale

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        return self.scale * x * x,

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] * 2 * self.scale * x,


class TwoOut(chainer.FunctionNode):
    def forward(self, inputs):
        x, = inputs
        self.retain_outputs((0, 1))
        return x * 2, x * 3

    def backward(self, indexes, grad_outputs):
        g0, g1 = grad_outputs
        gx = 0
        if g0 is not None:
            gx = gx + g0 * 2
        if g1 is not None:
            gx = gx + g1 * 3
        return gx,


def x32(*shape):
    return chainer.Variable(np.arange(1, np.prod(shape) + 1, dtype=np.float32).reshape(shape))


class TestApply:

    def test_graph_links(self):
        x = x32(3)
        f = Square()
        y, = f.apply((x,))
        assert y.creator_node is f and y.creator is f and y.rank == 1 and f.rank == 0
        assert f.inputs == (x.node,)
        assert f.outputs[0]() is y.node
        assert isinstance(f.outputs[0], weakref.ref)
        assert x.node.data is x.array   # retained
        z, = Square().apply((y,))
        assert z.rank == 2 and z.creator_node.rank == 1

    def test_arrays_are_wrapped_without_grad(self):
        y, = Square().apply((np.ones(2, np.float32),))
        assert not y.requires_grad
        assert y.creator_node.inputs[0].requires_grad is False

    def test_non_array_input(self):
        with pytest.raises(TypeError, match=r'Square: input #0 .*got list'):
            Square().apply(([1.0, 2.0],))

    def test_forward_must_return_tuple(self):
        class Bad(chainer.FunctionNode):
            def forward(self, inputs):
                return inputs[0]
        with pytest.raises(TypeError, match='Bad: forward must return a tuple'):
            Bad().apply((x32(2),))

    def test_forward_output_must_be_array(self):
        class Bad(chainer.FunctionNode):
            def forward(self, inputs):
                return [1, 2],
        with pytest.raises(TypeError, match=r'Bad: forward output #0 .*list'):
            Bad().apply((x32(2),))

    def test_numpy_scalar_outputs_become_arrays(self):
        class Total(chainer.FunctionNode):
            def forward(self, inputs):
                return inputs[0].sum(),
        y, = Total().apply((x32(3),))
        assert isinstance(y.array, np.ndarray) and y.shape == ()

    def test_type_check_message(self):
        with pytest.raises(type_check.InvalidType) as e:
            Square().apply((np.ones(2, np.int32),))
        msg = str(e.value)
        assert 'Invalid operation is performed in: Square (Forward)' in msg
        assert 'Expect: x.dtype.kind == f' in msg
        assert 'Actual: i != f' in msg

    def test_type_error_stands_alone(self):
        # The light check fails first; the full check's message must not be chained to it.
        with pytest.raises(type_check.InvalidType) as e:
            Square().apply((np.ones(2, np.int32),))
        assert e.value.__context__ is None and e.value.__cause__ is None
        text = ''.join(traceback.format_exception(e.value))
        assert 'During handling' not in text and 'a true condition' not in text

    def test_shape_mismatch_message(self):
        a = chainer.Variable(np.ones((2, 3), np.float32))
        b = chainer.Variable(np.ones((3, 2), np.float32))
        with pytest.raises(type_check.InvalidType) as e:
            a + b
        msg = str(e.value)
        assert 'Invalid operation is performed in: _ + _ (Forward)' in msg
        assert 'broadcast' in msg and '(2, 3)' in msg and '(3, 2)' in msg

    def test_type_check_can_be_disabled(self):
        with chainer.using_config('type_check', False):
            y, = Square(scale=2).apply((np.ones(2, np.int32),))
        assert y.dtype.kind == 'i'

    def test_no_backprop_mode_builds_no_graph(self):
        x = x32(3)
        with chainer.no_backprop_mode():
            y = F.tanh(x * 2)
            assert y.creator is None
            with chainer.force_backprop_mode():
                z = x * 2
            assert z.creator is not None
        y.backward()
        assert x.grad is None

    def test_no_backprop_mode_as_decorator(self):
        @chainer.no_backprop_mode()
        def f(x):
            return x * 2
        assert f(x32(2)).creator is None

    def test_retained_outputs_rebuilt(self):
        x = x32(2)
        f = TwoOut()
        y0, y1 = f.apply((x,))
        del y0
        outs = f.get_retained_outputs()
        np.testing.assert_array_equal(outs[0].array, x.array * 2)
        assert outs[1] is y1
        assert f.output_data[1] is y1.array

    def test_unchain(self):
        x = x32(2)
        y = x * 2
        f = y.creator_node
        f.unchain()
        assert y.creator is None and f.inputs is None

    def test_calling_a_node_directly_is_refused(self):
        # As in Chainer: RuntimeError pointing at apply().
        with pytest.raises(RuntimeError, match=r'Square\(\)\.apply'):
            Square()(x32(2))
        from chainer.functions.math import exponential
        with pytest.raises(RuntimeError, match='chainer.functions.exp'):
            exponential.Exp()(x32(2))

    def test_old_label(self):
        assert Square().label == 'Square'


class TestBackwardChecks:

    def test_wrong_number_of_gradients(self):
        class Bad(chainer.FunctionNode):
            def forward(self, inputs):
                return inputs[0] + inputs[1],

            def backward(self, indexes, gy):
                return gy[0], gy[0], gy[0]
        x, y = x32(2), x32(2)
        z, = Bad().apply((x, y))
        with pytest.raises(ValueError, match='Bad: backward returned 3 gradients, expected 2'):
            F.sum(z).backward()

    def test_all_inputs_form_accepted(self):
        class AllInputs(chainer.FunctionNode):
            def forward(self, inputs):
                return inputs[0] + inputs[1],

            def backward(self, indexes, gy):
                return gy[0], gy[0]
        x = x32(2)
        c = chainer.Variable(np.ones(2, np.float32), requires_grad=False)
        z, = AllInputs().apply((x, c))
        F.sum(z).backward()
        np.testing.assert_array_equal(x.grad, [1, 1])
        assert c.grad is None

    def test_wrong_shape(self):
        class Bad(chainer.FunctionNode):
            def forward(self, inputs):
                return inputs[0] * 2,

            def backward(self, indexes, gy):
                return chainer.Variable(np.ones(5, np.float32)),
        z, = Bad().apply((x32(2),))
        with pytest.raises(ValueError, match=r'Bad \(Bad\) returned an invalid gradient for '
                                             r'input #0(.|\n)*Shape of data and grad mismatch'):
            F.sum(z).backward()

    def test_wrong_dtype(self):
        class Bad(chainer.FunctionNode):
            def forward(self, inputs):
                return inputs[0] * 2,

            def backward(self, indexes, gy):
                return chainer.Variable(np.ones(2, np.float64)),
        z, = Bad().apply((x32(2),))
        with pytest.raises(TypeError, match='Dtype of data and grad mismatch'):
            F.sum(z).backward()

    def test_backward_returning_arrays_is_accepted(self):
        class Arr(chainer.FunctionNode):
            def forward(self, inputs):
                return inputs[0] * 2,

            def backward(self, indexes, gy):
                return gy[0].array * 2,
        x = x32(2)
        z, = Arr().apply((x,))
        F.sum(z).backward()
        np.testing.assert_array_equal(x.grad, [2, 2])

    def test_backward_accumulate_override(self):
        calls = []

        class Acc(chainer.FunctionNode):
            def forward(self, inputs):
                return inputs[0] * 2,

            def backward_accumulate(self, indexes, gy, grad_inputs):
                calls.append(grad_inputs)
                g = gy[0] * 2
                return (g if grad_inputs[0] is None else g + grad_inputs[0]),
        x = x32(2)
        x.grad = np.full(2, 10, np.float32)
        z, = Acc().apply((x,))
        F.sum(z).backward()
        np.testing.assert_array_equal(x.grad, [12, 12])
        assert calls[0][0] is not None


class TestHooks:

    def test_global_and_local(self):
        events = []

        class Rec(chainer.FunctionHook):
            name = 'rec'

            def added(self, function):
                events.append(('added', function))

            def deleted(self, function):
                events.append(('deleted', function))

            def forward_preprocess(self, function, in_data):
                events.append(('fpre', function.label))

            def forward_postprocess(self, function, in_data):
                events.append(('fpost', function.label))

            def backward_preprocess(self, function, in_data, out_grad):
                events.append(('bpre', function.label))

            def backward_postprocess(self, function, in_data, out_grad):
                events.append(('bpost', function.label))

        x = x32(2)
        with Rec() as h:
            assert chainer.get_function_hooks()['rec'] is h
            y = F.sum(Square().apply((x,))[0])
            y.backward()
        assert 'rec' not in chainer.get_function_hooks()
        labels = [e for e in events if e[0] in ('fpre', 'bpre')]
        assert labels[:2] == [('fpre', 'Square'), ('fpre', 'Sum')]
        assert ('bpre', 'Square') in labels and ('bpost', 'Square') in events
        assert events[0] == ('added', None) and events[-1] == ('deleted', None)

        events.clear()
        f = Square()
        f.add_hook(Rec())
        assert 'rec' in f.local_function_hooks
        f.apply((x,))
        assert events == [('added', f), ('fpre', 'Square'), ('fpost', 'Square')]
        with pytest.raises(KeyError):
            f.add_hook(Rec())
        f.delete_hook('rec')
        with pytest.raises(KeyError):
            f.delete_hook('rec')
        with pytest.raises(TypeError):
            f.add_hook(object())


class TestDebug:

    def test_nan_detected_in_forward(self):
        x = chainer.Variable(np.array([-1.0], np.float32))
        with chainer.using_config('debug', True):
            assert chainer.is_debug()
            with pytest.raises(RuntimeError, match='NaN is detected on forward computation of log'):
                F.log(x)
        F.log(x)  # no check outside debug mode

    def test_nan_detected_in_backward(self):
        class NanGrad(chainer.FunctionNode):
            def forward(self, inputs):
                return inputs[0] * 1,

            def backward(self, indexes, gy):
                return chainer.Variable(np.full_like(gy[0].array, np.nan)),
        x = x32()
        with chainer.using_config('debug', True):
            y, = NanGrad().apply((x,))
            with pytest.raises(RuntimeError,
                               match='NaN is detected on backward computation of NanGrad'):
                y.backward()

    def test_backward_error_says_where_forward_was_called(self):
        class Broken(chainer.FunctionNode):
            def forward(self, inputs):
                return inputs[0] * 1,

            def backward(self, indexes, gy):
                raise ZeroDivisionError('boom')
        x = x32()
        chainer.set_debug(True)
        try:
            y, = Broken().apply((x,))
        finally:
            chainer.set_debug(False)
        with chainer.using_config('debug', True):
            with pytest.raises(ZeroDivisionError) as e:
                y.backward()
        notes = '\n'.join(getattr(e.value, '__notes__', []))
        assert 'Broken was called at' in notes and 'test_function_node.py' in notes


def test_zero_dim_results_keep_input_dtype():
    # NumPy 1.x promotes a 0-d float16 array mixed with a Python int to float64; apply keeps
    # the input's dtype on both NumPy 1.x and 2.x.
    class MaxZero(chainer.FunctionNode):
        def forward(self, inputs):
            return np.maximum(inputs[0], 0), inputs[0] * 2
    for dtype in (np.float16, np.float32):
        a, b = MaxZero().apply((np.array(1.5, dtype),))
        assert a.dtype == dtype and b.dtype == dtype and a.shape == ()


class TestConfigCache:
    """apply caches hot config flags per thread; every config write must be seen at once."""

    def test_flag_changes_are_seen(self):
        x = x32(2)
        assert (x * 2).creator is not None
        chainer.config.enable_backprop = False
        try:
            assert (x * 2).creator is None
        finally:
            del chainer.config.enable_backprop
        assert (x * 2).creator is not None
        chainer.global_config.type_check = False
        try:
            y, = Square(2).apply((np.ones(2, np.int32),))   # no InvalidType
        finally:
            chainer.global_config.type_check = True
        with pytest.raises(type_check.InvalidType):
            Square(2).apply((np.ones(2, np.int32),))

    def test_other_thread_writes_do_not_leak(self):
        import threading
        x = x32(2)
        ready, done = threading.Event(), threading.Event()
        seen = {}

        def worker():
            with chainer.no_backprop_mode():
                ready.set()
                done.wait()
                seen['worker'] = (x * 2).creator is None

        t = threading.Thread(target=worker)
        t.start()
        ready.wait()
        seen['main'] = (x * 2).creator is not None
        done.set()
        t.join()
        assert seen == {'main': True, 'worker': True}

    def test_hook_registered_later_is_called(self):
        x = x32(2)
        x * 2   # warm the cache without hooks

        class Count(chainer.FunctionHook):
            name = 'count'
            n = 0

            def forward_preprocess(self, function, in_data):
                Count.n += 1
        with Count():
            x * 2
        x * 2
        assert Count.n == 1


def test_apply_accepts_any_iterable():
    a = np.ones((2, 3), np.float32)
    assert F.concat(x for x in [a, a]).shape == (2, 6)
    v = chainer.Variable(a)
    assert F.concat(x for x in [v, v]).shape == (2, 6)
    assert F.concat([v, a]).shape == (2, 6)


class TestNoneInAndOut:
    """None may be passed as an input and returned as a forward output (as in Chainer)."""

    class Middle(chainer.FunctionNode):
        def forward(self, inputs):
            a, x, b = inputs
            assert a is None and b is None
            self.retain_inputs((1, 2))
            self.retain_outputs((0, 1))
            return None, x * 3

        def backward(self, indexes, grad_outputs):
            assert indexes == (1,)          # None inputs never need gradients
            x, b = self.get_retained_inputs()
            assert b is None and x is not None
            y0, y1 = self.get_retained_outputs()
            assert y0 is None and y1 is not None
            assert grad_outputs[0] is None
            return None, grad_outputs[1] * 3, None

    def test_backprop(self):
        x = chainer.Variable(np.array([1., 2.], np.float32))
        y0, y1 = self.Middle().apply((None, x, None))
        assert y0.array is None and y0.node.shape is None and y0.node.dtype is None
        assert y0.creator is y1.creator and y0.rank == y1.rank == 1
        y1.grad = np.ones(2, np.float32)
        y1.backward()
        np.testing.assert_array_equal(x.grad, [3., 3.])

    def test_old_style_function(self):
        class Old(chainer.Function):
            def forward(self, inputs):
                self.retain_inputs((1,))
                self.retain_outputs((0, 1))
                return None, inputs[1] * 2

            def backward(self, inputs, grad_outputs):
                assert inputs[0] is None and grad_outputs[0] is None
                assert self.output_data[0] is None and self.output_data[1] is not None
                return None, grad_outputs[1] * 2

        x = chainer.Variable(np.array([1., 2.], np.float32))
        y0, y1 = Old()(None, x)
        F.sum(y1).backward()
        np.testing.assert_array_equal(x.grad, [2., 2.])

    def test_as_variable_of_none(self):
        v = chainer.as_variable(None)
        assert v.array is None and not v.requires_grad

    def test_other_objects_still_rejected(self):
        with pytest.raises(TypeError, match='input #0 must be a Variable'):
            Square().apply(([1.0],))


def test_rank_is_read_from_the_node():
    # VariableNode.rank reads _rank, which apply builds on (Chainer's tests set it).
    x = chainer.Variable(np.ones(2, np.float32))
    x.node._rank = 4
    y, = Square().apply((x,))
    assert y.rank == 5 and y.node.rank == 5 and y.creator_node.rank == 4
