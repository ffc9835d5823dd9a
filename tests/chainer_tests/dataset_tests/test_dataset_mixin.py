import numpy as np

from chainer import dataset


class _Squares(dataset.DatasetMixin):

    def __len__(self):
        return 10

    def get_example(self, i):
        return i * i


def test_indexing_forms():
    ds = _Squares()
    assert ds[3] == 9
    assert ds[8:2:-3] == [64, 25]
    assert ds[[1, 4, 1]] == [1, 16, 1]
    assert ds[np.array([2, 3])] == [4, 9]
    assert ds[:] == [i * i for i in range(10)]
