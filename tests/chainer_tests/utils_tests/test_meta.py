import abc
import warnings

import pytest

from chainer.utils import meta
from chainer import utils


def _base(**kwargs):
    class Base(meta.enable_final(**kwargs)):
        @meta.final
        def fixed(self):
            return 'base'

        @meta.final(action=DeprecationWarning)
        def old(self):
            return 'base'

        @meta.final(action=ValueError)
        def strict(self):
            return 'base'

        def free(self):
            return 'base'
    return Base


def test_exported_from_utils():
    assert utils.final is meta.final
    assert utils.enable_final is meta.enable_final


def test_overriding_a_final_method_raises():
    base = _base()
    with pytest.raises(TypeError, match="method 'fixed' is final"):
        class Sub(base):
            def fixed(self):
                pass
    with pytest.raises(ValueError, match="method 'strict' is final"):
        class Sub2(base):
            strict = None


def test_grandchildren_are_checked_too():
    base = _base()

    class Child(base):
        pass
    with pytest.raises(TypeError):
        class Grandchild(Child):
            def fixed(self):
                pass


def test_warning_action_warns_and_allows():
    base = _base()
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')

        class Sub(base):
            def old(self):
                return 'sub'
    assert [x.category for x in w] == [DeprecationWarning]
    assert "Overriding method 'old'" in str(w[0].message)
    assert w[0].filename == __file__
    assert Sub().old() == 'sub'


def test_other_methods_are_free():
    base = _base()

    class Sub(base):
        def free(self):
            return 'sub'
    assert Sub().free() == 'sub'
    assert Sub().fixed() == 'base'


def test_final_without_enable_final_has_no_effect():
    class Plain:
        @meta.final
        def f(self):
            pass

    class Sub(Plain):
        def f(self):
            pass


def test_meta_base_combines_metaclasses():
    base = _base(meta_base=abc.ABCMeta)
    assert isinstance(base, abc.ABCMeta)

    class WithAbc(base, abc.ABC):
        @abc.abstractmethod
        def g(self):
            pass
    with pytest.raises(TypeError):
        WithAbc()
    with pytest.raises(TypeError):
        class Sub(base):
            def fixed(self):
                pass


def test_base_classes():
    base = meta.enable_final(base=dict)
    assert issubclass(base, dict)


def test_bad_calls():
    with pytest.raises(AssertionError):
        meta.final(lambda self: None, action=TypeError)
    with pytest.raises(AssertionError):
        meta.final(3)
    with pytest.raises(TypeError):
        meta.final(actoin=TypeError)
