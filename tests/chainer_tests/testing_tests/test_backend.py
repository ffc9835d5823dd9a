import importlib.util
import sys
import types
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
    assert config.get_func_str() == NUMPY


NUMPY = ('use_chainerx_false__chainerx_device_None__use_cuda_false__cuda_device_None__'
         'use_cudnn_never__cudnn_deterministic_false__autotune_false__'
         'cudnn_fast_batch_normalization_false__use_ideep_never')
CUPY0 = NUMPY.replace('use_cuda_false__cuda_device_None', 'use_cuda_true__cuda_device_0')


def test_cuda_device_defaults_to_zero():
    config = testing.BackendConfig({'use_cuda': True})
    assert config.cuda_device == 0
    assert config.get_func_str() == CUPY0
    assert testing.BackendConfig({'use_cuda': True, 'cuda_device': 1}).get_func_str() == (
        CUPY0.replace('cuda_device_0', 'cuda_device_1'))
    config = testing.BackendConfig({'use_chainerx': True, 'chainerx_device': 'native:0'})
    assert config.get_func_str().startswith(
        'use_chainerx_true__chainerx_device_native:0__use_cuda_false__')


def test_bad_params():
    with pytest.raises(TypeError):
        testing.BackendConfig([('use_cuda', True)])
    with pytest.raises(ValueError, match='use_gpu'):
        testing.BackendConfig({'use_gpu': True})

def test_values_are_taken_as_given():
    # As in Chainer: no check on the values, which end up in class names and config.
    config = testing.BackendConfig({'use_cudnn': 'auto', 'use_ideep': 'auto'})
    assert (config.use_cudnn, config.use_ideep) == ('auto', 'auto')
    assert config.get_func_str().endswith('use_cudnn_auto__cudnn_deterministic_false__'
                                          'autotune_false__cudnn_fast_batch_normalization_'
                                          'false__use_ideep_auto')


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
    marks = testing.BackendConfig(
        {'use_chainerx': True, 'chainerx_device': 'native:0'}).get_pytest_marks()
    assert [m.name for m in marks] == ['chainerx', 'skip']
    assert 'ChainerX' in marks[1].kwargs['reason']
    marks = testing.BackendConfig(
        {'use_chainerx': True, 'chainerx_device': 'cuda:1'}).get_pytest_marks()
    assert [m.name for m in marks] == ['chainerx', 'gpu', 'multi_gpu', 'skip']
    marks = testing.BackendConfig({'use_ideep': 'always'}).get_pytest_marks()
    assert [m.name for m in marks] == ['ideep', 'skip']
    assert 'iDeep' in marks[1].kwargs['reason']
    # 'auto' falls back to NumPy here, so it runs; it keeps Chainer's marker.
    marks = testing.BackendConfig({'use_ideep': 'auto'}).get_pytest_marks()
    assert [m.name for m in marks] == ['ideep']


@pytest.mark.skipif(HAS_CUPY, reason='checks the behaviour without CuPy')
def test_cuda_skip_reason_without_cupy():
    assert testing.BackendConfig({'use_cuda': True}).skip_reason() == 'CuPy is not available'


@pytest.fixture
def module():
    mod = types.ModuleType('_chainer_backend_fake_module')
    sys.modules[mod.__name__] = mod
    yield mod
    del sys.modules[mod.__name__]


def _define(module, name, base=object, **attrs):
    return type(name, (base,), {'__module__': module.__name__, **attrs})


def _test_classes(module):
    return {k: v for k, v in vars(module).items()
            if isinstance(v, type) and v.__dict__.get('__test__', True)}


def test_inject_generates_one_class_per_config(module):
    TestX = _define(module, 'TestX', unittest.TestCase,
                    test_a=lambda self, backend_config: backend_config,
                    test_b=lambda self, backend_config: None, helper=lambda self: None)
    params = [{}, {'use_cuda': True}]
    result = testing.inject_backend_tests(None, params)(TestX)
    assert result is TestX and TestX.__test__ is False
    classes = _test_classes(module)
    assert sorted(classes) == sorted([f'TestX_{CUPY0}', f'TestX_{NUMPY}'])
    cpu = classes[f'TestX_{NUMPY}']
    assert issubclass(cpu, TestX)
    config = cpu('test_a').test_a()
    assert isinstance(config, testing.BackendConfig) and config.xp is numpy
    gpu = classes[f'TestX_{CUPY0}']
    assert [m.name for m in gpu.test_a.pytestmark] == ['gpu', 'skipif']


def test_inject_listed_methods_keep_the_others_under_the_base_name(module):
    TestX = _define(module, 'TestX', unittest.TestCase,
                    test_a=lambda self, backend_config: backend_config,
                    test_b=lambda self: 'plain')
    result = testing.inject_backend_tests(['test_a'], [{}])(TestX)
    classes = _test_classes(module)
    assert sorted(classes) == ['TestX', f'TestX_{NUMPY}']
    # What the class statement binds is the class holding the methods not injected.
    assert result is classes['TestX'] and result is not TestX
    assert result.test_a is None and result('test_b').test_b() == 'plain'
    injected = classes[f'TestX_{NUMPY}']
    assert injected.test_b is None
    assert isinstance(injected('test_a').test_a(), testing.BackendConfig)


def test_inject_inherited_methods_and_skips(module):
    class Base:
        def test_forward(self, backend_config):
            return backend_config

    TestY = _define(module, 'TestY', Base)
    testing.inject_backend_tests(None, [{}, {'use_ideep': 'always'}])(TestY)
    classes = _test_classes(module)
    assert isinstance(classes[f'TestY_{NUMPY}']().test_forward(), testing.BackendConfig)
    ideep = [c for k, c in classes.items() if k.endswith('use_ideep_always')][0]
    with pytest.raises(unittest.SkipTest, match='iDeep'):
        ideep().test_forward()


def test_inject_method_without_config_argument_fails_when_run(module):
    TestZ = _define(module, 'TestZ', test_a=lambda self: None)
    testing.inject_backend_tests(None, [{}])(TestZ)
    with pytest.raises(TypeError):
        _test_classes(module)[f'TestZ_{NUMPY}']().test_a()


def test_inject_stacks_with_itself(module):
    TestW = _define(module, 'TestW', test_a=lambda self, c1, c2: (c1, c2))
    inner = testing.inject_backend_tests(None, [{'autotune': True}])
    outer = testing.inject_backend_tests(None, [{}, {'use_cudnn': 'always'}])
    outer(inner(TestW))
    classes = _test_classes(module)
    inner_str = NUMPY.replace('autotune_false', 'autotune_true')
    assert sorted(classes) == sorted([
        f'TestW_{inner_str}_{NUMPY}',
        f'TestW_{inner_str}_{NUMPY.replace("use_cudnn_never", "use_cudnn_always")}'])
    first, second = classes[f'TestW_{inner_str}_{NUMPY}']().test_a()
    # The inner decorator's configuration comes first: the outer wrapper passes its own
    # after the one the inner wrapper supplies.
    assert first.autotune is True and second.autotune is False


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

CUDNN = CUPY0.replace('use_cudnn_never', 'use_cudnn_always')
CHX = NUMPY.replace('use_chainerx_false__chainerx_device_None',
                    'use_chainerx_true__chainerx_device_native:0')
IDEEP = NUMPY.replace('use_ideep_never', 'use_ideep_always')


def test_injected_methods_run_and_skip(pytester):
    pytester.makepyfile(test_inj=RUN_SOURCE)
    result = pytester.inline_run('-p', 'no:cacheprovider', '-rs')
    passed, skipped, failed = result.listoutcomes()
    assert not failed
    # With CuPy installed the CUDA variants run or skip depending on the devices present.
    passed_ids = sorted(r.nodeid.split('::', 1)[1] for r in passed
                        if r.when == 'call' and 'use_cuda_true' not in r.nodeid)
    assert passed_ids == sorted([
        f'TestInner_{NUMPY}_param_0_{{n=1}}::test_fw',
        f'TestInner_{NUMPY}_param_1_{{n=2}}::test_fw',
        f'TestOuter_param_0_{{n=3}}_{NUMPY}::test_fw',
        'TestOuter_param_0_{n=3}::test_other',
        f'TestInherited_{NUMPY}::test_forward',
    ])
    reasons = {}
    for r in skipped:
        reasons[r.nodeid.split('::', 1)[1]] = r.longrepr[2]
    if not HAS_CUPY:
        assert reasons[f'TestInner_{CUPY0}_param_0_{{n=1}}::test_fw'].endswith(
            'CuPy is not available')
        assert reasons[f'TestInner_{CUDNN}_param_1_{{n=2}}::test_fw'].endswith(
            'CuPy is not available')
        assert reasons[f'TestOuter_param_0_{{n=3}}_{CUPY0}::test_fw'].endswith(
            'CuPy is not available')
    assert 'ChainerX is not available' in reasons[f'TestInner_{CHX}_param_1_{{n=2}}::test_fw']
    assert 'iDeep is not available' in reasons[f'TestInner_{IDEEP}_param_0_{{n=1}}::test_fw']
    assert len([r for r in skipped if 'use_cuda_true' not in r.nodeid]) == 4
