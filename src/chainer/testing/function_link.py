"""Test harnesses for functions and links: ``FunctionTestCase``, ``LinkTestCase``...

A test class provides inputs, the code under test and a NumPy reference; the
harness supplies ``test_forward``, ``test_backward`` and ``test_double_backward``
(``test_initializers`` for links), each taking a
:class:`~chainer.testing.BackendConfig`, so that
:func:`~chainer.testing.inject_backend_tests` runs them on every backend.
"""
import contextlib
import unittest

import numpy

import chainer
from chainer import backend
from chainer import gradient_check
from chainer import variable as _variable
from chainer.testing import array as _array
from chainer.testing.backend import BackendConfig

# The one table of default tolerances, by the least precise float dtype among a test's
# inputs and outputs: forward (assert_allclose), backward (check_backward), double
# backward (check_double_backward). float32 and float64 use Chainer's defaults; float16
# keeps ~3 significant digits, so it gets looser ones. A test's check_*_options entries
# override these key by key, and its ``tolerances`` entries override both for one dtype.
_TOLERANCES = {
    numpy.dtype(numpy.float16): ({'atol': 1e-3, 'rtol': 1e-3},
                                 {'atol': 5e-3, 'rtol': 1e-2},
                                 {'atol': 1e-2, 'rtol': 5e-2}),
    numpy.dtype(numpy.float32): ({'atol': 1e-5, 'rtol': 1e-4},
                                 {'atol': 1e-5, 'rtol': 1e-4},
                                 {'atol': 1e-4, 'rtol': 1e-3}),
    numpy.dtype(numpy.float64): ({'atol': 1e-5, 'rtol': 1e-4},
                                 {'atol': 1e-5, 'rtol': 1e-4},
                                 {'atol': 1e-4, 'rtol': 1e-3}),
}
_KINDS = {'forward': 0, 'backward': 1, 'double_backward': 2}

# How many times test_backward/test_double_backward redraw the inputs when
# ``dodge_nondifferentiable`` finds them on a kink.
_DODGE_TRIES = 10


def _least_precise(arrays):
    # The least precise float dtype among arrays (float64 when there is none).
    floats = [numpy.dtype(a.dtype) for a in arrays
              if a is not None and numpy.dtype(a.dtype).kind == 'f']
    known = [d for d in floats if d in _TOLERANCES]
    return min(known, key=lambda d: d.itemsize) if known else numpy.dtype(numpy.float64)


def default_tolerance(kind, *arrays):
    """Returns the default ``{'atol', 'rtol'}`` of a check for the given arrays.

    Args:
        kind (str): ``'forward'``, ``'backward'`` or ``'double_backward'``.
        arrays: Arrays (or ``None``) whose least precise float dtype picks the row.
    """
    return dict(_TOLERANCES[_least_precise(arrays)][_KINDS[kind]])


def _tolerance_options(tol):
    # A ``tolerances`` entry as options: a number is atol = rtol, a pair (atol, rtol).
    if isinstance(tol, dict):
        return tol
    if isinstance(tol, (tuple, list)):
        atol, rtol = tol
        return {'atol': atol, 'rtol': rtol}
    return {'atol': tol, 'rtol': tol}


class _TestError(AssertionError):

    @classmethod
    def check(cls, expr, message):
        """Raises this error with ``message`` unless ``expr`` is true."""
        if not expr:
            raise cls(message)

    @classmethod
    def fail(cls, message, exc=None):
        """Raises this error with ``message`` (and the text of ``exc``, if given)."""
        if exc is not None:
            raise cls(f'{message}\n\n(caused by)\n{type(exc).__name__}: {exc}\n') from exc
        raise cls(message)

    @classmethod
    @contextlib.contextmanager
    def raise_if_fail(cls, message, error_types=AssertionError):
        """Context manager turning ``error_types`` raised inside into this error.

        Args:
            message (str): What the failure means; the original error is appended.
            error_types: Exception type(s) to convert (``AssertionError`` by default).
        """
        try:
            yield
        except error_types as e:
            cls.fail(message, e)


class FunctionTestError(_TestError):
    """Raised by :class:`FunctionTestCase` when the function under test misbehaves."""


class LinkTestError(_TestError):
    """Raised by :class:`LinkTestCase` when the link under test misbehaves."""


# --------------------------------------------------------------------------------------
# helpers shared by the harnesses
# --------------------------------------------------------------------------------------
def _to_numpy(a):
    return a if isinstance(a, numpy.ndarray) else backend.CpuDevice().send(a)


def _shape_dtype(a):
    return 'None' if a is None else f'{a.dtype} {a.shape}'


def _as_numpy_tuple(value, what, owner):
    if isinstance(value, (list, tuple)):
        value = tuple(value)
    else:
        value = (value,)
    out = []
    for i, a in enumerate(value):
        if isinstance(a, numpy.generic):
            a = numpy.asarray(a)
        if a is not None and not isinstance(a, numpy.ndarray):
            raise TypeError(f'{owner}.{what} must return a tuple of numpy.ndarray; '
                            f'item #{i} is {type(a).__name__}')
        out.append(a)
    return tuple(out)


def _uniform_like(templates):
    return tuple(
        numpy.random.uniform(-1, 1, t.shape).astype(t.dtype)
        if t is not None and t.dtype.kind == 'f' else None
        for t in templates)


def _check_like(arrays, templates, what, owner):
    if len(arrays) != len(templates):
        raise ValueError(f'{owner}.{what} returned {len(arrays)} arrays for '
                         f'{len(templates)} templates')
    for i, (a, t) in enumerate(zip(arrays, templates)):
        if a is not None and t is not None and a.shape != t.shape:
            raise ValueError(f'{owner}.{what}: item #{i} has shape {a.shape}, '
                             f'expected {t.shape}')


class _HarnessBase(unittest.TestCase):
    """What FunctionTestCase and the link harnesses share."""

    # Never collected itself; see __init_subclass__ for its subclasses.
    __test__ = False

    backend_config = None
    check_forward_options = {}
    check_backward_options = {}
    check_double_backward_options = {}
    numerical_grad_dtype = numpy.float64
    skip_forward_test = False
    skip_backward_test = False
    skip_double_backward_test = False
    dodge_nondifferentiable = False
    contiguous = None
    tolerances = {}

    _error = FunctionTestError
    _option_names = ('check_forward_options', 'check_backward_options',
                     'check_double_backward_options')

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        # Subclasses are test classes unless they say otherwise (parameterize marks its
        # templates explicitly).
        if '__test__' not in cls.__dict__:
            cls.__test__ = True

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Tests often do ``self.check_backward_options.update(...)`` in setUp; give each
        # test its own dicts so that this never leaks into the class (or its siblings).
        for name in self._option_names:
            value = getattr(self, name, None)
            if isinstance(value, dict):
                setattr(self, name, dict(value))

    # ---- hooks ---------------------------------------------------------------------
    def before_test(self, test_name):
        """Called before each test (``'test_forward'``...); may raise SkipTest."""

    def generate_inputs(self):
        """Returns a tuple of input arrays (``numpy.ndarray``)."""
        raise NotImplementedError(f'{type(self).__name__} must implement generate_inputs')

    def generate_grad_outputs(self, outputs_template):
        """Returns output gradients shaped like ``outputs_template`` (uniform in [-1, 1])."""
        return _uniform_like(outputs_template)

    # ---- plumbing ------------------------------------------------------------------
    def _owner(self):
        return type(self).__name__

    def _generate_inputs(self):
        return _as_numpy_tuple(self.generate_inputs(), 'generate_inputs()', self._owner())

    def _to_backend(self, arrays, backend_config):
        if self.contiguous not in (None, 'C'):
            raise ValueError(f"{self._owner()}.contiguous must be None or 'C', "
                             f'got {self.contiguous!r}')
        out = []
        for a in arrays:
            if a is None:
                out.append(None)
                continue
            # Always a copy: the test keeps its NumPy arrays for the reference.
            a = backend_config.get_array(numpy.array(a, copy=True))
            if self.contiguous is None:
                a = _array._as_noncontiguous_array(a)
            out.append(a)
        return tuple(out)

    def _options(self, kind, arrays):
        dtype = _least_precise(arrays)
        opts = dict(_TOLERANCES[dtype][_KINDS[kind]])
        opts.update(getattr(self, f'check_{kind}_options') or {})
        for key, tols in self.tolerances.items():
            if numpy.dtype(key) == dtype:
                if isinstance(tols, dict):
                    tol = tols.get(kind)
                else:   # (forward, backward, double_backward), the last ones may be left out
                    tol = tols[_KINDS[kind]] if _KINDS[kind] < len(tols) else None
                if tol is not None:
                    opts.update(_tolerance_options(tol))
        return opts

    def _grad_options(self, kind, arrays):
        opts = {'dtype': self.numerical_grad_dtype,
                'detect_nondifferentiable': self.dodge_nondifferentiable}
        opts.update(self._options(kind, arrays))
        return opts

    def _run_test(self, test_name, backend_config, body):
        if backend_config is None:
            # Run without inject_backend_tests (e.g. by plain unittest): NumPy only.
            backend_config = BackendConfig({})
        self.backend_config = backend_config
        self.test_name = test_name
        self._label = None
        self._inputs_seen = None
        self.before_test(test_name)
        kind = test_name[len('test_'):]
        if getattr(self, f'skip_{kind}_test', False):
            raise unittest.SkipTest(f'skip_{kind}_test is set')
        try:
            body(backend_config)
        except (unittest.SkipTest, _TestError):
            raise
        except AssertionError as e:
            raise self._error(f'{self._header(test_name)}\n{e}') from None
        except Exception as e:
            e.add_note(self._header(test_name))
            raise

    def _header(self, test_name, what='failed'):
        lines = [f'{test_name} {what}', f'  test: {self.id()}']
        if self._label:
            lines.append(f'  function: {self._label}')
        lines.append(f'  backend: {self.backend_config!r}')
        if self._inputs_seen is not None:
            lines.append('  inputs: ' + ', '.join(
                f'#{i} {_shape_dtype(a)}' for i, a in enumerate(self._inputs_seen)))
        return '\n'.join(lines)

    def _dodge(self, attempt, test_name):
        if not self.dodge_nondifferentiable:
            attempt()
            return
        last = None
        for _ in range(_DODGE_TRIES):
            try:
                attempt()
                return
            except gradient_check.NondifferentiableError as e:
                last = e
        raise self._error(
            f'{self._header(test_name)}\nno differentiable point found in {_DODGE_TRIES} '
            f'draws of generate_inputs() (dodge_nondifferentiable is set); make '
            f'generate_inputs() keep away from the kinks.\nLast draw: {last}')

    def _validate_outputs(self, outputs, what):
        if isinstance(outputs, list):
            outputs = tuple(outputs)
        elif not isinstance(outputs, tuple):
            outputs = (outputs,)
        for i, y in enumerate(outputs):
            if not isinstance(y, _variable.Variable):
                raise self._error(f'{self._owner()}.{what} must return a tuple of Variables; '
                                  f'output #{i} is {type(y).__name__}')
        labels = [y.creator_node.label for y in outputs if y.creator_node is not None]
        if labels:
            self._label = ', '.join(dict.fromkeys(labels))
        return outputs

    def _compare_outputs(self, outputs, expected, backend_config, test_name, names):
        header = self._header(test_name)
        if len(outputs) != len(expected):
            raise self._error(f'{header}\nforward returned {len(outputs)} outputs, '
                              f'forward_expected {len(expected)}')
        xp = backend_config.xp
        for i, (y, e) in enumerate(zip(outputs, expected)):
            a = y.array
            where = f'{names} #{i}'
            if backend.get_array_module(a) is not xp:
                raise self._error(f'{header}\n{where} is a {type(a).__module__}.'
                                  f'{type(a).__name__}; the backend expects {xp.__name__}')
            if a.dtype != e.dtype:
                raise self._error(f'{header}\n{where}: dtype {a.dtype}, expected {e.dtype}')
            if a.shape != e.shape:
                raise self._error(f'{header}\n{where}: shape {a.shape}, expected {e.shape}')
        self.check_forward_outputs(tuple(y.array for y in outputs), expected)

    def check_forward_outputs(self, outputs, expected_outputs):
        """Compares the forward outputs with the expected ones.

        Called by the forward test once the outputs are known to have the expected
        dtypes and shapes; override it to check more (call this one for the values).

        Args:
            outputs (tuple of arrays): The outputs, on the tested device.
            expected_outputs (tuple of numpy.ndarray): What ``forward_expected`` gave.
        """
        opts = self._options('forward', [*self._inputs_seen, *expected_outputs])
        for i, (y, e) in enumerate(zip(outputs, expected_outputs)):
            try:
                _array.assert_allclose(y, e, **opts)
            except AssertionError as err:
                raise self._error(
                    f'{self._header(self.test_name)}\noutput #{i} ({_shape_dtype(e)}) differs '
                    f'from the expected value (atol={opts.get("atol")}, '
                    f'rtol={opts.get("rtol")}):\n{err}') from None


class FunctionTestBase(_HarnessBase):
    """The machinery of :class:`FunctionTestCase`, without its ``test_*`` methods.

    Subclass it to run the checks from test methods of your own
    (:meth:`run_test_forward`, :meth:`run_test_backward`,
    :meth:`run_test_double_backward`); everything else is as in
    :class:`FunctionTestCase`.
    """

    __test__ = False

    def forward(self, inputs, device):
        """Applies the function under test.

        Args:
            inputs (tuple of ~chainer.Variable): Inputs on the tested device.
            device (~chainer.backend.Device): That device.

        Returns:
            tuple of ~chainer.Variable: The outputs.
        """
        raise NotImplementedError(f'{type(self).__name__} must implement forward')

    def forward_expected(self, inputs):
        """Returns the expected outputs (tuple of ``numpy.ndarray``) for NumPy ``inputs``."""
        raise NotImplementedError(f'{type(self).__name__} must implement forward_expected')

    def generate_grad_grad_inputs(self, inputs_template):
        """Returns second-order gradients shaped like the inputs (uniform in [-1, 1])."""
        return _uniform_like(inputs_template)

    def run_test_forward(self, backend_config):
        """Runs the forward check on ``backend_config``."""
        self._run_test('test_forward', backend_config, self._check_forward)

    def run_test_backward(self, backend_config):
        """Runs the gradient check on ``backend_config``."""
        self._run_test('test_backward', backend_config, self._check_backward)

    def run_test_double_backward(self, backend_config):
        """Runs the second-order gradient check on ``backend_config``."""
        self._run_test('test_double_backward', backend_config, self._check_double_backward)

    # ---- implementation --------------------------------------------------------------
    def _call_forward(self, arrays, backend_config):
        xs = tuple(chainer.Variable(a) for a in arrays)
        return self._validate_outputs(self.forward(xs, backend_config.device), 'forward()')

    def _forward_for_check(self, backend_config):
        def f(*xs):
            return self._validate_outputs(self.forward(xs, backend_config.device),
                                          'forward()')
        return f

    def _output_templates(self, dev_inputs, backend_config):
        with backend_config:
            outputs = self._call_forward(dev_inputs, backend_config)
        return tuple(_to_numpy(y.array) for y in outputs)

    def _check_forward(self, backend_config):
        inputs = self._generate_inputs()
        self._inputs_seen = inputs
        expected = _as_numpy_tuple(
            self.forward_expected(tuple(a.copy() for a in inputs)), 'forward_expected()',
            self._owner())
        dev_inputs = self._to_backend(inputs, backend_config)
        kept = [a.copy() for a in dev_inputs]
        with backend_config:
            outputs = self._call_forward(dev_inputs, backend_config)
        self._compare_outputs(outputs, expected, backend_config, 'test_forward', 'output')
        xp = backend_config.xp
        for i, (a, k) in enumerate(zip(dev_inputs, kept)):
            if not bool(xp.array_equal(a, k, equal_nan=a.dtype.kind in 'fc')):
                raise self._error(f'{self._header("test_forward")}\nforward modified '
                                  f'input #{i} ({_shape_dtype(a)}) in place')

    def _backward_data(self, backend_config, with_grad_grads):
        inputs = self._generate_inputs()
        self._inputs_seen = inputs
        dev_inputs = self._to_backend(inputs, backend_config)
        templates = self._output_templates(dev_inputs, backend_config)
        gys = _as_numpy_tuple(self.generate_grad_outputs(templates),
                              'generate_grad_outputs()', self._owner())
        _check_like(gys, templates, 'generate_grad_outputs()', self._owner())
        data = [dev_inputs, self._to_backend(gys, backend_config)]
        arrays = [*inputs, *templates]
        if with_grad_grads:
            ggxs = _as_numpy_tuple(self.generate_grad_grad_inputs(inputs),
                                   'generate_grad_grad_inputs()', self._owner())
            _check_like(ggxs, inputs, 'generate_grad_grad_inputs()', self._owner())
            data.append(self._to_backend(ggxs, backend_config))
        return data, arrays

    def _check_backward(self, backend_config):
        def attempt():
            (xs, gys), arrays = self._backward_data(backend_config, False)
            opts = self._grad_options('backward', arrays)
            with backend_config:
                gradient_check.check_backward(
                    self._forward_for_check(backend_config), xs, gys, **opts)

        self._dodge(attempt, 'test_backward')

    def _check_double_backward(self, backend_config):
        def attempt():
            (xs, gys, ggxs), arrays = self._backward_data(backend_config, True)
            opts = self._grad_options('double_backward', arrays)
            with backend_config:
                gradient_check.check_double_backward(
                    self._forward_for_check(backend_config), xs, gys, ggxs, **opts)

        self._dodge(attempt, 'test_double_backward')


class FunctionTestCase(FunctionTestBase):
    """Base class of function tests: forward, backward and double backward.

    A concrete class implements :meth:`generate_inputs`, :meth:`forward` and
    :meth:`forward_expected`, and is usually decorated with
    :func:`~chainer.testing.parameterize` and
    :func:`~chainer.testing.inject_backend_tests` (which supplies the
    ``backend_config`` argument of the test methods).

    Optional methods: :meth:`before_test`, :meth:`generate_grad_outputs`,
    :meth:`generate_grad_grad_inputs` (and ``setUp``).

    Attributes:
        backend_config (~chainer.testing.BackendConfig): The backend of the running
            test (set before :meth:`before_test` is called).
        check_forward_options (dict): Options of
            :func:`~chainer.testing.assert_allclose` in the forward test.
        check_backward_options (dict): Options of
            :func:`~chainer.gradient_check.check_backward`.
        check_double_backward_options (dict): Options of
            :func:`~chainer.gradient_check.check_double_backward`.
        numerical_grad_dtype: dtype of the numerical gradients (float64 by default).
        skip_forward_test (bool), skip_backward_test (bool),
        skip_double_backward_test (bool): Skip the corresponding test.
        dodge_nondifferentiable (bool): In the gradient tests, redraw the inputs when
            the function is not differentiable at them.
        contiguous (None or 'C'): ``None`` (default) makes the input arrays
            non-contiguous, ``'C'`` C-contiguous.
        tolerances (dict): Exceptions to the tolerance table for a dtype (the least
            precise float dtype among the inputs and outputs), over the options above:
            ``{numpy.float16: (forward, backward, double_backward)}`` or
            ``{numpy.float16: {'backward': ...}}``. Each tolerance is ``None`` (the
            table's), a number (atol = rtol), an ``(atol, rtol)`` pair or a dict of options
            (``eps`` too). (rechainer's addition: an exception fits on a line, beside its
            reason.)

    Tolerances the test does not set come from a per-dtype table (looser for
    float16; see :func:`default_tolerance`).
    """

    __test__ = False

    # ---- the tests -----------------------------------------------------------------
    def test_forward(self, backend_config=None):
        """Compares the outputs with :meth:`forward_expected`."""
        self.run_test_forward(backend_config)

    def test_backward(self, backend_config=None):
        """Checks the gradients with :func:`~chainer.gradient_check.check_backward`."""
        self.run_test_backward(backend_config)

    def test_double_backward(self, backend_config=None):
        """Checks second-order gradients with ``check_double_backward``."""
        self.run_test_double_backward(backend_config)


# --------------------------------------------------------------------------------------
# links
# --------------------------------------------------------------------------------------
class InitializerArgument:
    """An initializer argument of a link together with the value it should produce.

    Use it in :meth:`LinkInitializersTestCase.get_initializers` when what the link does
    with the argument is not the plain initializer-like itself (e.g. ``None`` meaning
    "zeros" for a bias).

    Args:
        argument_value: What is passed to :meth:`~LinkTestCase.create_link`.
        expected_initializer: An initializer-like (scalar, array or
            initializer) describing the expected parameter.
    """

    def __init__(self, argument_value, expected_initializer):
        self.argument_value = argument_value
        self.expected_initializer = expected_initializer

    def __repr__(self):
        return (f'InitializerArgument({self.argument_value!r}, '
                f'{self.expected_initializer!r})')


class _LinkHarnessBase(_HarnessBase):

    __test__ = False

    _error = LinkTestError
    param_names = ()

    def generate_params(self):
        """Returns a tuple of initializer-likes, one per parameter argument of the link."""
        raise NotImplementedError(f'{type(self).__name__} must implement generate_params')

    def create_link(self, initializers):
        """Returns the link under test, built from the initializer-likes ``initializers``."""
        raise NotImplementedError(f'{type(self).__name__} must implement create_link')

    def forward(self, link, inputs, device):
        """Applies ``link`` to ``inputs`` (Variables); by default ``link(*inputs)``."""
        return link(*inputs)

    # ---- plumbing ------------------------------------------------------------------
    def _make_link(self, params):
        link = self.create_link(tuple(params))
        if not hasattr(link, 'namedparams'):
            raise TypeError(f'{self._owner()}.create_link must return a chainer.Link, got '
                            f'{type(link).__name__}')
        self._label = type(link).__name__
        return link

    def _params_by_name(self, link, names=None):
        named = {name.lstrip('/'): p for name, p in link.namedparams()}
        params = []
        for name in self.param_names if names is None else names:
            p = named.get(name.lstrip('/'))
            if p is None:
                raise ValueError(f'{self._owner()}.param_names: the link has no parameter '
                                 f'{name!r} (it has {sorted(named)})')
            params.append(p)
        return params

    def _call_link(self, link, xs, backend_config):
        outputs = self.forward(link, tuple(xs), backend_config.device)
        return self._validate_outputs(outputs, 'forward()')


class LinkTestCase(_LinkHarnessBase):
    """Base class of link tests: forward and backward (including parameter gradients).

    A concrete class implements :meth:`generate_params`, :meth:`create_link`,
    :meth:`generate_inputs` and :meth:`forward_expected` (and :meth:`forward` when the
    link is not simply called on the inputs), and lists in ``param_names`` the
    parameters whose gradients :meth:`test_backward` checks. Decorate it with
    :func:`~chainer.testing.inject_backend_tests` as for :class:`FunctionTestCase`.

    Attributes:
        param_names (tuple of str): Names of the checked parameters (``'W'``,
            ``'l1/b'``...).
        backend_config, check_forward_options, check_backward_options,
        numerical_grad_dtype, skip_forward_test, skip_backward_test,
        dodge_nondifferentiable, contiguous, tolerances: As in
        :class:`FunctionTestCase`.
    """

    __test__ = False

    def forward_expected(self, link, inputs):
        """Returns the expected outputs (NumPy) of the CPU ``link`` on NumPy ``inputs``."""
        raise NotImplementedError(f'{type(self).__name__} must implement forward_expected')

    def test_forward(self, backend_config=None):
        """Compares the link's outputs with :meth:`forward_expected`."""
        self._run_test('test_forward', backend_config, self._check_forward)

    def test_backward(self, backend_config=None):
        """Checks input and parameter gradients with ``check_backward``."""
        self._run_test('test_backward', backend_config, self._check_backward)

    def _check_forward(self, backend_config):
        inputs = self._generate_inputs()
        self._inputs_seen = inputs
        link = self._make_link(self.generate_params())
        link.to_device(backend_config.device)
        dev_inputs = self._to_backend(inputs, backend_config)
        with backend_config:
            outputs = self._call_link(link, [chainer.Variable(a) for a in dev_inputs],
                                      backend_config)
        # As in Chainer, the reference sees the link after the call (lazily
        # initialized parameters exist then), brought back to the CPU.
        if backend_config.device.xp is not numpy:
            link = link.copy('copy')
            link.to_device(backend.CpuDevice())
        expected = _as_numpy_tuple(
            self.forward_expected(link, tuple(a.copy() for a in inputs)),
            'forward_expected()', self._owner())
        self._compare_outputs(outputs, expected, backend_config, 'test_forward', 'output')

    def _check_backward(self, backend_config):
        def attempt():
            inputs = self._generate_inputs()
            self._inputs_seen = inputs
            link = self._make_link(self.generate_params())
            link.to_device(backend_config.device)
            params = self._params_by_name(link)
            dev_inputs = self._to_backend(inputs, backend_config)
            with backend_config:
                outputs = self._call_link(
                    link, [chainer.Variable(a) for a in dev_inputs], backend_config)
            templates = tuple(_to_numpy(y.array) for y in outputs)
            gys = _as_numpy_tuple(self.generate_grad_outputs(templates),
                                  'generate_grad_outputs()', self._owner())
            _check_like(gys, templates, 'generate_grad_outputs()', self._owner())
            arrays = [*inputs, *templates, *[p.array for p in params]]
            opts = self._grad_options('backward', arrays)

            def f(*xs):
                return self._call_link(link, xs, backend_config)

            with backend_config:
                gradient_check.check_backward(
                    f, dev_inputs, self._to_backend(gys, backend_config), params=params,
                    **opts)

        self._dodge(attempt, 'test_backward')


class LinkInitializersTestCase(_LinkHarnessBase):
    """Base class of tests of a link's parameter initialization.

    Besides :meth:`generate_params`, :meth:`create_link` and ``param_names`` (as in
    :class:`LinkTestCase`), a concrete class implements :meth:`get_initializers`.
    :meth:`test_initializers` builds the link once per listed initializer-like (the
    other arguments taken from :meth:`generate_params`), moves it to the tested device
    and checks that the corresponding parameter (``param_names[i]`` for argument ``i``)
    is initialized on that device as the initializer-like says: exactly for constants,
    arrays and deterministic initializers, by shape, dtype and finiteness for random
    ones.
    """

    __test__ = False

    skip_initializers_test = False

    def get_initializers(self):
        """Returns, per initializer argument, a list of initializer-likes to try.

        Entries may be :class:`InitializerArgument` objects.
        """
        raise NotImplementedError(f'{type(self).__name__} must implement get_initializers')

    def test_initializers(self, backend_config=None):
        """Checks each parameter initialized with each listed initializer-like."""
        self._run_test('test_initializers', backend_config, self._check_initializers)

    def _check_initializers(self, backend_config):
        params = tuple(self.generate_params())
        candidates = tuple(self.get_initializers())
        if len(candidates) != len(self.param_names):
            raise ValueError(f'{self._owner()}.get_initializers returned {len(candidates)} '
                             f'lists for {len(self.param_names)} param_names')
        for i, inits in enumerate(candidates):
            for init in inits:
                given = init.argument_value if isinstance(init, InitializerArgument) else init
                args = list(params)
                args[i] = given
                link = self._make_link(args)
                link.to_device(backend_config.device)
                # As in Chainer, one call first: lazily initialized parameters exist
                # only after it.
                dev_inputs = self._to_backend(self._generate_inputs(), backend_config)
                with backend_config:
                    self._call_link(link, [chainer.Variable(a) for a in dev_inputs],
                                    backend_config)
                name = self.param_names[i]
                param, = self._params_by_name(link, (name,))
                self._check_param(param, init, name, backend_config)

    def _check_param(self, param, init, name, backend_config):
        header = self._header('test_initializers')
        where = f'parameter {name!r} initialized with {init!r}'
        a = param.array
        if a is None:
            raise self._error(f'{header}\n{where} is not initialized')
        if backend.get_array_module(a) is not backend_config.xp:
            raise self._error(f'{header}\n{where} is a {type(a).__module__}.'
                              f'{type(a).__name__}, not on the tested backend')
        a = _to_numpy(a)
        spec = init
        if isinstance(init, InitializerArgument):
            spec = init.expected_initializer
        expected = _expected_initial_value(spec, a.shape, a.dtype)
        if expected is None:
            if a.dtype.kind == 'f' and not numpy.isfinite(a).all():
                raise self._error(f'{header}\n{where} has non-finite values')
            return
        try:
            _array.assert_allclose(a, numpy.broadcast_to(expected, a.shape), atol=0,
                                   rtol=1e-6 if a.dtype != numpy.float16 else 1e-3)
        except AssertionError as e:
            raise self._error(f'{header}\n{where} does not hold the expected values:\n'
                              f'{e}') from None


def _expected_initial_value(spec, shape, dtype):
    """The array an initializer-like must produce, or None when it is random/unknown."""
    if spec is None:
        return None
    if numpy.isscalar(spec):
        return numpy.full(shape, spec, dtype)
    if isinstance(spec, numpy.ndarray) or type(spec).__module__.startswith('cupy'):
        return _to_numpy(spec)
    if callable(spec):
        # Apply it twice: equal results mean it is deterministic and can be compared.
        first, second = numpy.empty(shape, dtype), numpy.empty(shape, dtype)
        spec(first)
        spec(second)
        if numpy.array_equal(first, second, equal_nan=True):
            return first
        return None
    raise TypeError(f'not an initializer-like: {spec!r}')
