import random
import unittest

import numpy
import pytest

from chainer import testing

pytest_plugins = ['pytester']


def _draw():
    return random.random(), float(numpy.random.rand())


def test_function_decorator_fixes_and_restores():
    @testing.fix_random()
    def draw():
        return _draw()

    numpy.random.seed(123)
    random.seed(123)
    expected_after = _draw()
    numpy.random.seed(123)
    random.seed(123)
    first = draw()
    assert draw() == first
    assert _draw() == expected_after  # the outer streams were not disturbed


def test_seed_argument():
    a = testing.fix_random(seed=1)(_draw)()
    b = testing.fix_random(seed=2)(_draw)()
    assert a != b
    assert a == testing.fix_random(1)(_draw)()


def test_class_decorator_unittest():
    draws = []

    @testing.fix_random()
    class TestR(unittest.TestCase):
        def setUp(self):
            self.x = _draw()

        def test_a(self):
            draws.append((self.x, _draw()))

        def test_b(self):
            draws.append((self.x, _draw()))

    result = unittest.TestResult()
    unittest.defaultTestLoader.loadTestsFromTestCase(TestR).run(result)
    assert result.wasSuccessful()
    assert len(draws) == 2 and draws[0] == draws[1]
    setup_draw, test_draw = draws[0]
    # The test continues the stream started in setUp rather than replaying it.
    assert setup_draw != test_draw


def test_class_decorator_plain_class_and_parameterize(pytester):
    pytester.makepyfile(test_rand='''
import numpy
import pytest

from chainer import testing

SEEN = []


@testing.parameterize({'n': 2}, {'n': 3})
@testing.fix_random()
class TestPlain:
    def test_a(self):
        SEEN.append(numpy.random.rand())


@testing.fix_random()
@testing.inject_backend_tests(None, [{}])
class TestInjected:
    def setup_method(self, method):
        self.x = numpy.random.rand()

    def test_b(self, backend_config):
        SEEN.append(self.x)


def test_zz_check():
    assert SEEN[0] == SEEN[1] == SEEN[2]
''')
    result = pytester.inline_run('-p', 'no:cacheprovider')
    result.assertoutcome(passed=4)


def test_named_setup_and_teardown_methods():
    # Chainer's keyword-only arguments name the fixture methods of the class.
    log = []

    @testing.fix_random(setup_method='prepare', teardown_method='finish')
    class TestNamed:
        def prepare(self):
            log.append(('prepare', _draw()))

        def test_a(self):
            log.append(('test', _draw()))

        def finish(self):
            log.append(('finish', _draw()))

    random.seed(7)
    numpy.random.seed(7)
    outer = _draw()
    random.seed(7)
    numpy.random.seed(7)
    for _ in range(2):
        t = TestNamed()
        t.prepare()
        t.test_a()
        t.finish()
    assert log[:3] == log[3:]
    assert _draw() == outer     # restored after finish()


def test_nondeterministic_environment_variable(monkeypatch):
    monkeypatch.setenv('CHAINER_TEST_RANDOM_NONDETERMINISTIC', '1')
    draws = {testing.fix_random()(_draw)() for _ in range(3)}
    assert len(draws) == 3


def test_generate_seed_only_under_fixed_random():
    with pytest.raises(AssertionError, match='fix_random'):
        testing.generate_seed()

    @testing.fix_random()
    def draw():
        return testing.generate_seed(), testing.generate_seed()

    first = draw()
    assert first == draw()              # reproducible
    assert first[0] != first[1]         # and not one constant
    assert all(isinstance(s, int) and s >= 0 for s in first)


def test_do_setup_and_do_teardown():
    from chainer.testing import random as testing_random
    before = numpy.random.get_state()[1].copy()
    testing_random.do_setup()
    a = numpy.random.rand()
    seed = testing.generate_seed()
    testing_random.do_teardown()
    testing_random.do_setup()
    assert numpy.random.rand() == a and testing.generate_seed() == seed
    testing_random.do_teardown()
    numpy.testing.assert_array_equal(numpy.random.get_state()[1], before)
    with pytest.raises(RuntimeError):
        testing_random.do_teardown()
