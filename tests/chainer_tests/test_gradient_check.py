import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import gradient_check
from chainer import testing


# ---- tiny functions defined here, so the checks are tested independently of F ------------
class Square(chainer.FunctionNode):
    """x ** 2 with a correct, differentiable backward (optionally scaled wrong)."""

    def __init__(self, scale=2.0):
        self.scale = scale

    def forward(self, inputs):
        self.retain_inputs((0,))
        return inputs[0] * inputs[0],

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return self.scale * x * grad_outputs[0],


class Cube(chainer.FunctionNode):
    """x ** 3 whose backward uses a grad node whose own backward may be wrong."""

    def __init__(self, second_scale=6.0):
        self.second_scale = second_scale

    def forward(self, inputs):
        self.retain_inputs((0,))
        return inputs[0] ** 3,

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return CubeGrad(self.second_scale).apply((x, grad_outputs[0]))[0],


class CubeGrad(chainer.FunctionNode):
    # y = 3 x^2 gy;  dy/dx = 6 x gy, dy/dgy = 3 x^2
    def __init__(self, second_scale):
        self.second_scale = second_scale

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, gy = inputs
        return 3 * x * x * gy,

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        g, = grad_outputs
        return self.second_scale * x * gy * g, 3 * x * x * g


class Abs(chainer.FunctionNode):
    def forward(self, inputs):
        self.retain_inputs((0,))
        return abs(inputs[0]),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return chainer.Variable(numpy.sign(x.array)) * grad_outputs[0],


class ReLU(chainer.FunctionNode):
    def forward(self, inputs):
        self.retain_inputs((0,))
        return numpy.maximum(inputs[0], 0),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return chainer.Variable((x.array > 0).astype(x.dtype)) * grad_outputs[0],


class Max2(chainer.FunctionNode):
    """Elementwise max of two arrays (ties go to the first)."""

    def forward(self, inputs):
        a, b = inputs
        self.mask = a >= b
        return numpy.where(self.mask, a, b),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        m = self.mask.astype(gy.dtype)
        return chainer.Variable(m) * gy, chainer.Variable(1 - m) * gy


class Take(chainer.FunctionNode):
    """x[indices] along axis 0; the integer input gets no gradient."""

    def __init__(self, grad_for_indices=False):
        self.grad_for_indices = grad_for_indices

    def forward(self, inputs):
        x, idx = inputs
        self.shape, self.idx = x.shape, idx
        return x[idx],

    def backward(self, indexes, grad_outputs):
        gx = numpy.zeros(self.shape, grad_outputs[0].dtype)
        numpy.add.at(gx, self.idx, grad_outputs[0].array)
        g_idx = chainer.Variable(numpy.zeros(self.idx.shape, numpy.float32)) \
            if self.grad_for_indices else None
        return chainer.Variable(gx), g_idx


class SplitTwo(chainer.FunctionNode):
    """Two outputs (sin x, x * y) from two inputs, written on raw arrays."""

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, y = inputs
        return numpy.sin(x), x * y

    def backward(self, indexes, grad_outputs):
        x, y = self.get_retained_inputs()
        g0, g1 = grad_outputs
        gx = 0
        if g0 is not None:
            gx = gx + chainer.Variable(numpy.cos(x.array)) * g0
        gy = None
        if g1 is not None:
            gx = gx + y * g1
            gy = x * g1
        return gx, gy


def _u(*shape, dtype=numpy.float64):
    return numpy.random.uniform(-1, 1, shape).astype(dtype)


def square(x):
    return Square().apply((x,))[0]


def cube(a):
    return a ** 3


# ---- numerical_grad ----------------------------------------------------------------------
class TestNumericalGrad:

    def test_matches_analytic_and_restores(self):
        x, y = _u(3, 2), _u(3, 2)
        gy0, gy1 = _u(3, 2), _u(3, 2)
        x0, y0 = x.copy(), y.copy()
        gx, gyy = gradient_check.numerical_grad(lambda: (x * x * y, x + y), (x, y), (gy0, gy1))
        numpy.testing.assert_allclose(gx, 2 * x * y * gy0 + gy1, atol=1e-6)
        numpy.testing.assert_allclose(gyy, x * x * gy0 + gy1, atol=1e-6)
        numpy.testing.assert_array_equal(x, x0)
        numpy.testing.assert_array_equal(y, y0)

    def test_scalar_grad_outputs(self):
        # Chainer documents grad_outputs as "tuple of arrays or scalars".
        x = _u(3)
        gx, = gradient_check.numerical_grad(lambda: (x * x,), (x,), (2.0,))
        numpy.testing.assert_allclose(gx, 4 * x, atol=1e-6)
        gx, = gradient_check.numerical_grad(lambda: ((x * 3).sum(),), (x,), (numpy.float32(1),))
        numpy.testing.assert_allclose(gx, numpy.full(3, 3.0), atol=1e-6)

    def test_none_grad_output_skips_output(self):
        x = _u(4)
        gx, = gradient_check.numerical_grad(lambda: (x * 2, x * 100), (x,), (numpy.ones(4), None))
        numpy.testing.assert_allclose(gx, numpy.full(4, 2.0))

    def test_zero_dim_and_variable_output(self):
        x = numpy.array(0.5)
        gx, = gradient_check.numerical_grad(lambda: chainer.Variable(numpy.asarray(x ** 3)), (x,),
                                            (numpy.array(1.0),))
        assert gx.shape == ()
        numpy.testing.assert_allclose(gx, 0.75, rtol=1e-5)

    def test_float16_uses_realized_step(self):
        # 0.7 + 1e-3 is not representable in float16; dividing by the realized step keeps
        # the derivative of a linear function exact.
        x = numpy.array([0.7, -0.3], numpy.float16)
        gx, = gradient_check.numerical_grad(lambda: (x.astype(numpy.float64) * 3,), (x,),
                                            (numpy.ones(2),))
        assert gx.dtype == numpy.float16
        numpy.testing.assert_allclose(gx, [3, 3], rtol=1e-3)

    def test_output_aliasing_the_input(self):
        x = _u(3)
        gx, = gradient_check.numerical_grad(lambda: (x,), (x,), (numpy.ones(3),))
        numpy.testing.assert_allclose(gx, numpy.ones(3))

    def test_per_input_eps_and_bad_eps(self):
        x, y = _u(2), _u(2)
        gx, gy = gradient_check.numerical_grad(lambda: (x * y,), (x, y), (numpy.ones(2),),
                                               eps=(1e-3, 1e-4))
        numpy.testing.assert_allclose(gx, y, atol=1e-8)
        for bad in (0, -1.0):
            with pytest.raises(AssertionError, match='eps > 0'):     # as Chainer
                gradient_check.numerical_grad(lambda: (x,), (x,), (numpy.ones(2),), eps=bad)
        with pytest.raises(ValueError):
            gradient_check.numerical_grad(lambda: (x,), (x,), (numpy.ones(2),), eps=(1e-3, 1))

    @pytest.mark.parametrize('f,x', [
        (abs, numpy.array([0.5, 0.0, -0.3])),
        (lambda a: numpy.maximum(a, 0), numpy.array([0.5, 0.0])),
        (numpy.floor, numpy.array([1.0, 0.2])),     # a jump
    ])
    def test_detects_nondifferentiable(self, f, x):
        with pytest.raises(gradient_check.NondifferentiableError, match='not differentiable'):
            gradient_check.numerical_grad(lambda: (f(x),), (x,), (numpy.ones(x.shape),),
                                          detect_nondifferentiable=True)

    def test_max_with_ties(self):
        a, b = numpy.array([0.3, 0.1]), numpy.array([0.3, 0.5])
        with pytest.raises(gradient_check.NondifferentiableError):
            gradient_check.numerical_grad(lambda: (numpy.maximum(a, b),), (a, b),
                                          (numpy.ones(2),), detect_nondifferentiable=True)

    @pytest.mark.parametrize('f', [numpy.exp, numpy.tanh, cube, lambda a: a * a,
                                   numpy.cos, lambda a: 100 + a])
    def test_smooth_points_pass(self, f):
        # (Not x ** 3 at exactly 0: with f' = f'' = 0 there, five points cannot tell it
        # from a kink.)
        x = numpy.array([0.1, 0.3, -0.9, 0.0 if f is not cube else 1e-2])
        gx, = gradient_check.numerical_grad(lambda: (f(x),), (x,), (numpy.ones(4),),
                                            detect_nondifferentiable=True)
        assert numpy.isfinite(gx).all()

    def test_detection_uses_center_outputs(self):
        x = numpy.array([0.0])
        calls = []

        def f():
            calls.append(1)
            return x * x,
        gradient_check.numerical_grad(f, (x,), (numpy.ones(1),), detect_nondifferentiable=True,
                                      center_outputs=(x * x,))
        assert len(calls) == 4      # +-1/2 and +-1 steps; the center was given

    # A kink (or a jump) is found exactly when it lies within eps of the point: the check
    # judges the interval that the central difference spans, no more.
    @pytest.mark.parametrize('f,kink', [
        (abs, 0.0), (lambda a: (a > 0).astype(a.dtype), 0.0), (numpy.floor, 100.0),
        (lambda a: numpy.clip(a, 0, 1), 1.0)])
    @pytest.mark.parametrize('offset,found', [
        (0.0, True), (0.8, True), (-0.8, True), (1.2, False), (-1.2, False), (50, False)])
    def test_kink_found_within_eps_only(self, f, kink, offset, found):
        eps = 1e-3
        x = numpy.array([kink + offset * eps], numpy.float32)
        gy = numpy.ones(1, numpy.float32)

        def run():
            return gradient_check.numerical_grad(lambda: (f(x),), (x,), (gy,), eps=eps,
                                                 detect_nondifferentiable=True)
        if found:
            with pytest.raises(gradient_check.NondifferentiableError):
                run()
        else:
            run()

    def test_curvature_large_for_eps_is_not_smooth(self):
        # Differentiable, but eps is too large to see it as such.
        x = numpy.array([0.0], numpy.float32)
        f = lambda: (-3 * x ** 3 + 2 * x ** 2 + 1,)    # NOQA: E731
        gradient_check.numerical_grad(f, (x,), (numpy.ones(1, numpy.float32),), eps=1e-3,
                                      detect_nondifferentiable=True)
        with pytest.raises(gradient_check.NondifferentiableError):
            gradient_check.numerical_grad(f, (x,), (numpy.ones(1, numpy.float32),),
                                          eps=1e-1, detect_nondifferentiable=True)

    @pytest.mark.parametrize('x,found', [
        (0.0, True),        # -inf at the point, NaN below it, finite above
        (-10.0, False),     # NaN everywhere: outside the domain, nothing to judge
    ])
    def test_partly_finite_is_not_differentiable(self, x, found):
        x = numpy.array([x], numpy.float32)
        with numpy.errstate(all='ignore'):
            if found:
                with pytest.raises(gradient_check.NondifferentiableError, match='finite'):
                    gradient_check.numerical_grad(
                        lambda: (numpy.log(x),), (x,), (numpy.ones(1, numpy.float32),),
                        detect_nondifferentiable=True)
            else:
                gradient_check.numerical_grad(
                    lambda: (numpy.log(x),), (x,), (numpy.ones(1, numpy.float32),),
                    detect_nondifferentiable=True)

    @pytest.mark.parametrize('f,x', [
        (numpy.exp, -100.0),                # denormal outputs: steps of one unit
        (lambda a: 2 * a, numpy.inf),       # a non-finite input
        (lambda a: -3 * a ** 3, 100.0),     # large outputs, coarse float32 rounding
    ])
    def test_rounding_is_not_a_kink(self, f, x):
        x = numpy.array([x], numpy.float32)
        with numpy.errstate(all='ignore'):
            gradient_check.numerical_grad(lambda: (f(x),), (x,), (numpy.ones(1, numpy.float32),),
                                          detect_nondifferentiable=True)

    def test_diff_tolerances(self):
        x = numpy.array([0.0])
        # A tiny kink hidden below an absolute tolerance.
        gradient_check.numerical_grad(lambda: (1e-6 * abs(x),), (x,), (numpy.ones(1),),
                                      detect_nondifferentiable=True, diff_atol=1e-4)
        with pytest.raises(gradient_check.NondifferentiableError):
            gradient_check.numerical_grad(lambda: (1e-6 * abs(x),), (x,), (numpy.ones(1),),
                                          detect_nondifferentiable=True)


# ---- check_backward ---------------------------------------------------------------------
class TestCheckBackward:

    def test_correct_functions_pass(self):
        x = _u(3, 2, dtype=numpy.float32)
        gy = _u(3, 2, dtype=numpy.float32)
        gradient_check.check_backward(square, x, gy, dtype=numpy.float64)
        gradient_check.check_backward(F.exp, x, gy, dtype=numpy.float64)
        gradient_check.check_backward(square, chainer.Variable(x), gy, dtype=numpy.float64)
        # func returning its input unchanged
        gradient_check.check_backward(lambda a: a, (_u(3),), (_u(3),))

    def test_float64_without_dtype(self):
        gradient_check.check_backward(square, _u(5), _u(5))

    def test_float16_with_float64_numerics(self):
        x = _u(4, dtype=numpy.float16)
        gradient_check.check_backward(square, x, _u(4, dtype=numpy.float16),
                                      dtype=numpy.float64, atol=1e-3, rtol=1e-2)

    def test_wrong_backward_fails_with_report(self):
        x, gy = _u(3, 2), _u(3, 2)
        with pytest.raises(AssertionError) as info:
            gradient_check.check_backward(lambda a: Square(scale=2.5).apply((a,))[0], x, gy)
        msg = str(info.value)
        assert 'check_backward failed' in msg
        assert 'numerical' in msg and 'backprop' in msg
        assert 'atol + rtol' in msg and 'eps=0.001' in msg
        assert 'input #0 (float64, shape (3, 2))' in msg
        assert 'mismatch' in msg
        assert 'grad_outputs:' in msg and 'inputs:' in msg

    def test_report_points_at_the_wrong_input(self):
        class HalfWrongMul(chainer.FunctionNode):
            def forward(self, inputs):
                self.retain_inputs((0, 1))
                return inputs[0] * inputs[1],

            def backward(self, indexes, grad_outputs):
                a, b = self.get_retained_inputs()
                return b * grad_outputs[0], -a * grad_outputs[0]    # second one wrong

        x, y, gy = _u(4), _u(4), _u(4)
        with pytest.raises(AssertionError) as info:
            gradient_check.check_backward(lambda a, b: HalfWrongMul().apply((a, b))[0],
                                          (x, y), gy)
        lines = str(info.value).splitlines()
        [line0] = [ln for ln in lines if ln.strip().startswith('input #0 (')]
        [line1] = [ln for ln in lines if ln.strip().startswith('input #1 (')]
        assert 'mismatch' not in line0
        assert 'mismatch' in line1

    def test_multiple_outputs(self):
        x, y = _u(3), _u(3)
        gys = (_u(3), _u(3))

        def f(a, b):
            return SplitTwo().apply((a, b))
        gradient_check.check_backward(f, (x, y), gys)
        gradient_check.check_backward(f, (x, y), (gys[0], None))
        gradient_check.check_backward(f, (x, y), (None, gys[1]))
        with pytest.raises(ValueError, match='outputs'):
            gradient_check.check_backward(f, (x, y), gys[0])

    def test_same_input_twice_and_unused_input(self):
        x, y = _u(3), _u(3)
        gradient_check.check_backward(lambda a, b: a * a, (x, y), _u(3))

    def test_scalar_output_with_none_y_grad(self):
        x = _u(3, 2)
        gradient_check.check_backward(lambda a: F.sum(square(a)), x, None)
        with pytest.raises(ValueError, match='y_grad is None'):
            gradient_check.check_backward(square, x, None)

    def test_integer_input(self):
        x = _u(5, 2)
        idx = numpy.array([0, 3, 3], numpy.int32)
        gradient_check.check_backward(lambda a, i: Take().apply((a, i))[0], (x, idx), _u(3, 2))

    def test_gradient_given_to_skipped_input(self):
        x, y = _u(3), _u(3)
        with pytest.raises(RuntimeError, match='input #1'):
            gradient_check.check_backward(lambda a, b: a * b, (x, y), _u(3),
                                          no_grads=[False, True])
        # A float input whose gradient is None may be skipped.
        class ScaleBy(chainer.FunctionNode):
            def forward(self, inputs):
                self.retain_inputs((1,))
                return inputs[0] * inputs[1],

            def backward(self, indexes, grad_outputs):
                s, = self.get_retained_inputs()
                return s * grad_outputs[0], None

        gradient_check.check_backward(lambda a, b: ScaleBy().apply((a, b))[0],
                                      (x, y), _u(3), no_grads=[False, True])

    def test_bad_no_grads(self):
        x, idx = _u(3), numpy.array([0])
        with pytest.raises(ValueError):
            gradient_check.check_backward(lambda a, i: a, (x, idx), _u(3), no_grads=[False])
        with pytest.raises(ValueError, match='integer|dtype'):
            gradient_check.check_backward(lambda a, i: a, (x, idx), _u(3),
                                          no_grads=[False, False])

    def test_params(self):
        w = chainer.Parameter(_u(3, 2))
        x = _u(3, 2)
        gradient_check.check_backward(lambda a: a * w + square(w), x, _u(3, 2), params=w)
        assert w.grad is None       # the check leaves .grad alone

    def test_wrong_param_gradient_fails(self):
        w = chainer.Parameter(_u(3))
        w.name = 'W'

        class MulConst(chainer.FunctionNode):
            def forward(self, inputs):
                self.retain_inputs((0, 1))
                return inputs[0] * inputs[1],

            def backward(self, indexes, grad_outputs):
                a, b = self.get_retained_inputs()
                return b * grad_outputs[0], 2 * a * grad_outputs[0]    # param grad wrong

        with pytest.raises(AssertionError) as info:
            gradient_check.check_backward(lambda a: MulConst().apply((a, w))[0], _u(3), _u(3),
                                          params=(w,))
        assert "param #0 'W'" in str(info.value)
        [line] = [ln for ln in str(info.value).splitlines()
                  if ln.strip().startswith('param #0') and 'numerical' in ln]
        assert 'mismatch' in line

    def test_zero_size(self):
        gradient_check.check_backward(square, numpy.zeros((0, 3)), numpy.zeros((0, 3)))

    def test_detect_nondifferentiable(self):
        x = numpy.array([0.5, 0.0, -0.4])
        for node in (Abs, ReLU):
            with pytest.raises(gradient_check.NondifferentiableError) as info:
                gradient_check.check_backward(lambda a: node().apply((a,))[0], x, _u(3),
                                              detect_nondifferentiable=True)
            assert 'inputs:' in str(info.value)
        # A tie of max; b stays put, so the slope jumps from 0 to that of a.
        b = numpy.array([0.2, 0.5])
        with pytest.raises(gradient_check.NondifferentiableError):
            gradient_check.check_backward(lambda a: Max2().apply((a, b))[0],
                                          numpy.array([0.2, 0.1]), _u(2),
                                          detect_nondifferentiable=True)
        x = numpy.array([0.5, 0.3, -0.4])
        gradient_check.check_backward(lambda a: Abs().apply((a,))[0], x, _u(3),
                                      detect_nondifferentiable=True)

    def test_follows_config(self):
        seen = []

        def f(a):
            seen.append(chainer.config.train)
            return square(a)
        with chainer.using_config('train', False):
            gradient_check.check_backward(f, _u(3), _u(3))
        assert seen and not any(seen)

    def test_no_backprop_mode_is_explained(self):
        with chainer.no_backprop_mode():
            with pytest.raises(AssertionError, match='enable_backprop is False'):
                gradient_check.check_backward(square, _u(3), _u(3))

    def test_bad_arguments(self):
        with pytest.raises(TypeError):
            gradient_check.check_backward(square, [1.0, 2.0], None)
        with pytest.raises(ValueError):
            gradient_check.check_backward(square, _u(3), _u(3), dtype=numpy.int32)
        with pytest.raises(ValueError, match='shape'):
            gradient_check.check_backward(square, _u(3), _u(4))
        with pytest.raises(TypeError, match='dtype'):
            gradient_check.check_backward(square, _u(3), _u(3, dtype=numpy.float32))

    def test_reexports_assert_allclose(self):
        assert gradient_check.assert_allclose is testing.assert_allclose


# ---- check_double_backward --------------------------------------------------------------
class TestCheckDoubleBackward:

    def test_correct_second_derivative(self):
        x, gy, ggx = _u(3, 2), _u(3, 2), _u(3, 2)
        gradient_check.check_double_backward(lambda a: Cube().apply((a,))[0], x, gy, ggx)
        gradient_check.check_double_backward(F.tanh, x, gy, ggx)

    def test_wrong_second_derivative(self):
        x, gy, ggx = _u(3, 2), _u(3, 2), _u(3, 2)
        with pytest.raises(AssertionError, match='check_backward failed'):
            gradient_check.check_double_backward(lambda a: Cube(second_scale=5).apply((a,))[0],
                                                 x, gy, ggx)

    def test_linear_function(self):
        x, gy, ggx = _u(4), _u(4), _u(4)
        gradient_check.check_double_backward(lambda a: 3 * a, x, gy, ggx)

    def test_two_inputs_one_unchecked_and_integer(self):
        x, y, gy = _u(3), _u(3), _u(3)
        gradient_check.check_double_backward(lambda a, b: a * b, (x, y), gy, (_u(3), _u(3)))
        # y is a constant here: its second-order gradient is not checked.
        gradient_check.check_double_backward(lambda a, b: a * a * b, (x, y), gy, (_u(3), None),
                                             no_grads=[False, True])
        idx = numpy.array([2, 0], numpy.int32)
        gradient_check.check_double_backward(
            lambda a, i: square(a[i.array]), (x, idx), _u(2), (_u(3), None))

    def test_scalar_output_and_params(self):
        w = chainer.Parameter(_u(3))
        x = _u(3)
        gradient_check.check_double_backward(lambda a: F.sum(square(a * w)), x, None, _u(3),
                                             params=w, params_grad_grad=_u(3))

    def test_float32_with_dtype(self):
        x = _u(3, dtype=numpy.float32)
        gradient_check.check_double_backward(lambda a: Cube().apply((a,))[0], x,
                                             _u(3, dtype=numpy.float32),
                                             _u(3, dtype=numpy.float32), dtype=numpy.float64)

    def test_bad_lengths(self):
        with pytest.raises(ValueError):
            gradient_check.check_double_backward(square, _u(3), _u(3), (_u(3), _u(3)))
        with pytest.raises(ValueError):
            gradient_check.check_double_backward(square, _u(3), _u(3), _u(3),
                                                 params=chainer.Parameter(_u(2)))


@pytest.mark.parametrize('size', [0, 1, 5, 64])
def test_sample_unit_vector(size):
    v = gradient_check._CheckBackward._sample_unit_vector(size, numpy)
    assert v.shape == (size,)
    if size:
        numpy.testing.assert_allclose((v * v).sum(), 1.0)
        # no element so small that its gradient would not count
        assert abs(v).min() >= 0.1 / numpy.sqrt(size)
    if size == 64:
        assert v.min() < 0 < v.max()


def test_check_backward_catches_a_wrong_gradient_in_one_element():
    # Every element of the direction is far from zero, so an error in any single element
    # of the gradient changes the directional derivative.
    class OneWrong(chainer.FunctionNode):
        def forward(self, inputs):
            return inputs[0] * 2,

        def backward(self, indexes, gy):
            g = gy[0] * 2
            return g + chainer.Variable(numpy.eye(1, 50, 37).ravel() * 0.5),

    x = numpy.random.uniform(-1, 1, 50)
    for _ in range(5):
        with pytest.raises(AssertionError):
            gradient_check.check_backward(lambda a: OneWrong().apply((a,)), x, numpy.ones(50))
