"""rechainer: the Chainer 7 API, reimplemented for current Python and NumPy.

``import chainer`` gives the same public names as Chainer 7.8.1.
"""
import collections
import os
import threading

import numpy

from chainer import _malloc
from chainer import configuration  # NOQA
from chainer.configuration import config, global_config, using_config  # NOQA

__version__ = '7.8.1'          # the Chainer API level this package provides
rechainer_version = '0.1.0'    # the version of this implementation

# Freed array memory stays in the process between training steps (see chainer/_malloc.py;
# RECHAINER_MALLOC_TUNING=0 turns this off).
_malloc.tune()


# ---------------------------------------------------------------------------
# dtype policy
# ---------------------------------------------------------------------------
class _Mixed16:
    """The ``mixed16`` dtype policy: float16 activations, float32 parameters."""

    dtype = numpy.dtype(numpy.float16)

    def __eq__(self, other):
        return self is other or other == 'mixed16'

    __hash__ = object.__hash__

    def __repr__(self):
        return "dtype('mixed16')"

    def __str__(self):
        return 'mixed16'


mixed16 = _Mixed16()


def _parse_dtype(name, where):
    if name == 'mixed16':
        return mixed16
    if name in ('float16', 'float32', 'float64'):
        return numpy.dtype(name)
    raise TypeError(f'incorrect dtype name in {where}: {name!r}; expected one of '
                    "'float16', 'float32', 'float64', 'mixed16'")


def get_dtype(dtype=None, map_mixed16=None):
    """Resolves a dtype, defaulting to ``chainer.config.dtype``.

    Args:
        dtype: A dtype (or ``None`` for the configured default).
        map_mixed16: What ``mixed16`` turns into (float16 by default).

    Returns:
        numpy.dtype: The resolved dtype.
    """
    if dtype is None:
        dtype = config.dtype
    if dtype is mixed16 or (isinstance(dtype, str) and dtype == 'mixed16'):
        return numpy.dtype(map_mixed16 if map_mixed16 is not None else numpy.float16)
    return numpy.dtype(dtype)


def _env_flag(name, default):
    value = os.environ.get(name, default)
    try:
        return bool(int(value))
    except ValueError:
        raise ValueError(f'environment variable {name} must be 0 or 1, got {value!r}')


# ---------------------------------------------------------------------------
# configuration defaults (CHAINER_* environment variables override some)
# ---------------------------------------------------------------------------
global_config.autotune = False
global_config.compute_mode = None
global_config.cudnn_deterministic = _env_flag('CHAINER_CUDNN_DETERMINISTIC', '0')
global_config.cudnn_fast_batch_normalization = _env_flag(
    'CHAINER_CUDNN_FAST_BATCH_NORMALIZATION', '0')
global_config.debug = _env_flag('CHAINER_DEBUG', '0')
global_config.dtype = _parse_dtype(os.environ.get('CHAINER_DTYPE', 'float32'),
                                   'CHAINER_DTYPE')
global_config.enable_backprop = True
global_config.in_recomputing = False
global_config.keep_graph_on_report = _env_flag('CHAINER_KEEP_GRAPH_ON_REPORT', '0')
global_config.lazy_grad_sum = _env_flag('CHAINER_LAZY_GRAD_SUM', '0')
global_config.schedule_func = None
global_config.train = True
global_config.type_check = _env_flag('CHAINER_TYPE_CHECK', '1')
global_config.use_cudnn = os.environ.get('CHAINER_USE_CUDNN', 'auto')
global_config.use_cudnn_tensor_core = 'auto'
global_config.use_ideep = os.environ.get('CHAINER_USE_IDEEP', 'never')
global_config.use_static_graph = True
global_config.warn_nondeterministic = _env_flag('CHAINER_WARN_NONDETERMINISTIC', '0')
global_config._will_recompute = False

from chainer import backend  # NOQA
from chainer import backends  # NOQA
from chainer.backends import cuda  # NOQA
from chainer.backend import get_device, using_device, is_arrays_compatible  # NOQA
from chainer.backends.cuda import should_use_cudnn, should_use_cudnn_tensor_core  # NOQA
from chainer import device_resident  # NOQA
from chainer.device_resident import DeviceResident  # NOQA
from chainer import function_hook  # NOQA
from chainer.function_hook import FunctionHook, get_function_hooks  # NOQA
from chainer import variable  # NOQA
from chainer.variable import Variable, VariableNode, Parameter, as_variable, as_array  # NOQA
from chainer import function_node  # NOQA
from chainer.function_node import FunctionNode  # NOQA
from chainer import function  # NOQA
from chainer.function import Function, FunctionAdapter  # NOQA
from chainer import _backprop  # NOQA
from chainer._backprop import backward, grad  # NOQA
from chainer import utils  # NOQA
from chainer import functions  # NOQA
from chainer.functions.math import basic_math as _basic_math  # NOQA
from chainer.functions.array import get_item as _get_item  # NOQA
from chainer.functions import array  # NOQA  (in Chainer's namespace, as its imports leave it)
from chainer.functions.math import basic_math  # NOQA  (the same)
from chainer import initializer  # NOQA
from chainer.initializer import Initializer  # NOQA
from chainer import initializers  # NOQA
from chainer._runtime_info import print_runtime_info  # NOQA

# The core is built bottom up (variable <- function_node <- _backprop <- functions); what
# points back up is handed over here, once everything is loaded.
_basic_math.install_variable_arithmetics()     # Variable's operators
_get_item.install_variable_get_item()          # Variable.__getitem__
_backprop.install(_basic_math.add)             # Variable.backward; the engine's sums

disable_experimental_feature_warning = False


def get_array_types():
    """Returns the array types that Variables can hold (NumPy, and CuPy if present)."""
    if cuda.available:
        return (numpy.ndarray, cuda.ndarray)
    return (numpy.ndarray,)


def get_cpu_array_types():
    """Returns the CPU array types (``numpy.ndarray``)."""
    return (numpy.ndarray,)


def is_debug():
    """Returns whether debug mode is on (``chainer.config.debug``)."""
    return bool(config.debug)


def set_debug(debug):
    """Turns debug mode on or off for the current thread.

    In debug mode every function checks its outputs for NaN and remembers
    where it was called, so backward errors can point to the forward call.
    """
    config.debug = debug


class DebugMode:
    """Context manager that sets debug mode (kept for old code)."""

    def __init__(self, debug):
        self._cm = using_config('debug', debug)

    def __enter__(self):
        self._cm.__enter__()

    def __exit__(self, *args):
        self._cm.__exit__(*args)


def no_backprop_mode():
    """Returns a context manager (also a decorator) in which no graph is built.

    .. admonition:: Example

        >>> x = chainer.Variable(np.array([1.], np.float32))
        >>> with chainer.no_backprop_mode():
        ...     y = x + 1
        >>> y.creator is None
        True
    """
    return using_config('enable_backprop', False)


def force_backprop_mode():
    """Returns a context manager (also a decorator) that builds graphs even inside
    :func:`no_backprop_mode`."""
    return using_config('enable_backprop', True)


def get_compute_mode():
    """Returns ``chainer.config.compute_mode`` (``None`` unless set)."""
    return getattr(config, 'compute_mode', None)


class _FallbackType:
    """Type of :data:`Fallback`."""

    def __repr__(self):
        return 'Fallback'


# A sentinel: "no specific value; use the default behaviour".
Fallback = _FallbackType()

_thread_local = threading.local()


def _get_link_hooks():
    # The link hooks registered in this thread (what `with SomeLinkHook():` adds).
    try:
        return _thread_local.link_hooks
    except AttributeError:
        hooks = _thread_local.link_hooks = collections.OrderedDict()
        return hooks


# Submodules loaded on first attribute access (``chainer.links``...), which keeps
# ``import chainer`` light while ``import chainer; chainer.gradient_check`` still works.
_LAZY_SUBMODULES = frozenset((
    'computational_graph', 'dataset', 'datasets', 'distribution', 'distributions', 'exporters',
    'function_hooks', 'gradient_check', 'graph_optimizations', 'iterators', 'link',
    'link_hook', 'link_hooks', 'links', 'memory_layouts', 'optimizer', 'optimizer_hooks',
    'optimizers', 'reporter', 'serializer', 'serializers', 'sequential', 'testing', 'training',
    'types', 'warnings',
))

# Names of the `chainer` namespace defined in those submodules, also loaded on
# first access: name -> module.
_LAZY_NAMES = {
    'AbstractSerializer': 'chainer.serializer',
    'Serializer': 'chainer.serializer',
    'Deserializer': 'chainer.serializer',
    'Link': 'chainer.link',
    'Chain': 'chainer.link',
    'ChainList': 'chainer.link',
    'LinkHook': 'chainer.link_hook',
    'Sequential': 'chainer.sequential',
    'GradientMethod': 'chainer.optimizer',
    'Optimizer': 'chainer.optimizer',
    'UpdateRule': 'chainer.optimizer',
    'Reporter': 'chainer.reporter',
    'Summary': 'chainer.reporter',
    'DictSummary': 'chainer.reporter',
    'get_current_reporter': 'chainer.reporter',
    'report': 'chainer.reporter',
    'report_scope': 'chainer.reporter',
    'Distribution': 'chainer.distribution',
    'cross_entropy': 'chainer.distribution',
    'kl_divergence': 'chainer.distribution',
    'register_kl': 'chainer.distribution',
    'static_graph': 'chainer.graph_optimizations.static_graph',
    'static_code': 'chainer.graph_optimizations.static_graph_utilities',
}


def __getattr__(name):
    import importlib
    if name == 'chainerx':
        return importlib.import_module('chainerx')
    if name in _LAZY_SUBMODULES:
        module, attr = 'chainer.' + name, None
    elif name in _LAZY_NAMES:
        module, attr = _LAZY_NAMES[name], name
    else:
        raise AttributeError(f"module 'chainer' has no attribute '{name}'")
    try:
        value = importlib.import_module(module)
        if attr is not None:
            value = getattr(value, attr)
    except ModuleNotFoundError as e:
        if e.name is None or not (module + '.').startswith(e.name + '.'):
            raise       # a module that this one imports is missing: not ours to explain
        # A module of Chainer 7.8.1 that rechainer does not have yet (the static graph's
        # chainer.graph_optimizations is one).
        raise AttributeError(f'chainer.{name} is not available: rechainer does not have '
                             f'{e.name} yet') from None
    except AttributeError as e:
        raise AttributeError(f'chainer.{name} is not available: {module}.{name} could not '
                             f'be loaded ({e})') from e
    if attr is not None:
        globals()[name] = value
    return value
