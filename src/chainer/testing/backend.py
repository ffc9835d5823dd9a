"""Running one test method on several backends: ``BackendConfig``, ``inject_backend_tests``."""
import contextlib
import functools
import importlib.util
import inspect
import unittest

import numpy
import pytest

from chainer import configuration
from chainer.testing import _bundle
from chainer.testing import attr

# Name, default. The order is the one used by ``repr``.
_PROPS = (
    ('use_chainerx', False),
    ('chainerx_device', None),
    ('use_cuda', False),
    ('cuda_device', None),  # 0 when use_cuda is set
    ('use_cudnn', 'never'),
    ('cudnn_deterministic', False),
    ('autotune', False),
    ('cudnn_fast_batch_normalization', False),
    ('use_ideep', 'never'),
)

# Entries of ``chainer.config`` that a backend configuration sets while it is active.
_CONFIG_KEYS = (
    'use_cudnn', 'cudnn_deterministic', 'autotune', 'cudnn_fast_batch_normalization',
    'use_ideep',
)


class BackendConfig:
    """One backend (NumPy, CuPy...) and the configuration a test runs it under.

    Args:
        params (dict): Any of ``use_cuda`` (bool), ``cuda_device`` (int, 0 by default
            when ``use_cuda``), ``use_cudnn`` and ``use_ideep`` (``'never'``,
            ``'always'`` or ``'auto'``), ``cudnn_deterministic``, ``autotune``,
            ``cudnn_fast_batch_normalization`` (bool), ``use_chainerx`` (bool) and
            ``chainerx_device`` (str, e.g. ``'native:0'``). ``{}`` means plain NumPy.
            Values are taken as given, as Chainer does; an unknown name is an error.

    rechainer has neither ChainerX nor iDeep, so configurations that require them are
    accepted but their tests always skip.
    """

    _device = None

    def __init__(self, params):
        if not isinstance(params, dict):
            raise TypeError(f'BackendConfig requires a dict, got {type(params).__name__}')
        known = dict(_PROPS)
        unknown = sorted(set(params) - set(known))
        if unknown:
            raise ValueError(
                f'unknown BackendConfig parameter(s) {unknown}; expected some of {list(known)}')
        for name, default in _PROPS:
            setattr(self, name, params.get(name, default))
        if self.use_cuda and self.cuda_device is None:
            self.cuda_device = 0
        self._contexts = []

    def __repr__(self):
        items = ' '.join(f'{name}={getattr(self, name)!r}' for name, _ in _PROPS)
        return f'<BackendConfig {items}>'

    @property
    def xp(self):
        """The array module of this backend (``numpy``, ``cupy`` or ``chainerx``)."""
        if self.use_chainerx:
            import chainerx
            return chainerx
        if self.use_cuda:
            import cupy
            return cupy
        return numpy

    def _device_spec(self):
        if self.use_chainerx:
            return self.chainerx_device
        if self.use_cuda:
            return f'@cupy:{self.cuda_device}'
        if self.use_ideep == 'always':
            return '@intel64'
        return '@numpy'

    @property
    def device(self):
        """The :class:`chainer.backend.Device` the test arrays live on."""
        if self._device is None:
            from chainer import backend  # loaded on use: tests import this module early
            self._device = backend.get_device(self._device_spec())
        return self._device

    def get_array(self, np_array):
        """Transfers a NumPy array (or a tuple/list of them, or ``None``) to this backend."""
        return self.device.send(np_array)

    def get_func_str(self):
        """The configuration as an identifier, used to name the generated test classes.

        Every parameter in turn, ``<name>_<value>`` joined by double underscores, with
        booleans in lower case (``use_chainerx_false__chainerx_device_None__...``).
        """
        return '__'.join(f'{name}_{_value_str(getattr(self, name))}' for name, _ in _PROPS)

    def skip_reason(self):
        """Why this configuration cannot run here, or ``None`` when it can.

        Imports CuPy for CUDA configurations, so call it when a test runs rather than
        when it is collected.
        """
        if self.use_chainerx:
            return 'ChainerX is not available in rechainer'
        if self.use_ideep == 'always':
            return 'iDeep is not available in rechainer'
        if self.use_cuda:
            if importlib.util.find_spec('cupy') is None:
                return 'CuPy is not available'
            needed = self.cuda_device + 1
            if attr.get_gpu_count() < needed:
                return f'requires {needed} GPU(s)'
        return None

    def get_pytest_marks(self):
        """pytest marks for a test on this backend.

        The markers Chainer gives (``chainerx``; ``gpu``, ``cudnn`` and ``multi_gpu``
        for CUDA; ``ideep`` when iDeep is asked for), followed by the skips that apply
        here: ChainerX and ``use_ideep='always'`` always skip, CUDA without CuPy skips.
        """
        marks = []
        if self.use_chainerx:
            marks.append(attr.chainerx)
            backend_name, _, index = str(self.chainerx_device).partition(':')
            if backend_name == 'cuda':
                marks.append(pytest.mark.gpu)
                if index.isdigit() and int(index) >= 1:
                    marks.append(pytest.mark.multi_gpu(int(index) + 1))
            marks.append(pytest.mark.skip(reason=self.skip_reason()))
        elif self.use_cuda:
            marks.append(pytest.mark.gpu)
            if self.use_cudnn != 'never':
                marks.append(attr.cudnn)
            if self.cuda_device >= 1:
                marks.append(pytest.mark.multi_gpu(self.cuda_device + 1))
            # Only whether CuPy is installed is known without importing it; a missing
            # device is reported when the test runs.
            marks.append(pytest.mark.skipif(
                importlib.util.find_spec('cupy') is None, reason='CuPy is not available'))
        elif self.use_ideep != 'never':
            marks.append(attr.ideep)
            if self.use_ideep == 'always':
                marks.append(pytest.mark.skip(reason=self.skip_reason()))
        return marks

    @contextlib.contextmanager
    def using_config(self):
        """Context manager setting ``chainer.config`` entries (``use_cudnn``...) and device."""
        with contextlib.ExitStack() as stack:
            for key in _CONFIG_KEYS:
                stack.enter_context(configuration.using_config(key, getattr(self, key)))
            if self.use_cuda:
                stack.enter_context(self.device.create_context())
            yield self

    def __enter__(self):
        context = self.using_config()
        context.__enter__()
        self._contexts.append(context)
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        return self._contexts.pop().__exit__(exc_type, exc_value, traceback)


def _value_str(value):
    if value is True or value is False:
        return str(value).lower()
    return str(value)


def _hide_config_parameter(method):
    # pytest reads fixture names from the signature of plain-class test methods: drop
    # the backend_config parameter that the wrapper supplies.
    try:
        signature = inspect.signature(method)
    except (TypeError, ValueError):
        return None
    params = list(signature.parameters.values())
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if len(positional) < 2:
        return None  # calling it with a config fails when it runs, as in Chainer
    params.remove(positional[1])
    return signature.replace(parameters=params)


def _with_config(config, marks):
    def wrap(name, method):
        @functools.wraps(method)
        def test(self, *args, **kwargs):
            reason = config.skip_reason()
            if reason is not None:
                raise unittest.SkipTest(reason)
            return method(self, config, *args, **kwargs)

        test.__name__ = name  # pytest marks refuse functions named '<lambda>'
        signature = _hide_config_parameter(method)
        if signature is not None:
            test.__signature__ = signature
        for mark in marks:
            test = mark(test)
        return test

    return wrap


def _variants(method_names, configs):
    def keep_if_not_injected(name, method):
        return None if name in method_names else method

    def variants(base):
        if method_names is not None:
            # The methods not injected stay, with no configuration, under the base name.
            yield base.__name__, {}, keep_if_not_injected
        for config in configs:
            with_config = _with_config(config, config.get_pytest_marks())
            if method_names is None:
                wrap = with_config
            else:
                def wrap(name, method, with_config=with_config):
                    return with_config(name, method) if name in method_names else None
            yield f'{base.__name__}_{config.get_func_str()}', {}, wrap

    return variants


def inject_backend_tests(method_names, params):
    """Runs test methods once per backend configuration, one generated class each.

    For each dict in ``params``, a subclass named ``<ClassName>_<config>`` is generated
    (``<config>`` is :meth:`BackendConfig.get_func_str`, e.g.
    ``TestFoo_use_chainerx_false__chainerx_device_None__use_cuda_false__...``) whose test
    methods receive a :class:`BackendConfig` as their argument after ``self``. When
    ``method_names`` lists the methods to inject, the generated classes hold only those;
    the other test methods stay, without an argument, in a class of the original name.
    Tests on CuPy carry the ``gpu`` marker and skip without CuPy or without enough
    devices; ChainerX and iDeep ones always skip. Stacks with
    :func:`~chainer.testing.parameterize` in either order.

    Args:
        method_names (list of str or None): Methods to inject into; ``None`` selects
            every ``test_*`` method.
        params (list of dicts): Backend configurations, each passed to
            :class:`BackendConfig`; ``[{}]`` is NumPy only.

    Returns:
        A class decorator.

    .. admonition:: Example

        >>> @testing.inject_backend_tests(
        ...     None, [{}] + testing.product({'use_cuda': [True],
        ...                                   'use_cudnn': ['never', 'always']}))
        ... class TestDouble(unittest.TestCase):
        ...     def test_forward(self, backend_config):
        ...         x = backend_config.get_array(numpy.ones(3))
        ...         testing.assert_allclose(x * 2, numpy.full(3, 2.))
    """
    if isinstance(method_names, str):
        method_names = [method_names]
    if method_names is not None and not isinstance(method_names, (list, tuple)):
        raise TypeError(
            f'method_names must be a list of str or None, got {type(method_names).__name__}')
    if not isinstance(params, (list, tuple)) or not all(isinstance(p, dict) for p in params):
        raise TypeError(f'params must be a list of dicts, got {params!r}')
    configs = [BackendConfig(p) for p in params]
    if method_names is not None:
        method_names = frozenset(method_names)
    return _bundle.make_decorator(_variants(method_names, configs))
