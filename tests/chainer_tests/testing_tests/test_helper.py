import importlib.metadata
import unittest
import warnings

import pytest

from chainer import testing
from chainer.testing import helper

pytest_plugins = ['pytester']


def test_requirement_checks():
    assert helper._satisfied('numpy')
    assert helper._satisfied('numpy>=1.0')
    assert helper._satisfied('numpy>=1.0,<1000')
    assert not helper._satisfied('numpy<1.0')
    assert not helper._satisfied('a-distribution-that-does-not-exist')


def test_simple_parser_fallback():
    assert helper._simple_satisfied('numpy>=1.0, <1000')
    assert not helper._simple_satisfied('numpy==0.1')
    assert not helper._simple_satisfied('a-distribution-that-does-not-exist>=1')
    with pytest.raises(ValueError):
        helper._simple_satisfied('numpy~~1')


@pytest.mark.parametrize('satisfied', [helper._satisfied, helper._simple_satisfied])
def test_chainer_is_installed_without_the_stand_in_distribution(monkeypatch, satisfied):
    # rechainer is Chainer 7.8.1: 'chainer>=5' holds even where no distribution named chainer
    # is installed (add-ons' suites skip on it otherwise).
    version = importlib.metadata.version

    def no_chainer(name):
        if name in ('chainer', 'chainermn'):
            raise importlib.metadata.PackageNotFoundError(name)
        return version(name)

    monkeypatch.setattr(importlib.metadata, 'version', no_chainer)
    assert satisfied('chainer>=5')
    assert satisfied('chainermn>=7')
    assert not satisfied('chainer>=8')
    assert not satisfied('chainerrl')


def test_with_requires_keeps_or_skips():
    def f():
        return 1

    assert testing.with_requires('numpy')(f) is f
    skipped = testing.with_requires('numpy<1.0')(f)
    assert [m.name for m in skipped.pytestmark] == ['skip']
    assert skipped.pytestmark[0].kwargs['reason'] == 'requires: numpy<1.0'

    class TestU(unittest.TestCase):
        def test_a(self):
            pass

    testing.with_requires('numpy<1.0', 'numpy')(TestU)
    result = unittest.TestResult()
    unittest.defaultTestLoader.loadTestsFromTestCase(TestU).run(result)
    assert len(result.skipped) == 1


def test_with_requires_under_pytest(pytester):
    pytester.makepyfile(test_req='''
from chainer import testing

@testing.with_requires('numpy<1.0')
def test_skipped():
    raise AssertionError

@testing.with_requires('numpy<1.0')
class TestSkipped:
    def test_a(self):
        raise AssertionError

@testing.with_requires('numpy>=1.0')
def test_run():
    pass
''')
    pytester.inline_run('-p', 'no:cacheprovider').assertoutcome(passed=1, skipped=2)


def test_assert_warns():
    with testing.assert_warns(DeprecationWarning):
        warnings.warn('old', DeprecationWarning)
    class MyWarning(UserWarning):
        pass

    with testing.assert_warns(UserWarning):  # subclasses count
        warnings.warn('x', RuntimeWarning)
        warnings.warn('y', MyWarning)
    with pytest.raises(AssertionError, match=r'DeprecationWarning not issued \(issued: none\)'):
        with testing.assert_warns(DeprecationWarning):
            pass
    with pytest.raises(AssertionError, match='issued: UserWarning'):
        with testing.assert_warns(DeprecationWarning):
            warnings.warn('z')


class _Target:
    @staticmethod
    def double(x):
        return 2 * x


def test_patch_wraps_the_original():
    with testing.patch(f'{__name__}._Target.double') as mock:
        assert _Target.double(3) == 6
    mock.assert_called_once_with(3)
    assert not hasattr(_Target.double, 'assert_called_once_with')


def test_without_requires_is_the_opposite():
    def f():
        return 1

    assert testing.without_requires('numpy<1.0')(f) is f
    assert testing.without_requires('numpy', 'no-such-distribution-xyz')(f) is f
    skipped = testing.without_requires('numpy')(f)
    assert [m.name for m in skipped.pytestmark] == ['skip']

    class TestU(unittest.TestCase):
        def test_a(self):
            pass

    testing.without_requires('numpy')(TestU)
    result = unittest.TestResult()
    unittest.defaultTestLoader.loadTestsFromTestCase(TestU).run(result)
    assert len(result.skipped) == 1
