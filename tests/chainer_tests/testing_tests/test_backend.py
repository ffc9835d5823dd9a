import importlib.util
import unittest

import numpy
import pytest

import chainer
from chainer import testing

pytest_plugins = ['pytester']

HAS_CUPY = importlib.util.find_spec('cupy') is not None


def test_defaults():
    config = testing.BackendConfig({})
    assert config.use_cuda is False
    assert config.cuda_device is None
    assert config.use_cudnn == 'never'
    assert config.use_ideep == 'never'
    assert config.use_chainerx is False
    assert config.cudnn_deterministic is False
    assert config.autotune is False
    assert config.cudnn_fast_batch_normalization is False
    assert config.xp is numpy
    assert config.get_pytest_marks() == []
    assert config.skip_reason() is None
    assert config.get_func_str() == 'numpy'


def test_cuda_device_defaults_to_zero():
    config = testing.BackendConfig({'use_cuda': True})
    assert config.cuda_device == 0
    assert config.get_func_str() == 'cupy_0'
    assert testing.BackendConfig({'use_cuda': True, 'cuda_device': 1}).get_func_str() == 'cupy_1'


def test_bad_params():
    with pytest.raises(TypeError):
        testing.BackendConfig([('use_cuda', True)])
    with pytest.raises(ValueError, match='use_gpu'):
        testing.BackendConfig({'use_gpu': True})
    with pytest.raises(ValueError, match='use_cudnn'):
        testing.BackendConfig({'use_cudnn': True})


def test_repr():
    text = repr(testing.BackendConfig({'use_cuda': True, 'use_cudnn': 'always'}))
    assert text.startswith('<BackendConfig ')
    assert "use_cuda=True" in text and "cuda_device=0" in text
    assert "use_cudnn='always'" in text


def test_numpy_device_and_get_array():
    pytest.importorskip('chainer.backend')
    config = testing.BackendConfig({})
    assert config.device.xp is numpy
    x = numpy.arange(3.)
    y = config.get_array(x)
    assert isinstance(y, numpy.ndarray)
    numpy.testing.assert_array_equal(y, x)


def test_using_config_sets_chainer_config():
    config = testing.BackendConfig({
        'use_cudnn': 'always', 'cudnn_deterministic': True, 'autotune': True,
        'use_ideep': 'auto', 'cudnn_fast_batch_normalization': True})
    before = getattr(chainer.config, 'autotune', 'unset')
    with config.using_config():
        assert chainer.config.use_cudnn == 'always'
        assert chainer.config.cudnn_deterministic is True
        assert chainer.config.autotune is True
        assert chainer.config.use_ideep == 'auto'
        assert chainer.config.cudnn_fast_batch_normalization is True
    assert getattr(chainer.config, 'autotune', 'unset') == before
    with config as entered:
        assert entered is config
        assert chainer.config.use_cudnn == 'always'
    assert getattr(chainer.config, 'autotune', 'unset') == before


def test_pytest_marks():
    names = [m.name for m in testing.BackendConfig(
        {'use_cuda': True, 'use_cudnn': 'always'}).get_pytest_marks()]
    assert names == ['gpu', 'cudnn', 'skipif']
    marks = testing.BackendConfig({'use_cuda': True, 'cuda_device': 1}).get_pytest_marks()
    assert [m.name for m in marks] == ['gpu', 'multi_gpu', 'skipif']
    assert marks[1].args == (2,)
    marks = testing.BackendConfig({'use_chainerx': True}).get_pytest_marks()
    assert [m.name for m in marks] == ['chainerx', 'skip']
    assert 'ChainerX' in marks[1].kwargs['reason']
    marks = testing.BackendConfig({'use_ideep': 'always'}).get_pytest_marks()
    assert [m.name for m in marks] == ['ideep', 'skip']
    assert 'iDeep' in marks[1].kwargs['reason']


@pytest.mark.skipif(HAS_CUPY, reason='checks the behaviour without CuPy')
def test_cuda_skip_reason_without_cupy():
    assert testing.BackendConfig({'use_cuda': True}).skip_reason() == 'CuPy is not available'


def test_inject_generates_methods():
    class TestX(unittest.TestCase):
        def test_a(self, backend_config):
            pass

        def test_b(self, backend_config):
            pass

        def helper(self):
            pass

    params = [{}, {'use_cuda': True}, {'use_chainerx': True, 'chainerx_device': 'cuda:1'}]
    assert testing.inject_backend_tests(['test_a'], params)(TestX) is TestX
    names = sorted(n for n in vars(TestX) if n.startswith('test'))
    assert names == [
        'test_a__0_numpy', 'test_a__1_cupy_0', 'test_a__2_chainerx_cuda_1', 'test_b']
    marks = [m.name for m in TestX.test_a__1_cupy_0.pytestmark]
    assert marks == ['gpu', 'skipif']


def test_inject_all_and_inherited_methods():
    class Base:
        def test_forward(self, backend_config):
            return backend_config

    class TestY(Base):
        pass

    testing.inject_backend_tests(None, [{}, {'use_ideep': 'always'}])(TestY)
    assert TestY.test_forward is None
    assert Base.test_forward is not None
    config = TestY().test_forward__0_numpy()
    assert isinstance(config, testing.BackendConfig) and config.xp is numpy
    with pytest.raises(unittest.SkipTest, match='iDeep'):
        TestY().test_forward__1_ideep()


def test_inject_requires_backend_config_argument():
    class TestZ:
        def test_a(self):
            pass

    with pytest.raises(TypeError, match='backend_config'):
        testing.inject_backend_tests(None, [{}])(TestZ)


def test_inject_rejects_bad_arguments():
    with pytest.raises(TypeError):
        testing.inject_backend_tests(None, {})
    with pytest.raises(ValueError):
        testing.inject_backend_tests(None, [{'no_such_option': 1}])


RUN_SOURCE = '''
import unittest

import numpy

from chainer import testing

BACKENDS = [{}] + testing.product({'use_cuda': [True], 'use_cudnn': ['never', 'always']}) + [
    {'use_chainerx': True, 'chainerx_device': 'native:0'}, {'use_ideep': 'always'}]


@testing.parameterize({'n': 1}, {'n': 2})
@testing.inject_backend_tests(None, BACKENDS)
class TestInner(unittest.TestCase):
    def test_fw(self, backend_config):
        assert backend_config.xp.__name__ in ('numpy', 'cupy')
        assert float(backend_config.get_array(numpy.ones(self.n)).sum()) == self.n


@testing.inject_backend_tests(['test_fw'], [{}, {'use_cuda': True}])
@testing.parameterize({'n': 3})
class TestOuter:
    def test_fw(self, backend_config, tmp_path):
        assert tmp_path.exists()
        assert self.n == 3

    def test_other(self):
        pass


class _Library:
    # Out of the module namespace, as chainer.testing.FunctionTestCase is.
    class Base(unittest.TestCase):
        def test_forward(self, backend_config):
            assert backend_config.xp is numpy


@testing.inject_backend_tests(None, [{}])
class TestInherited(_Library.Base):
    pass
'''


def test_injected_methods_run_and_skip(pytester):
    pytester.makepyfile(test_inj=RUN_SOURCE)
    result = pytester.inline_run('-p', 'no:cacheprovider', '-rs')
    passed, skipped, failed = result.listoutcomes()
    assert not failed
    # With CuPy installed the CUDA variants run or skip depending on the devices present.
    passed_ids = sorted(r.nodeid.split('::', 1)[1] for r in passed
                        if r.when == 'call' and 'cupy' not in r.nodeid)
    assert passed_ids == sorted([
        'TestInner_param_0_{n=1}::test_fw__0_numpy',
        'TestInner_param_1_{n=2}::test_fw__0_numpy',
        'TestOuter_param_0_{n=3}::test_fw__0_numpy',
        'TestOuter_param_0_{n=3}::test_other',
        'TestInherited::test_forward__0_numpy',
    ])
    reasons = {}
    for r in skipped:
        reasons[r.nodeid.split('::', 1)[1]] = r.longrepr[2]
    if not HAS_CUPY:
        assert reasons['TestInner_param_0_{n=1}::test_fw__1_cupy_0'].endswith(
            'CuPy is not available')
        assert reasons['TestOuter_param_0_{n=3}::test_fw__1_cupy_0'].endswith(
            'CuPy is not available')
    assert 'ChainerX is not available' in reasons[
        'TestInner_param_1_{n=2}::test_fw__3_chainerx_native_0']
    assert 'iDeep is not available' in reasons['TestInner_param_1_{n=2}::test_fw__4_ideep']
    assert len([r for r in skipped if 'cupy' not in r.nodeid]) == 4
