import subprocess
import sys
import warnings

import numpy
import pytest

import chainer
from chainer import utils


@pytest.mark.parametrize('value', [1.5, 3, numpy.float32(2), numpy.int64(7), True])
def test_force_array_scalars(value):
    y = utils.force_array(value)
    assert isinstance(y, numpy.ndarray)
    assert y.ndim == 0
    assert y == value
    if isinstance(value, numpy.generic):
        assert y.dtype == value.dtype


def test_force_array_arrays_pass_through():
    x = numpy.arange(3.0)
    assert utils.force_array(x) is x
    z = numpy.array(2.0)
    assert utils.force_array(z) is z


def test_force_array_dtype():
    x = numpy.arange(3.0, dtype=numpy.float32)
    assert utils.force_array(x, numpy.float32) is x
    y = utils.force_array(x, numpy.float64)
    assert y.dtype == numpy.float64
    s = utils.force_array(numpy.float64(2), numpy.float16)
    assert s.dtype == numpy.float16 and s.ndim == 0


def test_force_array_after_reduction():
    # The reason it exists: NumPy reductions over 0-d results give scalars.
    y = utils.force_array(numpy.arange(3.0, dtype=numpy.float32).sum())
    assert isinstance(y, numpy.ndarray) and y.dtype == numpy.float32


def test_force_type():
    s = utils.force_type(numpy.dtype(numpy.float32), 1.5)
    assert type(s) is numpy.float32
    x = numpy.zeros(2, numpy.float32)
    assert utils.force_type(numpy.dtype(numpy.float32), x) is x
    assert utils.force_type(numpy.dtype(numpy.float64), x).dtype == numpy.float64


@pytest.mark.parametrize('shape, size', [((), 1), ((0,), 0), ((3,), 3), ((2, 3, 4), 24),
                                         ([2, 5], 10), ((numpy.int64(3), 2), 6)])
def test_size_of_shape(shape, size):
    for func in (utils.size_of_shape, utils.array.size_of_shape):
        got = func(shape)
        assert got == size
        assert type(got) is int


def test_array_helpers_are_reexported():
    from chainer.utils import array
    assert utils.sum_to is array.sum_to
    assert utils.size_of_shape is array.size_of_shape


def test_collections_abc_is_the_standard_module():
    import collections.abc
    assert utils.collections_abc is collections.abc


def test_submodules_reachable_as_attributes():
    for name in ('array', 'cache', 'conv', 'error', 'imgproc', 'meta', 'precision',
                 'type_check', 'argument'):
        assert getattr(utils, name).__name__ == f'chainer.utils.{name}'
    # As in Chainer, the function shadows its module.
    assert callable(utils.nondeterministic)
    with pytest.raises(AttributeError):
        utils.no_such_thing


def test_nondeterministic_warns_only_when_asked():
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        utils.nondeterministic('F.scatter_add')
        assert not w
        with chainer.using_config('warn_nondeterministic', True):
            utils.nondeterministic('F.scatter_add')
    assert len(w) == 1
    assert 'F.scatter_add' in str(w[0].message)
    assert 'warn_nondeterministic' in str(w[0].message)


def test_format_array_props():
    arrays = [numpy.zeros((2, 3), numpy.float32), numpy.zeros(2, numpy.int32)]
    assert utils._format_array_props(arrays) == '(2, 3):float32, (2,):int32'
    assert utils._format_array_props([]) == ''


def test_raise_from_keeps_the_original_message():
    orig = KeyError('k')
    with pytest.raises(ValueError) as e:
        utils._raise_from(ValueError, 'loading failed', orig)
    assert str(e.value) == "loading failed\n\n(caused by)\nKeyError: 'k'\n"
    assert e.value.__cause__ is orig


def test_check_arrays_forward_compatible():
    utils._check_arrays_forward_compatible([numpy.zeros(2), None, numpy.zeros(1)])
    utils._check_arrays_forward_compatible([])
    with pytest.raises(TypeError) as e:
        utils._check_arrays_forward_compatible([numpy.zeros(2), 3], 'Foo')
    assert '(Foo)' in str(e.value)
    assert "<class 'int'>" in str(e.value)


def test_repr_with_named_data():
    class Thing:
        pass
    text = utils._repr_with_named_data(Thing(), a=1, b='x')
    assert text == f'<{__name__}.{Thing.__qualname__} a=1 b=x>'


def test_experimental_warns(monkeypatch):
    monkeypatch.setattr(chainer, 'disable_experimental_feature_warning', False, raising=False)
    with pytest.warns(FutureWarning, match=r'^chainer\.foo\.bar is experimental\. '):
        utils.experimental('chainer.foo.bar')


def test_experimental_points_at_the_callers_caller():
    def api():
        utils.experimental('api')

    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        api()
    assert w[0].filename == __file__


def test_experimental_can_be_disabled(monkeypatch):
    monkeypatch.setattr(chainer, 'disable_experimental_feature_warning', True, raising=False)
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        utils.experimental('chainer.foo.bar')


class _Doubler:
    def __init__(self):
        self.seen = None

    @utils.mixed_presision
    def forward(self, inputs):
        self.seen = tuple(x.dtype for x in inputs if x is not None)
        x = inputs[0]
        return x * 2, (x > 0).astype(numpy.int32), x.astype(numpy.float64)


def test_mixed_presision_float16():
    f = _Doubler()
    x = numpy.array([1, -2], numpy.float16)
    y, mask, wide = f.forward((x, None, numpy.zeros(1, numpy.float64)))
    assert f.seen == (numpy.float32, numpy.float64)
    assert y.dtype == numpy.float16
    numpy.testing.assert_array_equal(y, [2, -4])
    assert mask.dtype == numpy.int32
    assert wide.dtype == numpy.float64


def test_mixed_presision_other_dtypes_untouched():
    f = _Doubler()
    y, _, _ = f.forward((numpy.ones(2, numpy.float32),))
    assert f.seen == (numpy.float32,)
    assert y.dtype == numpy.float32
    assert _Doubler.forward.__name__ == 'forward'


def test_conv_helpers_are_exported():
    assert utils.get_conv_outsize(5, 3, 1, 0) == 3
    assert utils.get_deconv_outsize(3, 3, 1, 0) == 5


def test_unknown_attribute():
    with pytest.raises(AttributeError):
        utils.no_such_name


def test_submodules_import():
    from chainer.utils import argument, array, conv, type_check  # NOQA


def test_import_loads_no_optional_dependencies():
    code = ('import sys, chainer.utils, chainer.utils.type_check, chainer.utils.conv, '
            'chainer.utils.array, chainer.utils.argument, chainer.warnings; '
            'print(sorted(m for m in ("scipy", "cupy") if m in sys.modules))')
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == '[]'


def test_lazy_names_resolve_or_raise_attribute_error():
    # WalkerAlias and the sparse helpers live in modules written separately;
    # until they exist the names behave like missing attributes.
    for name in ('WalkerAlias', 'CooMatrix', 'get_order', 'to_coo'):
        try:
            value = getattr(utils, name)
        except AttributeError:
            continue
        assert callable(value)


def test_tempdir(tmp_path):
    import os
    with utils.tempdir(dir=str(tmp_path), prefix='t') as d:
        assert os.path.isdir(d) and os.path.basename(d).startswith('t')
        open(os.path.join(d, 'f'), 'w').close()
    assert not os.path.exists(d)
