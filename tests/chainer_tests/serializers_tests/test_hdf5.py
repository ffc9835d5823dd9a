"""save_hdf5 / load_hdf5: Chainer's group layout, None, strictness and bad files."""
import os

import numpy
import pytest

from chainer import serializers

from chainer_tests.serializers_tests._objects import assert_same_state, modified, Tree

h5py = pytest.importorskip('h5py')


def test_layout(tmp_path):
    path = str(tmp_path / 'tree.h5')
    serializers.save_hdf5(path, modified())
    with h5py.File(path, 'r') as f:
        assert sorted(f) == ['a', 'b', 't']
        assert sorted(f['a']) == ['count', 'flag', 'nothing', 'rate', 'w']
        assert f['a/w'].dtype == numpy.float32 and f['a/w'].compression == 'gzip'
        assert f['a/nothing'].shape is None  # an empty dataset stands for None
        assert f['t'][()] == 99


def test_round_trip(tmp_path):
    path = str(tmp_path / 'tree.h5')
    serializers.save_hdf5(path, modified())
    tree = Tree()
    serializers.load_hdf5(path, tree)
    assert_same_state(tree, modified())


def test_strict_and_not(tmp_path):
    path = str(tmp_path / 'leaf.h5')
    serializers.save_hdf5(path, modified().a)
    with h5py.File(path, 'r') as f:
        with pytest.raises(KeyError):
            serializers.HDF5Deserializer(f).load(Tree())
        tree = Tree()
        serializers.HDF5Deserializer(f, strict=False).load(tree)
    assert tree.t == 10 and tree.a.count == 3


def test_bad_files_leave_object_unchanged(tmp_path):
    path = str(tmp_path / 'tree.h5')
    serializers.save_hdf5(path, Tree())
    data = open(path, 'rb').read()
    open(str(tmp_path / 'short.h5'), 'wb').write(data[:len(data) // 3])
    for name in ('short.h5',):
        tree = modified()
        with pytest.raises(OSError, match=name):
            serializers.load_hdf5(str(tmp_path / name), tree)
        assert_same_state(tree, modified())
    with h5py.File(str(tmp_path / 'shape.h5'), 'w') as f:
        serializers.HDF5Serializer(f).save(Tree())
        del f['b/w']
        f['b/w'] = numpy.zeros((3, 2), numpy.float32)
    tree = modified()
    with pytest.raises(ValueError, match=r"'w'.*\(3, 2\)"):
        serializers.load_hdf5(str(tmp_path / 'shape.h5'), tree)
    assert_same_state(tree, modified())


def test_save_is_atomic(tmp_path):
    path = str(tmp_path / 'tree.h5')
    serializers.save_hdf5(path, Tree())
    good = open(path, 'rb').read()

    class Broken(Tree):
        def serialize(self, s):
            super().serialize(s)
            s('bad', object())

    with pytest.raises(Exception):
        serializers.save_hdf5(path, Broken())
    assert open(path, 'rb').read() == good
    assert os.listdir(tmp_path) == ['tree.h5']
