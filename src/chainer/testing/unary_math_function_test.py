"""``unary_math_function_unittest``: a whole test class for an elementwise unary function."""
import copy

import numpy

import chainer
from chainer.testing import function_link
from chainer.testing import parameterized
from chainer.testing.backend import inject_backend_tests

_SHAPES = [(3, 2), ()]
_DTYPES = [numpy.float16, numpy.float32, numpy.float64]
_BACKENDS = [{}, {'use_cuda': True}]


def _default_make_data(shape, dtype):
    x = numpy.random.uniform(-1, 1, shape).astype(dtype)
    gy = numpy.random.uniform(-1, 1, shape).astype(dtype)
    ggx = numpy.random.uniform(-1, 1, shape).astype(dtype)
    return x, gy, ggx


def _is_function_object(func):
    return isinstance(func, (chainer.Function, chainer.FunctionNode))


def _apply(func, x):
    if isinstance(func, chainer.FunctionNode):
        # A node records its inputs: use a fresh one per application.
        return copy.copy(func).apply((x,))[0]
    if isinstance(func, chainer.Function):
        return copy.copy(func)(x)
    return func(x)


def _name_of(func):
    if _is_function_object(func):
        return type(func).__name__.lower()
    name = getattr(func, '__name__', None)
    if name is None:
        raise TypeError(f'unary_math_function_unittest: cannot name {func!r}; pass '
                        f'func_expected and label_expected')
    return name


def unary_math_function_unittest(func, func_expected=None, label_expected=None,
                                 make_data=None, is_linear=None, forward_options=None,
                                 backward_options=None, double_backward_options=None):
    """Class decorator generating the tests of an elementwise unary math function.

    The decorated class gets :class:`~chainer.testing.FunctionTestCase`'s
    ``test_forward``, ``test_backward`` and ``test_double_backward`` on NumPy and CuPy,
    for shapes ``(3, 2)`` and ``()`` and dtypes float16, float32 and float64 (one
    generated class per shape and dtype). When ``func`` is a ``Function`` or
    ``FunctionNode`` object, ``test_label`` also checks its label.

    Args:
        func: The function under test: a function of one Variable, or (for old code) a
            :class:`~chainer.Function`/:class:`~chainer.FunctionNode` object.
        func_expected: NumPy reference; by default the NumPy function of the same name
            as ``func``.
        label_expected (str): Expected label of a function object (its lowercased
            class name by default).
        make_data: ``make_data(shape, dtype)`` returning ``(x, gy, ggx)`` (or
            ``(x, gy)``) NumPy arrays; uniform in [-1, 1] by default.
        is_linear: Accepted for compatibility and ignored: linear functions need no
            special treatment in the double-backward check.
        forward_options (dict): Options of the forward comparison
            (:func:`~chainer.testing.assert_allclose`).
        backward_options (dict): Options of
            :func:`~chainer.gradient_check.check_backward`.
        double_backward_options (dict): Options of
            :func:`~chainer.gradient_check.check_double_backward`.

    Returns:
        A class decorator.

    .. admonition:: Example

        >>> @testing.unary_math_function_unittest(F.exp)
        ... class TestExp(unittest.TestCase):
        ...     pass
    """
    name = _name_of(func) if func_expected is None or label_expected is None else None
    if func_expected is None:
        func_expected = getattr(numpy, name, None)
        if func_expected is None:
            raise ValueError(f'unary_math_function_unittest: NumPy has no function '
                             f'{name!r}; pass func_expected')
    if label_expected is None:
        label_expected = name
    if make_data is None:
        make_data = _default_make_data
    old_style = isinstance(func, chainer.Function)

    def generate_inputs(self):
        data = tuple(make_data(self.shape, self.dtype))
        if len(data) == 2:
            x, gy = data
            ggx = numpy.random.uniform(-1, 1, x.shape).astype(x.dtype)
        elif len(data) == 3:
            x, gy, ggx = data
        else:
            raise ValueError(f'make_data must return (x, gy) or (x, gy, ggx), got '
                             f'{len(data)} arrays')
        self._grads = (gy,), (ggx,)
        return x,

    def generate_grad_outputs(self, outputs_template):
        return self._grads[0]

    def generate_grad_grad_inputs(self, inputs_template):
        return self._grads[1]

    def forward(self, inputs, device):
        return _apply(func, inputs[0]),

    def forward_expected(self, inputs):
        x, = inputs
        return numpy.asarray(func_expected(x)).astype(x.dtype, copy=False),

    attrs = {
        'generate_inputs': generate_inputs,
        'generate_grad_outputs': generate_grad_outputs,
        'generate_grad_grad_inputs': generate_grad_grad_inputs,
        'forward': forward,
        'forward_expected': forward_expected,
        # Old-style Functions compute gradients on arrays: no second order.
        'skip_double_backward_test': old_style,
    }
    for key, options in (('check_forward_options', forward_options),
                         ('check_backward_options', backward_options),
                         ('check_double_backward_options', double_backward_options)):
        if options is not None:
            attrs[key] = dict(options)
    if _is_function_object(func):
        def test_label(self):
            self.assertEqual(func.label, label_expected)
        attrs['test_label'] = test_label

    def decorator(cls):
        bases = (cls,) if issubclass(cls, function_link.FunctionTestCase) else (
            cls, function_link.FunctionTestCase)
        attrs.update(__module__=cls.__module__, __qualname__=cls.__qualname__,
                     __doc__=cls.__doc__)
        new_cls = type(cls.__name__, bases, dict(attrs))
        new_cls = inject_backend_tests(
            ['test_forward', 'test_backward', 'test_double_backward'], _BACKENDS)(new_cls)
        return parameterized.parameterize(*parameterized.product(
            {'shape': _SHAPES, 'dtype': _DTYPES}))(new_cls)

    return decorator
