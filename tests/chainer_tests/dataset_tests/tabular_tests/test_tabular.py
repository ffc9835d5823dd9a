import numpy as np
import pytest

import chainer
from chainer.dataset import tabular


class _Recording(chainer.dataset.TabularDataset):
    # Three columns of length 10 that record what get_examples is asked for.

    def __init__(self, n=10, keys=('a', 'b', 'c'), mode=tuple):
        self.data = np.arange(len(keys) * n).reshape(len(keys), n)
        self._keys, self._mode, self.calls = keys, mode, []

    def __len__(self):
        return self.data.shape[1]

    @property
    def keys(self):
        return self._keys

    @property
    def mode(self):
        return self._mode

    def get_examples(self, indices, key_indices):
        self.calls.append((indices, key_indices))
        data = self.data if indices is None else self.data[:, indices]
        if key_indices is not None:
            data = data[list(key_indices)]
        return tuple(list(row) for row in data)


def test_fetch_get_example_iter_and_modes():
    ds = _Recording()
    assert ds[2] == (2, 12, 22)
    assert ds.asdict()[2] == {'a': 2, 'b': 12, 'c': 22}
    assert list(ds.astuple())[:2] == [(0, 10, 20), (1, 11, 21)]
    a, b, c = ds.convert(ds.fetch())
    assert isinstance(a, np.ndarray) and a.tolist() == list(range(10))
    assert ds.with_converter(lambda a, b, c: a[0] + c[0]).convert(ds.fetch()) == 20
    assert ds.asdict().with_converter(lambda **kw: sorted(kw)).convert(
        ds.asdict().fetch()) == ['a', 'b', 'c']


def test_slice_composes_rows_and_keys_lazily():
    ds = _Recording()
    view = ds.slice[1:9:2, ('c', 0)]
    assert len(view) == 4 and view.keys == ('c', 'a') and view.mode is tuple
    assert ds.calls == []
    inner = view.slice[[3, 0]]
    assert inner.fetch() == ([27, 21], [7, 1])
    assert ds.calls[-1] == ([7, 1], (2, 0))
    assert view.slice[::-1].fetch()[1] == [7, 5, 3, 1]
    assert isinstance(ds.calls[-1][0], slice)
    single = ds.slice[[True] * 3 + [False] * 7, 'b']
    assert single.mode is None and single.fetch() == [10, 11, 12]


def test_slice_errors():
    ds = _Recording()
    with pytest.raises(IndexError):
        ds.slice[[10]]
    with pytest.raises(ValueError, match='booleans'):
        ds.slice[[True] * 9]
    with pytest.raises(KeyError):
        ds.slice[:, 'z']
    with pytest.raises(IndexError):
        ds.slice[:, 3]
    with pytest.raises(TypeError):
        ds.slice[3]


def test_concat_asks_each_dataset_only_for_its_rows():
    a, b = _Recording(), _Recording(n=5)
    view = a.concat(b)
    assert len(view) == 15
    out = view.get_examples(slice(13, 6, -2), None)
    assert out[0] == [3, 1, 9, 7]
    assert a.calls == [(slice(9, 6, -2), None)] and b.calls == [(slice(3, None, -2), None)]
    out = view.get_examples([12, 0, 11], (1,))
    assert out == ([7, 10, 6],)  # column b: 5..9 in the second dataset, 10..19 in the first
    with pytest.raises(ValueError, match='same keys'):
        a.concat(_Recording(keys=('a', 'b')))


def test_join_transform_and_from_data():
    ds = tabular.from_data((('x', np.arange(4)), ('y', [5, 6, 7, 8])))
    assert ds.mode is tuple and ds.keys == ('x', 'y')
    z = tabular.from_data({'z': lambda i: i * 10}, size=4)
    joined = ds.join(z)
    assert joined.keys == ('x', 'y', 'z') and joined[3] == (3, 8, 30)
    zs, xs = joined.slice[:, ('z', 'x')].fetch()
    assert zs == [0, 10, 20, 30] and xs.tolist() == [0, 1, 2, 3]
    t = ds.transform(('s', 'd'), lambda x, y: {'s': x + y, 'd': y - x})
    assert t.mode is dict and t[1] == {'s': 7, 'd': 5}
    tb = ds.transform_batch('s', lambda x, y: np.asarray(x) + np.asarray(y))
    assert tb.mode is None and tb.fetch().tolist() == [5, 7, 9, 11]
    with pytest.raises(ValueError, match='same length'):
        ds.join(tabular.from_data(('w', np.arange(3))))
    with pytest.raises(ValueError, match='unique'):
        ds.join(tabular.from_data(('x', np.arange(4))))
    with pytest.raises(ValueError):
        tabular.from_data(('k', lambda i: i))
    with pytest.raises(ValueError):
        tabular.from_data(lambda i: i, size=3)


def test_delegate_dataset():
    class Squares(tabular.DelegateDataset):
        def __init__(self):
            super().__init__(tabular.from_data(('sq', lambda i: i * i), size=5))

    ds = Squares()
    assert ds.keys == ('sq',) and ds.slice[[4]].fetch() == [16]
