import pytest

import chainer
from chainer.utils import cache


class _Counted:
    calls = 0

    @cache.cached_property
    def value(self):
        """The doc of value."""
        type(self).calls += 1
        return type(self).calls


def test_computed_once_per_backprop_mode():
    _Counted.calls = 0
    obj = _Counted()
    assert obj.value == 1
    assert obj.value == 1
    with chainer.no_backprop_mode():
        assert obj.value == 2
        assert obj.value == 2
    assert obj.value == 1
    assert _Counted.calls == 2


def test_cache_is_per_instance():
    _Counted.calls = 0
    a, b = _Counted(), _Counted()
    assert (a.value, b.value, a.value) == (1, 2, 1)


def test_descriptor_on_the_class_and_wrapping():
    prop = _Counted.value
    assert isinstance(prop, cache.cached_property)
    assert prop.__doc__ == 'The doc of value.'
    assert prop.__name__ == 'value'


def test_read_only():
    obj = _Counted()
    with pytest.raises(AttributeError, match='value'):
        obj.value = 3
    with pytest.raises(AttributeError, match='value'):
        del obj.value


def test_caches_a_graph():
    class C:
        def __init__(self, x):
            self.x = x

        @cache.cached_property
        def y(self):
            return chainer.functions.sigmoid(self.x)

    import numpy
    obj = C(chainer.Variable(numpy.array([1.0, 2.0], numpy.float32)))
    assert obj.y is obj.y
    assert obj.y.creator is not None
    with chainer.no_backprop_mode():
        assert obj.y.creator is None
