import pickle

import numpy as np
import pytest

import chainer
from chainer import backend
from chainer import dataset
from chainer.dataset import convert


def test_concat_arrays_tuples_dicts():
    a = [np.full((2, 3), i, np.float32) for i in range(4)]
    out = dataset.concat_examples(a)
    assert out.shape == (4, 2, 3) and out.dtype == np.float32
    np.testing.assert_array_equal(out[2], a[2])
    x, y = dataset.concat_examples([(np.zeros(2), 1), (np.ones(2), 2)])
    assert x.shape == (2, 2) and y.tolist() == [1, 2]
    d = dataset.concat_examples([{'x': np.zeros(2)}, {'x': np.ones(2)}])
    assert d['x'].shape == (2, 2)


def test_builtin_scalars_become_arrays():
    assert dataset.concat_examples([1, 2, 3]).dtype == np.array([1]).dtype
    assert dataset.concat_examples([1., 2.]).dtype == np.float64


def test_padding_per_position_and_key():
    out = dataset.concat_examples([np.ones((1, 3), 'i'), np.ones((2, 1), 'i')], padding=-1)
    assert out.shape == (2, 2, 3) and out.dtype == np.int32
    assert out[0, 1].tolist() == [-1, -1, -1] and out[1, :, 1:].tolist() == [[-1, -1]] * 2
    x, y = dataset.concat_examples([(np.zeros(1), np.zeros(2)), (np.zeros(2), np.zeros(1))],
                                   padding=(5, 7))
    assert x[0, 1] == 5 and y[1, 1] == 7
    d = dataset.concat_examples([{'a': np.zeros(1)}, {'a': np.zeros(2)}], padding={'a': 9})
    assert d['a'][0, 1] == 9


def test_inconsistent_shapes_name_index_and_shapes():
    batch = [np.zeros((2, 3)), np.zeros((2, 3)), np.zeros((2, 4))]
    with pytest.raises(ValueError) as e:
        dataset.concat_examples(batch)
    msg = str(e.value)
    assert 'example 2' in msg and '(2, 4)' in msg and '(2, 3)' in msg and 'padding' in msg
    with pytest.raises(ValueError, match='example 1 has 2 dimensions'):
        dataset.concat_examples([np.zeros(3), np.zeros((1, 3))], padding=0)
    with pytest.raises(ValueError, match='batch is empty'):
        dataset.concat_examples([])


def test_to_device_and_device_argument():
    x = np.zeros(2)
    assert dataset.to_device(None, x) is x
    assert isinstance(dataset.to_device(-1, x), np.ndarray)
    assert isinstance(dataset.to_device('@numpy', [x])[0], np.ndarray)
    out = dataset.concat_examples([x, x], device=backend.CpuDevice())
    assert backend.get_device_from_array(out) == backend.CpuDevice()


def test_converter_objects_and_legacy_callables():
    assert isinstance(dataset.concat_examples, dataset.Converter)
    assert pickle.loads(pickle.dumps(dataset.concat_examples))([np.zeros(1)]).shape == (1, 1)

    @dataset.converter()
    def new_style(batch, device):
        return device

    def old_style(batch, device):
        return device

    cpu = backend.CpuDevice()
    assert convert._call_converter(new_style, [], cpu) is cpu
    assert convert._call_converter(old_style, [], cpu) == -1
    assert convert._call_converter(old_style, [], None) is None


def test_concat_with_async_transfer_on_cpu_is_concat_examples():
    conv = pickle.loads(pickle.dumps(chainer.dataset.ConcatWithAsyncTransfer()))
    x, y = conv([(np.zeros(2), np.ones(1)), (np.ones(2), np.zeros(1))], padding=None)
    assert x.shape == (2, 2) and y.shape == (2, 1)
