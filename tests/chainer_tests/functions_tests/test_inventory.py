"""Inventory of chainer.functions: every public name imports, and every one has tests
written with the shared FunctionTestCase harness."""
import importlib
import pathlib
import re

import pytest

import chainer.functions as F

HERE = pathlib.Path(__file__).parent

# Functions whose tests cannot use FunctionTestCase, with the reason.
NOT_HARNESS = {
    'forget': 'wraps another function; tested by comparing with the plain call',
}


def test_every_name_resolves():
    missing = []
    for name in F.__all__:
        try:
            getattr(F, name)
        except (AttributeError, ImportError) as e:
            missing.append(f'{name}: {e}')
    assert not missing, 'chainer.functions names that do not import:\n' + '\n'.join(missing)


def test_module_paths_match_the_table():
    for mod, names in F._MODULES.items():
        module = importlib.import_module('chainer.functions.' + mod)
        for name in names.split():
            assert callable(getattr(module, name)), f'{mod}.{name}'


def _harness_sources():
    markers = ['FunctionTestCase', 'unary_math_function_unittest']
    # Shared helper modules (``_rounding.py``...) that build on the harness count too, for the
    # test modules that import them.
    markers += [f'import {path.stem}' for path in HERE.rglob('_*.py')
                if 'FunctionTestCase' in path.read_text()]
    texts = []
    for path in HERE.rglob('test_*.py'):
        text = path.read_text()
        if any(m in text for m in markers):
            texts.append(text)
    return '\n'.join(texts)


def test_every_function_has_harness_tests():
    text = _harness_sources()
    untested = [name for name in F.__all__ if name not in NOT_HARNESS
                and not re.search(r'(\bF|functions)\.%s\b' % re.escape(name), text)]
    if untested:
        pytest.fail('functions without a FunctionTestCase-based test: ' + ', '.join(untested))


def test_function_node_classes_reachable():
    import chainer
    for name in ('ReLU', 'Sum', 'MatMul', 'Concat', 'Tanh'):
        cls = getattr(F, name)
        assert issubclass(cls, chainer.FunctionNode)
    with pytest.raises(AttributeError):
        F.NoSuchFunctionNode
