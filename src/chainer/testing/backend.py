"""Running one test method on several backends: ``BackendConfig``, ``inject_backend_tests``."""
import contextlib
import functools
import importlib.util
import inspect
import unittest

import numpy
import pytest

from chainer import configuration
from chainer.testing import attr

_MODES = ('never', 'always', 'auto')

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
            ``chainerx_device`` (str). ``{}`` means plain NumPy.

    rechainer has neither ChainerX nor iDeep, so configurations that require them are
    accepted but their tests always skip.
    """

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
        for name in ('use_cudnn', 'use_ideep'):
            if getattr(self, name) not in _MODES:
                raise ValueError(
                    f'{name} must be one of {_MODES}, got {getattr(self, name)!r}')
        if self.use_cuda and self.cuda_device is None:
            self.cuda_device = 0
        if self.use_chainerx and self.chainerx_device is None:
            self.chainerx_device = 'native:0'
        self._device = None
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
        """A short identifier of the backend usable in a method name (``'cupy_0'``)."""
        if self.use_chainerx:
            return 'chainerx_' + self.chainerx_device.replace(':', '_')
        if self.use_cuda:
            return f'cupy_{self.cuda_device}'
        if self.use_ideep == 'always':
            return 'ideep'
        return 'numpy'

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
        """pytest marks for a test on this backend: ``gpu``/``cudnn``/... and skips."""
        marks = []
        if self.use_chainerx:
            marks += [attr.chainerx, pytest.mark.skip(reason=self.skip_reason())]
        if self.use_cuda:
            marks.append(attr.gpu)
            if self.cuda_device >= 1:
                marks.append(pytest.mark.multi_gpu(self.cuda_device + 1))
            if self.use_cudnn != 'never':
                marks.append(attr.cudnn)
            # Only whether CuPy is installed is known without importing it; a missing
            # device is reported when the test runs.
            marks.append(pytest.mark.skipif(
                importlib.util.find_spec('cupy') is None, reason='CuPy is not available'))
        if self.use_ideep == 'always':
            marks += [attr.ideep, pytest.mark.skip(reason='iDeep is not available in rechainer')]
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


def _without_config_parameter(method, name):
    signature = inspect.signature(method)
    params = list(signature.parameters.values())
    positional = [p for p in params
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if len(positional) >= 2:
        params.remove(positional[1])
    elif not any(p.kind == p.VAR_POSITIONAL for p in params):
        raise TypeError(
            f'{name} must accept a backend_config argument after self to be used with '
            f'inject_backend_tests')
    return signature.replace(parameters=params)


def _make_backend_test(method, config, name):
    signature = _without_config_parameter(method, method.__name__)

    @functools.wraps(method)
    def test(self, *args, **kwargs):
        reason = config.skip_reason()
        if reason is not None:
            raise unittest.SkipTest(reason)
        return method(self, config, *args, **kwargs)

    test.__name__ = name
    test.__qualname__ = f'{method.__qualname__.rpartition(".")[0]}.{name}'.lstrip('.')
    # pytest reads fixture names from the signature: hide the injected argument.
    test.__signature__ = signature
    test._chainer_backend_config = config
    for mark in config.get_pytest_marks():
        test = mark(test)
    return test


def _test_method_names(cls):
    names = []
    for name in dir(cls):
        if not name.startswith('test'):
            continue
        raw = inspect.getattr_static(cls, name)
        if inspect.isfunction(raw) and not hasattr(raw, '_chainer_backend_config'):
            names.append(name)
    return names


def inject_backend_tests(method_names, params):
    """Replaces test methods with one copy per backend configuration.

    For each test method and each dict in ``params``, a method
    ``<name>__<index>_<backend>`` (e.g. ``test_forward__1_cupy_0``) is added that calls
    the original with a :class:`BackendConfig` as its argument after ``self``; the
    original is removed. Methods for CuPy carry the ``gpu`` marker and skip without CuPy
    or without enough devices; ChainerX and iDeep ones always skip. Works on
    ``unittest.TestCase`` subclasses and plain pytest classes, before or after
    :func:`~chainer.testing.parameterize`.

    Args:
        method_names (list of str or None): Methods to inject into; ``None`` selects
            every ``test*`` method.
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
    if not isinstance(params, (list, tuple)):
        raise TypeError(f'params must be a list of dicts, got {type(params).__name__}')
    configs = [BackendConfig(p) for p in params]

    def decorator(cls):
        if not isinstance(cls, type):
            raise TypeError(f'inject_backend_tests decorates classes, got {cls!r}')
        names = _test_method_names(cls) if method_names is None else list(method_names)
        for name in names:
            method = getattr(cls, name)
            for index, config in enumerate(configs):
                new_name = f'{name}__{index}_{config.get_func_str()}'
                setattr(cls, new_name, _make_backend_test(method, config, new_name))
            if name in cls.__dict__:
                delattr(cls, name)
            if getattr(cls, name, None) is not None:
                # Inherited from a base class: shadow it so that it is not run without
                # a backend_config.
                setattr(cls, name, None)
        return cls

    return decorator
