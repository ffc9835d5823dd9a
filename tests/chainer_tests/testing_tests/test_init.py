import sys
import types

import pytest

from chainer import testing


def test_exports():
    for name in ('parameterize', 'parameterize_pytest', 'product', 'product_dict',
                 'condition', 'attr', 'array', 'assert_allclose', 'BackendConfig',
                 'inject_backend_tests', 'fix_random', 'with_requires', 'assert_warns',
                 'run_module'):
        assert hasattr(testing, name), name
    assert testing.assert_allclose is testing.array.assert_allclose


def test_lazy_names_come_from_their_modules(monkeypatch):
    fake = types.ModuleType('chainer.testing.serializer')
    fake.save_and_load_npz = object()
    # Load the real names first, so that monkeypatch puts them back afterwards (the lookup
    # caches what it finds in the module).
    testing.save_and_load_npz, testing.serializer
    monkeypatch.setitem(sys.modules, 'chainer.testing.serializer', fake)
    monkeypatch.delitem(vars(testing), 'save_and_load_npz')
    monkeypatch.delitem(vars(testing), 'serializer')
    assert testing.save_and_load_npz is fake.save_and_load_npz
    assert testing.serializer is fake
    assert 'FunctionTestCase' in dir(testing)


def test_unknown_attribute():
    with pytest.raises(AttributeError, match='no_such_name'):
        testing.no_such_name
