import io
import multiprocessing
import os
import pickle
import zipfile

import numpy as np
import pytest

from chainer import datasets


def test_tuple_and_dict_datasets():
    t = datasets.TupleDataset([1, 2, 3], np.arange(3) * 10)
    assert len(t) == 3 and t[1] == (2, 10) and t[1:] == [(2, 10), (3, 20)]
    with pytest.raises(ValueError, match='index 1'):
        datasets.TupleDataset([1, 2], [1])
    with pytest.raises(ValueError):
        datasets.TupleDataset()
    d = datasets.DictDataset(a=[1, 2], b=np.array([3, 4]))
    assert d[0] == {'a': 1, 'b': 3} and d[:1] == [{'a': 1, 'b': 3}]
    with pytest.raises(ValueError, match='"b"'):
        datasets.DictDataset(a=[1, 2], b=[1])


def test_concatenated_and_transform():
    c = datasets.ConcatenatedDataset([1, 2], [], [3])
    assert len(c) == 3 and c[2] == 3 and c[0:3] == [1, 2, 3]
    with pytest.raises(IndexError):
        c[3]
    with pytest.raises(IndexError):
        c[-1]
    t = datasets.TransformDataset([1, 2, 3], lambda x: x * 10)
    assert len(t) == 3 and t[1:] == [20, 30]


def test_sub_dataset_and_splits():
    s = datasets.SubDataset(list(range(10)), 2, 5, order=list(range(9, -1, -1)))
    assert list(s) == [7, 6, 5] and s[-1] == 5
    with pytest.raises(IndexError):
        s[3]
    with pytest.raises(ValueError):
        datasets.SubDataset([1, 2], 0, 1, order=[0])
    a, b = datasets.split_dataset(list(range(5)), 2)
    assert list(a) == [0, 1] and list(b) == [2, 3, 4]
    with pytest.raises(TypeError):
        datasets.split_dataset([1, 2], 1.5)
    with pytest.raises(ValueError):
        datasets.split_dataset([1, 2], 3)
    a1, _ = datasets.split_dataset_random(list(range(10)), 4, seed=1)
    a2, _ = datasets.split_dataset_random(list(range(10)), 4, seed=1)
    assert list(a1) == list(a2)
    parts = datasets.split_dataset_n(list(range(7)), 3)
    assert [list(p) for p in parts] == [[0, 1], [2, 3], [4, 5]]


def test_cross_validation_folds():
    folds = datasets.get_cross_validation_datasets(list(range(1, 8)), 3)
    assert [(list(tr), list(te)) for tr, te in folds] == [
        ([1, 2, 3, 4], [5, 6, 7]), ([5, 6, 7, 1, 2], [3, 4]), ([3, 4, 5, 6, 7], [1, 2])]
    folds = datasets.get_cross_validation_datasets_random(list(range(9)), 3, seed=0)
    assert sorted(sum((list(te) for _, te in folds), [])) == list(range(9))


def test_text_dataset(tmp_path):
    (tmp_path / 'a.txt').write_text('x\ny\nz')
    (tmp_path / 'b.txt').write_text('1\n2\n3\n')
    (tmp_path / 'c.txt').write_text('only\n')
    single = datasets.TextDataset(str(tmp_path / 'a.txt'))
    assert single[:] == ['x\n', 'y\n', 'z']
    pair = datasets.TextDataset([str(tmp_path / 'a.txt'), str(tmp_path / 'b.txt')],
                                filter_func=lambda a, b: b != '2\n')
    assert pair[:] == [('x\n', '1\n'), ('z', '3\n')]
    assert pickle.loads(pickle.dumps(pair))[1] == ('z', '3\n')
    with pytest.raises(ValueError, match='number of lines'):
        datasets.TextDataset([str(tmp_path / 'a.txt'), str(tmp_path / 'c.txt')])


def test_pickle_dataset_roundtrip_and_fork(tmp_path):
    path = str(tmp_path / 'd.pkl')
    with datasets.open_pickle_dataset_writer(path) as w:
        for x in (1, 'two', np.arange(3)):
            w.write(x)
    with datasets.open_pickle_dataset(path) as ds:
        assert len(ds) == 3 and ds[1] == 'two' and ds[2].tolist() == [0, 1, 2]
        with pickle.loads(pickle.dumps(ds)) as copy:
            assert copy[0] == 1
        # A forked child reopens the file: its reads do not move the parent's.
        ctx = multiprocessing.get_context('fork')
        with ctx.Pool(1) as pool:
            assert pool.apply(ds.__getitem__, (2,)).tolist() == [0, 1, 2]
        assert ds[0] == 1
    buf = io.BytesIO()
    w = datasets.PickleDatasetWriter(buf)
    w.write({'a': 1})
    w.flush()
    assert datasets.PickleDataset(buf)[0] == {'a': 1}


def _write_png(path, array):
    from PIL import Image
    Image.fromarray(array).save(path)


def test_image_datasets(tmp_path):
    pytest.importorskip('PIL')
    rgb = np.arange(2 * 3 * 3, dtype=np.uint8).reshape(2, 3, 3)
    grey = np.arange(6, dtype=np.uint8).reshape(2, 3)
    _write_png(tmp_path / 'rgb.png', rgb)
    _write_png(tmp_path / 'grey.png', grey)
    (tmp_path / 'list.txt').write_text('rgb.png 3\ngrey.png 4\n')
    ds = datasets.ImageDataset(['rgb.png', 'grey.png'], root=str(tmp_path))
    assert ds[0].shape == (3, 2, 3) and ds[0].dtype == np.float32
    np.testing.assert_array_equal(ds[0], rgb.transpose(2, 0, 1))
    assert ds[1].shape == (1, 2, 3)
    labeled = datasets.LabeledImageDataset(str(tmp_path / 'list.txt'), root=str(tmp_path))
    image, label = labeled[1]
    assert image.shape == (1, 2, 3) and label.dtype == np.int32 and int(label) == 4
    with zipfile.ZipFile(tmp_path / 'imgs.zip', 'w') as z:
        z.write(tmp_path / 'rgb.png', 'rgb.png')
        z.write(tmp_path / 'grey.png', 'sub/grey.png')
    zipped = datasets.ZippedImageDataset(str(tmp_path / 'imgs.zip'), dtype=np.uint8)
    assert len(zipped) == 2 and zipped[0].dtype == np.uint8
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(zipped))[1][0], grey)
    multi = datasets.MultiZippedImageDataset([str(tmp_path / 'imgs.zip')] * 2)
    assert len(multi) == 4 and multi[3].shape == (1, 2, 3)
    (tmp_path / 'zlabels.txt').write_text('sub/grey.png 7\n')
    lz = datasets.LabeledZippedImageDataset(str(tmp_path / 'imgs.zip'),
                                            str(tmp_path / 'zlabels.txt'))
    assert len(lz) == 1 and int(lz[0][1]) == 7
    os.remove(tmp_path / 'rgb.png')
    with pytest.raises(FileNotFoundError):
        ds[0]
