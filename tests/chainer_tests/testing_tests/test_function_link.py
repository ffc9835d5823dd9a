import unittest

import numpy
import pytest

import chainer
from chainer import testing
from chainer.testing import function_link
from chainer.testing.function_link import FunctionTestError, LinkTestError

NUMPY = testing.BackendConfig({})


# ---- a small function with a grad node, defined here ------------------------------------
class Square(chainer.FunctionNode):
    """x ** 2; ``wrong`` breaks the first or the second derivative on purpose."""

    def __init__(self, wrong=None):
        self.wrong = wrong

    @property
    def label(self):
        return 'square'

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        return x * x,

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        scale = 2.5 if self.wrong == 'backward' else 2.0
        return SquareGrad(scale, self.wrong).apply((x, grad_outputs[0]))[0],


class SquareGrad(chainer.FunctionNode):
    # gx = scale * x * gy

    def __init__(self, scale, wrong):
        self.scale, self.wrong = scale, wrong

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, gy = inputs
        return (self.scale * x * gy).astype(x.dtype),

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        g, = grad_outputs
        s = self.scale * (3 if self.wrong == 'double_backward' else 1)
        return s * gy * g, self.scale * x * g


def square(x, wrong=None):
    return Square(wrong).apply((x,))[0]


class Scale(chainer.FunctionNode):
    """x * k[i]: a float input and an integer one (which gets no gradient)."""

    def forward(self, inputs):
        self.retain_inputs((1,))
        x, k = inputs
        return (x * k[:, None]).astype(x.dtype),

    def backward(self, indexes, grad_outputs):
        k, = self.get_retained_inputs()
        kk = chainer.Variable(k.array[:, None].astype(grad_outputs[0].dtype))
        return chainer.functions.broadcast_to(kk, grad_outputs[0].shape) * grad_outputs[0], None


# ---- end to end: these classes are collected and run -------------------------------------
@testing.parameterize(*testing.product({
    'shape': [(3, 2), ()],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'contiguous': [None, 'C'],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSquare(testing.FunctionTestCase):

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return square(inputs[0]),

    def forward_expected(self, inputs):
        x, = inputs
        return x * x,


@testing.parameterize(*testing.product({'dtype': [numpy.float32, numpy.float64]}))
@testing.inject_backend_tests(None, [{}])
class TestIntegerInputAndTwoOutputs(testing.FunctionTestCase):

    def setUp(self):
        self.check_backward_options.update({'atol': 1e-4})

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, (4, 3)).astype(self.dtype)
        k = numpy.array([1, -2, 3, 0], numpy.int32)
        return x, k

    def forward(self, inputs, device):
        x, k = inputs
        y, = Scale().apply((x, k))
        return y, square(x)

    def forward_expected(self, inputs):
        x, k = inputs
        return (x * k[:, None]).astype(self.dtype), x * x


@testing.inject_backend_tests(None, [{}])
class TestNotParameterized(testing.FunctionTestCase):
    """A subclass used without parameterize is collected (through its backend class)."""

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (2, 3)),

    def forward(self, inputs, device):
        return square(inputs[0]),

    def forward_expected(self, inputs):
        return inputs[0] ** 2,


def test_base_and_templates_not_collected():
    assert testing.FunctionTestCase.__test__ is False
    assert testing.LinkTestCase.__test__ is False
    assert TestSquare.__test__ is False          # the parameterize template
    # inject_backend_tests turns it into a template too; its one NumPy class is collected.
    assert TestNotParameterized.__test__ is False
    injected = [v for k, v in globals().items() if k.startswith('TestNotParameterized_use_')]
    assert len(injected) == 1 and injected[0].__test__ is True
    generated = [v for k, v in globals().items()
                 if k.startswith('TestSquare_') and '_param_' in k]
    assert len(generated) == 24 and all(c.__test__ for c in generated)  # 12 x 2 backends


# ---- failures and options, run by hand ---------------------------------------------------
class _Case(testing.FunctionTestCase):
    __test__ = False
    wrong = None
    dtype = numpy.float32
    shape = (3, 2)
    expected_scale = 1

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return square(inputs[0], self.wrong),

    def forward_expected(self, inputs):
        return (inputs[0] * inputs[0] * self.expected_scale).astype(self.dtype),


def _make(name='test_forward', **attrs):
    cls = type('TestCaseUnderTest', (_Case,), attrs)
    return cls(name)


def test_correct_case_passes_by_hand():
    case = _make()
    case.test_forward(NUMPY)
    case.test_backward(NUMPY)
    case.test_double_backward(NUMPY)
    case.test_forward()             # without a backend_config: NumPy
    assert case.backend_config.xp is numpy


def test_wrong_backward_message():
    case = _make('test_backward', wrong='backward', dtype=numpy.float64)
    with pytest.raises(FunctionTestError) as info:
        case.test_backward(NUMPY)
    msg = str(info.value)
    assert 'test_backward failed' in msg
    assert 'TestCaseUnderTest' in msg                  # the test
    assert 'function: square' in msg                   # the function
    assert 'input #0 (float64, shape (3, 2))' in msg   # input index and dtype
    assert 'mismatch' in msg
    assert 'BackendConfig' in msg and "use_cuda=False" in msg   # the backend
    assert 'numerical' in msg and 'backprop' in msg


def test_wrong_double_backward_message():
    case = _make('test_double_backward', wrong='double_backward')
    case.test_backward(NUMPY)      # first order is right
    with pytest.raises(FunctionTestError, match='test_double_backward failed'):
        case.test_double_backward(NUMPY)


def test_wrong_forward_message():
    case = _make(expected_scale=2)
    with pytest.raises(FunctionTestError) as info:
        case.test_forward(NUMPY)
    msg = str(info.value)
    assert 'test_forward failed' in msg and 'function: square' in msg
    assert 'output #0 (float32 (3, 2)) differs' in msg
    assert 'inputs: #0 float32 (3, 2)' in msg


def test_forward_dtype_and_shape_checked():
    class WrongDtype(_Case):
        def forward_expected(self, inputs):
            return (inputs[0] * inputs[0]).astype(numpy.float64),

    with pytest.raises(FunctionTestError, match='dtype float32, expected float64'):
        WrongDtype('test_forward').test_forward(NUMPY)

    class WrongShape(_Case):
        def forward_expected(self, inputs):
            return (inputs[0] * inputs[0]).ravel(),

    with pytest.raises(FunctionTestError, match='shape'):
        WrongShape('test_forward').test_forward(NUMPY)

    class TooMany(_Case):
        def forward_expected(self, inputs):
            return inputs[0] * inputs[0], inputs[0]

    with pytest.raises(FunctionTestError, match='1 outputs'):
        TooMany('test_forward').test_forward(NUMPY)


def test_forward_must_return_variables():
    class ReturnsArray(_Case):
        def forward(self, inputs, device):
            return inputs[0].array * inputs[0].array,

    with pytest.raises(FunctionTestError, match='tuple of Variables'):
        ReturnsArray('test_forward').test_forward(NUMPY)


def test_inplace_modification_detected():
    class InPlace(_Case):
        def forward(self, inputs, device):
            y = square(inputs[0])
            inputs[0].array[...] = 0
            return y,

    with pytest.raises(FunctionTestError, match='modified input #0'):
        InPlace('test_forward').test_forward(NUMPY)


def test_errors_get_the_test_context():
    class Raises(_Case):
        def forward(self, inputs, device):
            raise ValueError('boom')

    with pytest.raises(ValueError, match='boom') as info:
        Raises('test_forward').test_forward(NUMPY)
    assert any('test_forward failed' in note for note in info.value.__notes__)


def test_skip_flags_and_before_test():
    seen = []

    class Skips(_Case):
        skip_forward_test = True
        skip_backward_test = True
        skip_double_backward_test = True

        def before_test(self, test_name):
            seen.append((test_name, self.backend_config))

    case = Skips('test_forward')
    for name in ('test_forward', 'test_backward', 'test_double_backward'):
        with pytest.raises(unittest.SkipTest, match=name[5:]):
            getattr(case, name)(NUMPY)
    assert seen == [('test_forward', NUMPY), ('test_backward', NUMPY),
                    ('test_double_backward', NUMPY)]


def test_test_name_is_set_before_before_test():
    seen = []

    class Names(_Case):
        def before_test(self, test_name):
            seen.append((test_name, self.test_name))

    case = Names('test_forward')
    case.test_forward(NUMPY)
    case.test_backward(NUMPY)
    assert seen == [('test_forward', 'test_forward'), ('test_backward', 'test_backward')]


def test_check_forward_outputs_can_be_extended():
    seen = []

    class Extends(_Case):
        def check_forward_outputs(self, outputs, expected_outputs):
            super().check_forward_outputs(outputs, expected_outputs)
            seen.append((type(outputs), outputs[0].dtype, expected_outputs[0].shape))

    Extends('test_forward').test_forward(NUMPY)
    assert seen == [(tuple, numpy.float32, (3, 2))]

    class Rejects(_Case):
        def check_forward_outputs(self, outputs, expected_outputs):
            FunctionTestError.check(False, 'rejected here')

    with pytest.raises(FunctionTestError, match='rejected here'):
        Rejects('test_forward').test_forward(NUMPY)


def test_function_test_base_runs_checks_from_own_methods():
    class Own(function_link.FunctionTestBase):
        generate_inputs = _Case.generate_inputs
        forward = _Case.forward
        forward_expected = _Case.forward_expected
        dtype, shape, wrong, expected_scale = numpy.float32, (3, 2), None, 1

        def test_all(self):
            self.run_test_forward(NUMPY)
            self.run_test_backward(NUMPY)
            self.run_test_double_backward(NUMPY)

    assert not [n for n in dir(function_link.FunctionTestBase) if n.startswith('test_')]
    Own('test_all').test_all()
    Own.expected_scale = 3
    with pytest.raises(FunctionTestError):
        Own('test_all').test_all()


def test_raise_if_fail():
    with pytest.raises(FunctionTestError) as info:
        with FunctionTestError.raise_if_fail('outputs disagree'):
            assert 1 == 2, 'one is not two'
    assert str(info.value).startswith('outputs disagree')
    assert 'AssertionError: one is not two' in str(info.value)
    with pytest.raises(ValueError):     # other errors pass through
        with FunctionTestError.raise_if_fail('x'):
            raise ValueError('v')
    with pytest.raises(testing.LinkTestError, match='caused by'):
        with testing.LinkTestError.raise_if_fail('y', (KeyError,)):
            raise KeyError('k')


def test_options_are_per_test():
    class Updates(_Case):
        check_backward_options = {'atol': 1e-3}

        def setUp(self):
            self.check_backward_options.update({'rtol': 0.5})
            self.check_forward_options.update({'atol': 1})

    a = Updates('test_backward')
    a.setUp()
    assert a.check_backward_options == {'atol': 1e-3, 'rtol': 0.5}
    assert Updates.check_backward_options == {'atol': 1e-3}
    assert testing.FunctionTestCase.check_forward_options == {}
    # The options loosen the check: a slightly wrong backward now passes.
    b = type('Loose', (Updates,), {'wrong': 'backward'})('test_backward')
    b.setUp()
    b.test_backward(NUMPY)


def test_default_tolerance_table():
    f16 = numpy.zeros(1, numpy.float16)
    f32 = numpy.zeros(1, numpy.float32)
    i32 = numpy.zeros(1, numpy.int32)
    assert function_link.default_tolerance('forward', f32, i32) == {'atol': 1e-5, 'rtol': 1e-4}
    loose = function_link.default_tolerance('forward', f32, f16)
    assert loose['atol'] > 1e-5 and loose['rtol'] > 1e-4
    assert function_link.default_tolerance('double_backward', i32) == {'atol': 1e-4,
                                                                       'rtol': 1e-3}


def test_float16_needs_no_options():
    case = _make(dtype=numpy.float16, shape=(4, 5))
    for name in ('test_forward', 'test_backward', 'test_double_backward'):
        getattr(case, name)(NUMPY)


class _Abs(chainer.FunctionNode):
    def forward(self, inputs):
        self.retain_inputs((0,))
        return abs(inputs[0]),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return chainer.Variable(numpy.sign(x.array)) * grad_outputs[0],


class _AbsCase(_Case):
    __test__ = False
    skip_double_backward_test = True
    dodge_nondifferentiable = True
    zero_draws = 1

    def generate_inputs(self):
        x = numpy.random.uniform(0.1, 1, (3,))
        self.draws = getattr(self, 'draws', 0) + 1
        if self.draws <= self.zero_draws:
            x[1] = 0        # on the kink
        return x,

    def forward(self, inputs, device):
        return _Abs().apply(inputs)

    def forward_expected(self, inputs):
        return abs(inputs[0]),


def test_dodge_nondifferentiable_redraws():
    case = _AbsCase('test_backward')
    case.test_backward(NUMPY)
    assert case.draws == 2


def test_dodge_nondifferentiable_gives_up():
    case = type('AlwaysOnKink', (_AbsCase,), {'zero_draws': 100})('test_backward')
    with pytest.raises(FunctionTestError, match='no differentiable point'):
        case.test_backward(NUMPY)


@pytest.mark.parametrize('contiguous', [None, 'C'])
def test_contiguous(contiguous):
    class Records(_Case):
        def forward(self, inputs, device):
            self.flags.append(inputs[0].array.flags.c_contiguous)
            return super().forward(inputs, device)

    case = Records('test_forward')
    case.contiguous = contiguous
    for name in ('test_forward', 'test_backward'):
        case.flags = []
        getattr(case, name)(NUMPY)
        # The first call gets the generated inputs (the numerical part uses copies).
        assert case.flags[0] == (contiguous == 'C')


def test_bad_contiguous_and_inputs():
    with pytest.raises(ValueError, match='contiguous'):
        _make(contiguous='F').test_forward(NUMPY)

    class ListInputs(_Case):
        def generate_inputs(self):
            return [1.0, 2.0],

    with pytest.raises(TypeError, match='numpy.ndarray'):
        ListInputs('test_forward').test_forward(NUMPY)


# ---- links (a minimal stand-in with the Link API the harness uses) -----------------------
class _FakeLink:
    """Just what the link harnesses touch: namedparams, to_device and __call__."""

    def __init__(self, w, b, wrong=False):
        self.W = chainer.Parameter(w)
        self.b = chainer.Parameter(b)
        self.wrong = wrong

    def namedparams(self):
        return [('/W', self.W), ('/b', self.b)]

    def to_device(self, device):
        for _, p in self.namedparams():
            p.to_device(device)
        return self

    def __call__(self, x):
        w = self.W * 1.5 if self.wrong else self.W
        return chainer.functions.matmul(x, w) + chainer.functions.broadcast_to(
            self.b, (x.shape[0], self.b.shape[0]))


def _initial(init, shape):
    if init is None:
        return numpy.zeros(shape)
    if numpy.isscalar(init):
        return numpy.full(shape, float(init))
    if isinstance(init, numpy.ndarray):
        return init.copy()
    a = numpy.empty(shape)
    init(a)
    return a


@testing.inject_backend_tests(None, [{}])
class TestLinkHarness(testing.LinkTestCase):
    param_names = ('W', 'b')

    def generate_params(self):
        return numpy.random.uniform(-1, 1, (3, 2)), numpy.random.uniform(-1, 1, (2,))

    def create_link(self, initializers):
        w, b = initializers
        return _FakeLink(_initial(w, (3, 2)), _initial(b, (2,)))

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (4, 3)),

    def forward_expected(self, link, inputs):
        return inputs[0] @ link.W.array + link.b.array,


def test_link_wrong_param_gradient():
    class Wrong(TestLinkHarness):
        __test__ = False

        def create_link(self, initializers):
            w, b = initializers
            return _FakeLink(w, b, wrong=True)

        def forward_expected(self, link, inputs):
            return inputs[0] @ (1.5 * link.W.array) + link.b.array,

    case = Wrong('test_forward')
    testing.LinkTestCase.test_forward(case, NUMPY)
    case.param_names = ('W',)

    class BadGrad(chainer.FunctionNode):
        def forward(self, inputs):
            return inputs[0] * 1,

        def backward(self, indexes, grad_outputs):
            return grad_outputs[0] * 2,

    def forward(link, inputs, device):
        return chainer.functions.matmul(inputs[0], BadGrad().apply((link.W,))[0]),

    case.forward = forward
    with pytest.raises(LinkTestError) as info:
        testing.LinkTestCase.test_backward(case, NUMPY)
    assert "param #0" in str(info.value)
    case.param_names = ('nope',)
    with pytest.raises(ValueError, match='no parameter'):
        testing.LinkTestCase.test_backward(case, NUMPY)


@testing.inject_backend_tests(None, [{}])
class TestLinkInitializersHarness(testing.LinkInitializersTestCase):
    param_names = ('W', 'b')

    def generate_params(self):
        return numpy.ones((3, 2)), None

    def create_link(self, initializers):
        w, b = initializers
        return _FakeLink(_initial(w, (3, 2)), _initial(b, (2,)))

    def generate_inputs(self):
        # The harness calls the link once before looking at its parameters.
        return numpy.ones((4, 3)),

    def get_initializers(self):
        def fill_two(a):
            a[...] = 2
        return (
            [numpy.arange(6.).reshape(3, 2), 0.5, fill_two],
            [testing.InitializerArgument(None, 0), 3, numpy.array([1., 2.])],
        )


def test_link_initializers_mismatch():
    class Wrong(TestLinkInitializersHarness):
        __test__ = False

        def get_initializers(self):
            return [], [testing.InitializerArgument(None, 1)]   # b=None gives zeros, not ones

    with pytest.raises(LinkTestError, match="parameter 'b'"):
        testing.LinkInitializersTestCase.test_initializers(Wrong('test_initializers'), NUMPY)
    assert repr(testing.InitializerArgument(None, 1)) == 'InitializerArgument(None, 1)'
