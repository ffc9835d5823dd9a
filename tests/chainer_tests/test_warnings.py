import warnings

import pytest

import chainer.warnings


def test_performance_warning():
    assert issubclass(chainer.warnings.PerformanceWarning, RuntimeWarning)
    with pytest.warns(chainer.warnings.PerformanceWarning, match='slow'):
        warnings.warn('slow path', chainer.warnings.PerformanceWarning)


def test_standard_warnings_module_is_untouched():
    # chainer.warnings must not shadow the standard library inside chainer.
    assert warnings.warn is not None
    assert not hasattr(chainer.warnings, 'warn')
