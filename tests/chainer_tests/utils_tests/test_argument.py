import pytest

from chainer.utils import argument


def test_check_unexpected_kwargs():
    argument.check_unexpected_kwargs({'a': 1}, b='b is gone')
    with pytest.raises(ValueError, match='^train is gone$'):
        argument.check_unexpected_kwargs({'train': True, 'a': 1}, train='train is gone')


def test_parse_kwargs_returns_values_in_order_and_pops():
    kwargs = {'b': 2}
    assert argument.parse_kwargs(kwargs, ('a', 10), ('b', 20)) == (10, 2)
    assert kwargs == {}


def test_parse_kwargs_single_value_is_a_tuple():
    assert argument.parse_kwargs({}, ('a', None)) == (None,)
    assert argument.parse_kwargs({}) == ()


def test_parse_kwargs_unexpected_message_names_the_caller():
    def dropout(**kwargs):
        return argument.parse_kwargs(kwargs, ('ratio', 0.5))

    with pytest.raises(TypeError) as e:
        dropout(ratio=0.1, x=1)
    assert str(e.value) == "dropout() got unexpected keyword argument(s) 'x'"
    with pytest.raises(TypeError) as e:
        dropout(z=1, y=2)
    assert str(e.value) == "dropout() got unexpected keyword argument(s) 'y', 'z'"


def test_parse_kwargs_retired_names_raise_value_error():
    def f(**kwargs):
        return argument.parse_kwargs(
            kwargs, ('mask', None), train='train is not supported; use chainer.using_config')

    assert f(mask=3) == (3,)
    with pytest.raises(ValueError, match='use chainer.using_config'):
        f(train=False, other=1)


def test_assert_kwargs_empty():
    def g(**kwargs):
        argument.assert_kwargs_empty(kwargs)

    g()
    with pytest.raises(TypeError) as e:
        g(q=1)
    assert str(e.value) == "g() got unexpected keyword argument(s) 'q'"
