import sys
import types
import unittest

import numpy
import pytest

from chainer import testing
from chainer.testing import parameterized

pytest_plugins = ['pytester']


@pytest.fixture
def module():
    mod = types.ModuleType('_chainer_param_fake_module')
    sys.modules[mod.__name__] = mod
    yield mod
    del sys.modules[mod.__name__]


def _define(module, name, base=object, **attrs):
    cls = type(name, (base,), {'__module__': module.__name__, **attrs})
    setattr(module, name, cls)
    return cls


def _generated(module, prefix):
    return [k for k in vars(module) if k.startswith(prefix + '_param_')]


def test_value_strings():
    def my_func():
        pass

    param = {
        'dtype': numpy.float32, 'shape': (2, 3), 'name': 'abc', 'func': my_func,
        'cls': ValueError, 'dt': numpy.dtype('float16'), 'none': None, 'mod': numpy,
    }
    assert parameterized._make_class_name('TestA', 3, param) == (
        "TestA_param_3_{cls=ValueError, dt=dtype('float16'), dtype=float32, func=my_func, "
        "mod=numpy, name='abc', none=None, shape=(2, 3)}")


def test_long_value_is_shortened_in_the_middle():
    value = 'x' * 60 + 'y' * 60  # repr adds quotes: 122 characters
    name = parameterized._make_class_name('T', 0, {'v': value})
    shown = name[len('T_param_0_{v='):-1]
    assert len(shown) == 100
    assert shown == "'" + 'x' * 47 + '...' + 'y' * 48 + "'"  # 48 kept in front, 49 behind


def test_value_of_exactly_100_characters_is_kept():
    value = 'z' * 98
    name = parameterized._make_class_name('T', 0, {'v': value})
    assert name == f"T_param_0_{{v='{value}'}}"


def test_whole_parameter_list_is_shortened():
    param = {f'k{i:03d}': 'v' * 90 for i in range(100)}
    name = parameterized._make_class_name('T', 0, param)
    inner = name[len('T_param_0_{'):-1]
    assert len(inner) == 5000
    assert inner.startswith("k000='") and inner.endswith("'")
    assert '...' in inner


def test_unittest_classes_are_generated_and_registered(module):
    base = _define(module, 'TestFoo', unittest.TestCase, test_a=lambda self: None)
    result = testing.parameterize({'x': 1, 'dtype': numpy.float64}, {'x': 2, 'dtype': int})(base)
    assert result is base
    assert base.__test__ is False
    names = _generated(module, 'TestFoo')
    assert names == [
        'TestFoo_param_0_{dtype=float64, x=1}',
        'TestFoo_param_1_{dtype=int, x=2}',
    ]
    cls0 = getattr(module, names[0])
    assert issubclass(cls0, base)
    assert cls0.__test__ is True
    assert cls0.x == 1 and cls0.dtype is numpy.float64
    assert cls0.__module__ == module.__name__
    assert cls0.__qualname__ == cls0.__name__ == names[0]


def test_stacked_parameterize_replaces_intermediate_classes(module):
    base = _define(module, 'TestBar')
    inner = testing.parameterize({'a': 1}, {'a': 2})
    outer = testing.parameterize({'b': 'p'}, {'b': 'q'})
    outer(inner(base))
    assert _generated(module, 'TestBar') == [
        "TestBar_param_0_{a=1}_param_0_{b='p'}",
        "TestBar_param_0_{a=1}_param_1_{b='q'}",
        "TestBar_param_1_{a=2}_param_0_{b='p'}",
        "TestBar_param_1_{a=2}_param_1_{b='q'}",
    ]
    last = getattr(module, "TestBar_param_1_{a=2}_param_1_{b='q'}")
    assert (last.a, last.b) == (2, 'q')
    assert last.__test__ is True
    assert last.__base__.__test__ is False


def test_function_values_are_not_bound_as_methods(module):
    def double(v):
        return v * 2

    base = _define(module, 'TestFunc')
    testing.parameterize({'f': double, 'g': abs})(base)
    cls = getattr(module, _generated(module, 'TestFunc')[0])
    assert cls().f(3) == 6
    assert cls().g(-2) == 2
    assert cls.f is double


def test_parameterize_rejects_non_dicts():
    with pytest.raises(TypeError):
        testing.parameterize([('a', 1)])


def test_product_of_dict():
    assert testing.product({'b': [1, 2], 'a': ['x', 'y']}) == [
        {'a': 'x', 'b': 1}, {'a': 'x', 'b': 2}, {'a': 'y', 'b': 1}, {'a': 'y', 'b': 2}]
    assert testing.product({'a': []}) == []


def test_product_with_joint_keys():
    got = testing.product({'shape,axis': [((2, 3), 0), ((4,), -1)], 'dtype': ['f', 'd']})
    assert got == [
        {'dtype': 'f', 'shape': (2, 3), 'axis': 0}, {'dtype': 'f', 'shape': (4,), 'axis': -1},
        {'dtype': 'd', 'shape': (2, 3), 'axis': 0}, {'dtype': 'd', 'shape': (4,), 'axis': -1}]
    with pytest.raises(ValueError):
        testing.product({'a,b': [(1, 2, 3)]})


def test_product_of_lists_of_dicts():
    got = testing.product([
        [{'a': 1}, {'a': 2, 'c': 0}],
        [{'b': 3}, {'b': 4, 'c': 5}],
    ])
    assert got == [
        {'a': 1, 'b': 3}, {'a': 1, 'b': 4, 'c': 5},
        {'a': 2, 'c': 0, 'b': 3}, {'a': 2, 'c': 5, 'b': 4},
    ]


def test_product_rejects_other_types():
    with pytest.raises(TypeError):
        testing.product(3)


def test_product_dict():
    assert testing.product_dict([{'a': 1}, {'a': 2}], [{'b': 3}], [{'c': 4}, {'c': 5}]) == [
        {'a': 1, 'b': 3, 'c': 4}, {'a': 1, 'b': 3, 'c': 5},
        {'a': 2, 'b': 3, 'c': 4}, {'a': 2, 'b': 3, 'c': 5}]
    assert testing.product_dict() == [{}]


def test_from_pytest_parameterize():
    assert testing.from_pytest_parameterize('a, b', [(1, 2), (3, 4)]) == [
        {'a': 1, 'b': 2}, {'a': 3, 'b': 4}]
    assert testing.from_pytest_parameterize('shape', [(2, 3), ()]) == [
        {'shape': (2, 3)}, {'shape': ()}]
    assert testing.from_pytest_parameterize(['a', 'b'], [[1, 2]]) == [{'a': 1, 'b': 2}]
    with pytest.raises(ValueError):
        testing.from_pytest_parameterize('a,b', [(1, 2, 3)])


def test_parameterize_pytest(module):
    base = _define(module, 'TestPy')
    testing.parameterize_pytest('a,b', [(1, 2), (3, 4)])(base)
    assert _generated(module, 'TestPy') == [
        'TestPy_param_0_{a=1, b=2}', 'TestPy_param_1_{a=3, b=4}']


RUN_SOURCE = '''
import unittest

import numpy

from chainer import testing

SEEN = []


@testing.parameterize(*testing.product({'dtype': [numpy.float32, numpy.float64], 'n': [1, 2]}))
class TestUnit(unittest.TestCase):

    def setUp(self):
        self.x = numpy.ones(self.n, self.dtype)

    def test_sum(self):
        SEEN.append(('unit', self.dtype, self.n))
        assert self.x.sum() == self.n


@testing.parameterize({'a': 1}, {'a': 2})
@testing.parameterize({'b': 10})
class TestPlain:

    def test_add(self, tmp_path):
        assert tmp_path.exists()
        assert self.a + self.b in (11, 12)


def test_all_ran():
    pass
'''


def _nodeids(reports):
    return sorted(r.nodeid.split('::', 1)[1] for r in reports if r.when == 'call')


def test_generated_classes_run(pytester):
    pytester.makepyfile(test_gen=RUN_SOURCE)
    passed, skipped, failed = pytester.inline_run('-p', 'no:cacheprovider').listoutcomes()
    assert not failed and not skipped
    assert _nodeids(passed) == sorted([
        'TestUnit_param_0_{dtype=float32, n=1}::test_sum',
        'TestUnit_param_1_{dtype=float32, n=2}::test_sum',
        'TestUnit_param_2_{dtype=float64, n=1}::test_sum',
        'TestUnit_param_3_{dtype=float64, n=2}::test_sum',
        'TestPlain_param_0_{b=10}_param_0_{a=1}::test_add',
        'TestPlain_param_0_{b=10}_param_1_{a=2}::test_add',
        'test_all_ran',
    ])


def test_failures_are_reported_per_generated_class(pytester):
    pytester.makepyfile(test_fail='''
from chainer import testing

@testing.parameterize({'v': 1}, {'v': 2})
class TestFail:
    def test_it(self):
        assert self.v == 1
''')
    passed, skipped, failed = pytester.inline_run('-p', 'no:cacheprovider').listoutcomes()
    assert _nodeids(passed) == ['TestFail_param_0_{v=1}::test_it']
    assert _nodeids(failed) == ['TestFail_param_1_{v=2}::test_it']


def test_class_marks_reach_generated_classes(pytester):
    pytester.makepyfile(test_marks='''
import unittest

from chainer import testing
from chainer.testing import attr


@attr.slow
@testing.parameterize({'v': 1}, {'v': 2})
class TestSlowOutside(unittest.TestCase):
    def test_it(self):
        pass


@testing.parameterize({'v': 1})
@attr.slow
class TestSlowInside:
    def test_it(self):
        pass


@testing.parameterize({'v': 1})
class TestFast:
    def test_it(self):
        pass
''')
    result = pytester.inline_run('-p', 'no:cacheprovider', '-m', 'not slow')
    passed, skipped, failed = result.listoutcomes()
    assert [r.nodeid for r in passed] == ['test_marks.py::TestFast_param_0_{v=1}::test_it']
