"""``fix_random``: deterministic random numbers inside tests."""
import functools
import inspect
import random
import sys
import unittest

import numpy

# Per-instance flag: set when the fixture (setUp / setup_method) has already seeded the
# generators, so the test method continues that stream instead of restarting it (a
# restart would hand the test the very numbers that setUp drew for its inputs).
_SAVED_ATTR = '_chainer_fix_random_saved_state'


def _save_state():
    return random.getstate(), numpy.random.get_state()


def _restore_state(state):
    random.setstate(state[0])
    numpy.random.set_state(state[1])


def _seed(seed):
    random.seed(seed)
    numpy.random.seed(seed)
    cupy = sys.modules.get('cupy')
    if cupy is not None:  # only when the test session already uses CuPy
        cupy.random.seed(seed)


def _wrap_function(func, seed):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        state = _save_state()
        _seed(seed)
        try:
            return func(*args, **kwargs)
        finally:
            _restore_state(state)

    return wrapper


def _wrap_fixture(func, seed):
    def run(self, *args):
        state = _save_state()
        _seed(seed)
        try:
            result = func(self, *args)
        except BaseException:
            _restore_state(state)
            raise
        # The matching test method restores the state when it finishes.
        self.__dict__[_SAVED_ATTR] = state
        return result

    # pytest passes ``method`` to setup_method only when its code takes an argument
    # besides self, so the wrapper must take exactly what the original takes.
    if getattr(getattr(func, '__code__', None), 'co_argcount', 1) >= 2:
        def wrapper(self, method):
            return run(self, method)
    else:
        def wrapper(self):
            return run(self)
    return functools.wraps(func)(wrapper)


def _wrap_test_method(func, seed):
    @functools.wraps(func)
    def wrapper(self, *args, **kwargs):
        state = self.__dict__.pop(_SAVED_ATTR, None)
        if state is None:
            state = _save_state()
            _seed(seed)
        try:
            return func(self, *args, **kwargs)
        finally:
            _restore_state(state)

    return wrapper


def fix_random(seed=0):
    """Makes the random numbers a test draws the same on every run.

    As a function or method decorator, seeds Python's ``random``, NumPy's global
    generator (and CuPy's, when loaded) before the call and restores their previous
    states after it. As a class decorator, seeds before ``setUp`` (or ``setup_method``)
    and lets the test method continue the same stream, restoring the states when the
    test method ends. Do not apply it inside ``condition.retry``/``condition.repeat``
    (that is, below them on a method): the retried attempts would all draw the same
    numbers, defeating the retry.

    Args:
        seed (int): The seed.

    Returns:
        A decorator for test classes, test methods or functions.
    """

    def decorator(obj):
        if not isinstance(obj, type):
            return _wrap_function(obj, seed)
        cls = obj
        is_unittest = issubclass(cls, unittest.TestCase)
        for name in ('setUp',) if is_unittest else ('setup_method',):
            fixture = getattr(cls, name, None)
            if fixture is not None:
                setattr(cls, name, _wrap_fixture(fixture, seed))
        for name in dir(cls):
            if not name.startswith('test'):
                continue
            raw = inspect.getattr_static(cls, name)
            if inspect.isfunction(raw):
                setattr(cls, name, _wrap_test_method(raw, seed))
        return cls

    return decorator
