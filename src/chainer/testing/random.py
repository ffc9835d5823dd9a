"""``fix_random``: deterministic random numbers inside tests."""
import functools
import inspect
import os
import random
import sys
import unittest

import numpy

from chainer.testing import _bundle

# NumPy's generator gets the seed Chainer's fix_random uses, so that tests written against
# Chainer draw the same inputs here.
_DEFAULT_SEED = 100

# Per-instance flag: set when the fixture (setUp / setup_method) has already seeded the
# generators, so the test method continues that stream instead of restarting it (a
# restart would hand the test the very numbers that setUp drew for its inputs).
_SAVED_ATTR = '_chainer_fix_random_saved_state'


# How many seedings are in force (each _seed is undone by one _restore_state): what
# generate_seed checks.
_depth = 0
# States saved by do_setup, restored by do_teardown.
_manual_states = []


def _save_state():
    return random.getstate(), numpy.random.get_state()


def _restore_state(state):
    global _depth
    random.setstate(state[0])
    numpy.random.set_state(state[1])
    _depth -= 1


def _seed(seed):
    global _depth
    _depth += 1
    if os.environ.get('CHAINER_TEST_RANDOM_NONDETERMINISTIC', '0') == '1':
        seed = None     # documented switch: fresh entropy even under fix_random
    random.seed(seed)
    numpy.random.seed(seed)
    cupy = sys.modules.get('cupy')
    if cupy is not None:  # only when the test session already uses CuPy
        cupy.random.seed(seed)


def do_setup(deterministic=True):
    """Saves the random generators' states and seeds them (what ``fix_random`` does).

    Args:
        deterministic (bool): Seed with a fixed value (``True``) or fresh entropy.
    """
    _manual_states.append(_save_state())
    _seed(_DEFAULT_SEED if deterministic else None)


def do_teardown():
    """Restores the states saved by the matching :func:`do_setup`."""
    if not _manual_states:
        raise RuntimeError('testing.random.do_teardown called without do_setup')
    _restore_state(_manual_states.pop())


def generate_seed():
    """Returns a seed for another generator (e.g. a ``numpy.random.RandomState``).

    The seed is drawn from NumPy's global generator, so it is reproducible inside a test
    decorated with :func:`fix_random`; it may only be called there (or between
    :func:`do_setup` and :func:`do_teardown`).
    """
    if _depth <= 0:
        raise AssertionError('testing.generate_seed requires fixed random states: call it '
                             'inside a test decorated with testing.fix_random()')
    return int(numpy.random.randint(0, 2 ** 31 - 1))


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


def _with_same_arguments(func, run):
    # pytest passes ``method`` to setup_method/teardown_method only when their code takes
    # an argument besides self, so a wrapper must take exactly what the original takes.
    if getattr(getattr(func, '__code__', None), 'co_argcount', 1) >= 2:
        def wrapper(self, method):
            return run(self, method)
    else:
        def wrapper(self):
            return run(self)
    return functools.wraps(func)(wrapper)


def _wrap_setup(func, seed):
    def run(self, *args):
        state = _save_state()
        _seed(seed)
        try:
            result = func(self, *args)
        except BaseException:
            _restore_state(state)
            raise
        # The test method continues this stream; the teardown (or, without one, the
        # test method) restores the state when it finishes.
        self.__dict__[_SAVED_ATTR] = state
        return result

    return _with_same_arguments(func, run)


def _wrap_teardown(func):
    def run(self, *args):
        try:
            return func(self, *args)
        finally:
            state = self.__dict__.pop(_SAVED_ATTR, None)
            if state is not None:
                _restore_state(state)

    return _with_same_arguments(func, run)


def _wrap_test_method(func, seed, teardown_restores):
    @functools.wraps(func)
    def wrapper(self, *args, **kwargs):
        state = self.__dict__.get(_SAVED_ATTR)
        if state is not None:
            # Seeded in setup: continue that stream.
            if teardown_restores:
                return func(self, *args, **kwargs)
            del self.__dict__[_SAVED_ATTR]
        else:
            state = _save_state()
            _seed(seed)
        try:
            return func(self, *args, **kwargs)
        finally:
            _restore_state(state)

    return wrapper


def fix_random(seed=None, *, setup_method='setUp', teardown_method='tearDown'):
    """Makes the random numbers a test draws the same on every run.

    As a function or method decorator, seeds Python's ``random``, NumPy's global
    generator (and CuPy's, when loaded) before the call and restores their previous
    states after it. As a class decorator, seeds before the class's setup method and
    lets each test method continue the same stream; the states are restored after the
    teardown method (or after the test method when the class has no teardown). Do not
    apply it inside ``condition.retry``/``condition.repeat`` (that is, below them on a
    method): the retried attempts would all draw the same numbers, defeating the retry.

    Setting the environment variable ``CHAINER_TEST_RANDOM_NONDETERMINISTIC`` to ``1``
    seeds from fresh entropy instead, to shake out tests that pass only by luck.

    Args:
        seed (int): The seed (an extension of Chainer's interface). By default 100,
            Chainer's, so that a test draws the very numbers it drew on Chainer.
        setup_method (str): Name of the setup method of a decorated class. With the
            default, plain (pytest) classes use ``setup_method``.
        teardown_method (str): Name of its teardown method. With the default, plain
            classes use ``teardown_method``.

    Returns:
        A decorator for test classes, test methods or functions.
    """

    if seed is None:
        seed = _DEFAULT_SEED

    def decorator(obj):
        if not isinstance(obj, type):
            return _wrap_function(obj, seed)
        cls = obj
        setup_names = [setup_method]
        teardown_names = [teardown_method]
        if not issubclass(cls, unittest.TestCase):
            # pytest's names, unless the caller named the methods.
            if setup_method == 'setUp':
                setup_names.append('setup_method')
            if teardown_method == 'tearDown':
                teardown_names.append('teardown_method')
        for name in setup_names:
            fixture = getattr(cls, name, None)
            if fixture is not None:
                setattr(cls, name, _wrap_setup(fixture, seed))
        teardown_restores = False
        for name in teardown_names:
            fixture = getattr(cls, name, None)
            if fixture is not None:
                setattr(cls, name, _wrap_teardown(fixture))
                teardown_restores = True
        for name in dir(cls):
            if not name.startswith('test'):
                continue
            raw = inspect.getattr_static(cls, name)
            if inspect.isfunction(raw):
                setattr(cls, name, _wrap_test_method(raw, seed, teardown_restores))
        # Classes generated by parameterize/inject_backend_tests below this decorator
        # define their own test methods (wrapping the originals): wrap those too.
        for generated in _bundle.generated_classes(cls):
            if generated is cls:
                continue
            for name, raw in list(vars(generated).items()):
                if name.startswith('test') and inspect.isfunction(raw):
                    setattr(generated, name, _wrap_test_method(raw, seed, teardown_restores))
        return cls

    return decorator
