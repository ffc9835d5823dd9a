import unittest

import pytest

from chainer.testing import condition

pytest_plugins = ['pytester']


def _flaky(failures_before_success, calls):
    # A test body that fails the first ``failures_before_success`` times it runs.
    def body(self):
        calls.append(1)
        if len(calls) <= failures_before_success:
            raise AssertionError(f'failure {len(calls)}')
    return body


class _Plain:
    pass


def test_retry_stops_at_first_success():
    calls = []
    condition.retry(5)(_flaky(2, calls))(_Plain())
    assert len(calls) == 3


def test_retry_fails_after_all_attempts():
    calls = []
    with pytest.raises(AssertionError, match=r'succeeded in 0 of 3 attempts') as info:
        condition.retry(3)(_flaky(10, calls))(_Plain())
    assert len(calls) == 3
    assert 'failure 1' in str(info.value)
    assert isinstance(info.value.__cause__, AssertionError)


def test_repeat_runs_every_time():
    calls = []
    condition.repeat(4)(_flaky(0, calls))(_Plain())
    assert len(calls) == 4


def test_repeat_stops_at_first_failure():
    calls = []
    with pytest.raises(AssertionError):
        condition.repeat(4)(_flaky(1, calls))(_Plain())
    assert len(calls) == 1


def test_success_at_least():
    calls = []
    condition.repeat_with_success_at_least(5, 2)(_flaky(2, calls))(_Plain())
    assert len(calls) == 4  # two failures, then two successes
    calls = []
    with pytest.raises(AssertionError, match='at least 3 of 5'):
        condition.repeat_with_success_at_least(5, 3)(_flaky(3, calls))(_Plain())
    assert len(calls) == 3  # after three failures three successes are out of reach


def test_skip_is_not_retried():
    calls = []

    def body(self):
        calls.append(1)
        raise unittest.SkipTest('no')

    with pytest.raises(unittest.SkipTest):
        condition.retry(3)(body)(_Plain())
    assert len(calls) == 1


def test_pytest_fail_counts_as_failure():
    calls = []

    def body(self):
        calls.append(1)
        if len(calls) == 1:
            pytest.fail('first')

    condition.retry(2)(body)(_Plain())
    assert len(calls) == 2


def test_bad_arguments():
    with pytest.raises(ValueError):
        condition.repeat_with_success_at_least(0, 0)
    with pytest.raises(ValueError):
        condition.repeat_with_success_at_least(2, 3)


def test_unittest_fixture_is_rebuilt_between_attempts():
    log = []

    class TestFlaky(unittest.TestCase):
        def setUp(self):
            log.append('setUp')
            self.value = log.count('setUp')

        def tearDown(self):
            log.append('tearDown')

        @condition.retry(3)
        def test_it(self):
            log.append(f'test {self.value}')
            assert self.value == 2

    result = unittest.TestResult()
    TestFlaky('test_it').run(result)
    assert result.wasSuccessful()
    assert log == ['setUp', 'test 1', 'tearDown', 'setUp', 'test 2', 'tearDown']


def test_under_pytest_with_fixtures(pytester):
    pytester.makepyfile(test_cond='''
import unittest

from chainer.testing import condition

CALLS = []


class TestPlain:
    def setup_method(self, method):
        self.fresh = True

    @condition.retry(3)
    def test_flaky(self, tmp_path):
        assert self.fresh
        self.fresh = False
        CALLS.append(tmp_path)
        assert len(CALLS) >= 2


class TestUnit(unittest.TestCase):
    @condition.repeat(3)
    def test_always(self):
        CALLS.append(None)

    @condition.repeat_with_success_at_least(4, 4)
    def test_fails(self):
        CALLS.append(None)
        assert len(CALLS) < 6
''')
    passed, skipped, failed = pytester.inline_run('-p', 'no:cacheprovider').listoutcomes()
    assert sorted(r.nodeid for r in passed if r.when == 'call') == [
        'test_cond.py::TestPlain::test_flaky', 'test_cond.py::TestUnit::test_always']
    assert [r.nodeid for r in failed] == ['test_cond.py::TestUnit::test_fails']


def test_quiet_test_runner(capsys):
    class TestT(unittest.TestCase):
        def test_ok(self):
            pass

        def test_bad(self):
            raise AssertionError('bad')

    result = condition.QuietTestRunner().run(
        unittest.defaultTestLoader.loadTestsFromTestCase(TestT))
    assert result.testsRun == 2 and len(result.failures) == 1
    assert capsys.readouterr() == ('', '')


def test_zero_required_successes_still_run_once():
    calls = []

    class TestZ(unittest.TestCase):
        @condition.repeat_with_success_at_least(5, 0)
        def test_it(self):
            calls.append(1)
            self.fail('always')

    TestZ('test_it').test_it()
    assert calls == [1]


def test_failure_report_has_counts_and_first_traceback():
    class TestF(unittest.TestCase):
        @condition.repeat_with_success_at_least(3, 2)
        def test_it(self):
            raise ValueError('the first problem')

    with pytest.raises(AssertionError) as info:
        TestF('test_it').test_it()
    text = str(info.value)
    assert 'Fail: 2, Success: 0' in text
    assert 'The first error message:' in text and 'Traceback' in text
    assert 'ValueError: the first problem' in text
