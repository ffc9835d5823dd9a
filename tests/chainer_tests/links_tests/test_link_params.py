"""Parameter and persistent names, shapes and dtypes equal Chainer 7.8.1's.

tests/fixtures/link_params.json was written by tests/fixtures/make_link_params.py
running on Chainer 7.8.1; the same cases are built here.
"""
import importlib.util
import json
import os

import pytest

_FIXTURES = os.path.join(os.path.dirname(__file__), '..', '..', 'fixtures')


def _load_script():
    spec = importlib.util.spec_from_file_location(
        'make_link_params', os.path.join(_FIXTURES, 'make_link_params.py'))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_SCRIPT = _load_script()
with open(os.path.join(_FIXTURES, 'link_params.json')) as _f:
    _EXPECTED = json.load(_f)


@pytest.mark.parametrize('case', _SCRIPT.CASES, ids=[c[0] for c in _SCRIPT.CASES])
def test_names_shapes_dtypes(case):
    case_id, expr, inputs = case
    got = _SCRIPT.describe(_SCRIPT.build(expr, inputs))
    assert got == _EXPECTED[case_id]


def test_every_case_recorded():
    assert sorted(c[0] for c in _SCRIPT.CASES) == sorted(_EXPECTED)
