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


def _harness_markers():
    markers = ['FunctionTestCase', 'unary_math_function_unittest']
    # Shared helper modules (``_rounding.py``...) that build on the harness count too, for the
    # test modules that import them.
    markers += [f'import {path.stem}' for path in HERE.rglob('_*.py')
                if 'FunctionTestCase' in path.read_text()]
    return markers


def _own_test_module(module):
    """``activation.relu`` -> ``activation_tests/test_relu.py`` (the test of that module)."""
    family, name = module.split('.')
    return HERE / f'{family}_tests' / f'test_{name}.py'


def _untested():
    """Each public function whose own test module is missing, does not use the harness, or
    never calls it, with the reason."""
    markers = _harness_markers()
    problems = []
    for mod, names in F._MODULES.items():
        path = _own_test_module(mod)
        rel = path.relative_to(HERE)
        for name in names.split():
            if name in NOT_HARNESS:
                continue
            if not path.exists():
                problems.append(f'{name}: no test module {rel}')
                continue
            text = path.read_text()
            if not any(m in text for m in markers):
                problems.append(f'{name}: {rel} does not use FunctionTestCase')
            elif not re.search(r'(\bF|functions)\.%s\b' % re.escape(name), text):
                problems.append(f'{name}: {rel} never calls F.{name}')
    return problems


def test_every_function_has_its_own_harness_test_module():
    problems = _untested()
    if problems:
        pytest.fail('functions without their own FunctionTestCase test module:\n'
                    + '\n'.join(problems))


def test_the_inventory_notices_a_missing_test_module(monkeypatch):
    # Hiding one function's test module must make the inventory fail.
    real_exists = pathlib.Path.exists
    target = _own_test_module('activation.relu')
    monkeypatch.setattr(pathlib.Path, 'exists',
                        lambda self: False if self == target else real_exists(self))
    assert 'relu: no test module activation_tests/test_relu.py' in _untested()


def test_function_node_classes_reachable():
    import chainer
    for name in ('ReLU', 'Sum', 'MatMul', 'Concat', 'Tanh'):
        cls = getattr(F, name)
        assert issubclass(cls, chainer.FunctionNode)
    with pytest.raises(AttributeError):
        F.NoSuchFunctionNode
