"""Test utilities: parameterized classes, backend injection, assertions, markers."""
import importlib

from chainer import _lazy
from chainer.testing import array  # NOQA
from chainer.testing import attr  # NOQA
from chainer.testing import condition  # NOQA
from chainer.testing import parameterized  # NOQA
from chainer.testing.array import assert_allclose  # NOQA
from chainer.testing.backend import BackendConfig  # NOQA
from chainer.testing.backend import inject_backend_tests  # NOQA
from chainer.testing.helper import assert_warns  # NOQA
from chainer.testing.helper import patch  # NOQA
from chainer.testing.helper import run_module  # NOQA
from chainer.testing.helper import with_requires  # NOQA
from chainer.testing.helper import without_requires  # NOQA
from chainer.testing.parameterized import from_pytest_parameterize  # NOQA
from chainer.testing.parameterized import parameterize  # NOQA
from chainer.testing.parameterized import parameterize_pytest  # NOQA
from chainer.testing.parameterized import product  # NOQA
from chainer.testing.parameterized import product_dict  # NOQA
from chainer.testing.random import fix_random  # NOQA
from chainer.testing.random import generate_seed  # NOQA

# Names whose modules load on first use: they pull in most of chainer (links,
# optimizers, the trainer), which the utilities above must not depend on.
_LAZY = {
    'FunctionTestCase': 'function_link',
    'LinkTestCase': 'function_link',
    'LinkInitializersTestCase': 'function_link',
    'InitializerArgument': 'function_link',
    'unary_math_function_unittest': 'unary_math_function_test',
    'distribution_unittest': '_distribution_test',
    'save_and_load': 'serializer',
    'save_and_load_npz': 'serializer',
    'save_and_load_hdf5': 'serializer',
    'get_trainer_with_mock_updater': 'training',
    'FunctionTestError': 'function_link',
    'LinkTestError': 'function_link',
    'generate_matrix': 'matrix',
}
_LAZY_MODULES = ('function_link', 'unary_math_function_test', 'serializer', 'training',
                 'matrix')


def __getattr__(name):
    if name in _LAZY:
        value = getattr(importlib.import_module(f'{__name__}.{_LAZY[name]}'), name)
    elif name in _LAZY_MODULES:
        value = importlib.import_module(f'{__name__}.{name}')
    else:
        value = _lazy.import_submodule(__name__, name)
        if value is None:
            raise AttributeError(f'module {__name__!r} has no attribute {name!r}')
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY) | set(_LAZY_MODULES))
