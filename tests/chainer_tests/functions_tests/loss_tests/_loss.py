"""Shared pieces of the loss tests: the backend list and a bad-reduce check."""
import pytest

BACKENDS = [{}, {'use_cuda': True}]


def check_bad_reduce(call, func_name):
    """``call(reduce)`` with an unknown reduce must raise ValueError naming the function."""
    with pytest.raises(ValueError, match=f"{func_name}.*'reduce'.*'bogus'"):
        call('bogus')
