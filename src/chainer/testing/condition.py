"""Decorators that run a (possibly flaky) test method several times."""
import functools
import inspect
import traceback
import unittest

import pytest


def _reset_fixture(instance, method):
    # Gives each further attempt a fresh fixture: setUp usually draws the random inputs,
    # and retrying on the very inputs that failed would prove nothing.
    if isinstance(instance, unittest.TestCase):
        instance.tearDown()
        instance.setUp()
        return
    for name in ('teardown_method', 'setup_method'):
        fixture = getattr(instance, name, None)
        if fixture is not None:
            # Like pytest, pass the method only to a fixture that takes an argument.
            if inspect.signature(fixture).parameters:
                fixture(method)
            else:
                fixture()


def repeat_with_success_at_least(times, min_success):
    """Runs a test method up to ``times`` times; it passes after ``min_success`` successes.

    Attempts stop as soon as the outcome is decided. Between attempts the fixture is
    rebuilt (``tearDown``/``setUp`` for ``unittest.TestCase``, ``teardown_method``/
    ``setup_method`` for plain classes). A skip in any attempt skips the test.

    Args:
        times (int): Maximum number of attempts.
        min_success (int): Number of successful attempts required.

    Returns:
        A decorator for test methods.
    """
    if times < 1:
        raise ValueError(f'times must be positive, got {times}')
    if not 0 <= min_success <= times:
        raise ValueError(f'min_success must be in [0, {times}], got {min_success}')

    def decorator(method):
        @functools.wraps(method)
        def wrapper(self, *args, **kwargs):
            successes = failures = 0
            first_error = None
            for attempt in range(times):
                # At least one attempt, even when zero successes are required.
                if attempt > 0 and (successes >= min_success
                                    or times - failures < min_success):
                    break
                if attempt > 0:
                    _reset_fixture(self, method)
                try:
                    method(self, *args, **kwargs)
                except unittest.SkipTest:
                    raise
                # pytest.fail() raises a BaseException; it is a failed attempt all the same.
                except (Exception, pytest.fail.Exception) as e:
                    failures += 1
                    if first_error is None:
                        first_error = e
                else:
                    successes += 1
            if successes < min_success:
                trace = ''.join(traceback.format_exception(first_error))
                raise AssertionError(
                    f'{method.__name__} succeeded in {successes} of {successes + failures} '
                    f'attempts; at least {min_success} of {times} must succeed.\n'
                    f'Fail: {failures}, Success: {successes}\n\n'
                    f'The first error message:\n{trace}'
                ) from first_error

        return wrapper

    return decorator


def repeat(times):
    """Runs a test method ``times`` times and requires every attempt to succeed."""
    return repeat_with_success_at_least(times, times)


def retry(times):
    """Runs a test method up to ``times`` times until one attempt succeeds."""
    return repeat_with_success_at_least(times, 1)


class QuietTestRunner:
    """Runs a ``unittest`` suite without printing anything and returns its result."""

    def run(self, suite):
        result = unittest.TestResult()
        suite(result)
        return result
