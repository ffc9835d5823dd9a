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


class _Text:
    # An object with text values, as LogReport's log or a DictSummary's names.
    def __init__(self, text='', names=()):
        self.text = text
        self.names = numpy.asarray(list(names), dtype=str)

    def serialize(self, serializer):
        self.text = serializer('text', self.text)
        saving = isinstance(serializer, serializers.HDF5Serializer)
        self.names = numpy.asarray(serializer('names', self.names if saving else None))


@pytest.mark.parametrize('text', ['', 'plain', '[{"main/loss": 0.5}]', 'ünïcode ✓'])
def test_text_is_stored_as_utf8_strings(tmp_path, text):
    # h5py refuses NumPy's unicode arrays (as Chainer 7.8.1's writer does); rechainer
    # stores variable-length UTF-8 strings and reads them back as str.
    path = str(tmp_path / 'text.h5')
    serializers.save_hdf5(path, _Text(text, ['a', 'bc']))
    with h5py.File(path, 'r') as f:
        assert h5py.check_string_dtype(f['text'].dtype).encoding == 'utf-8'
    loaded = _Text('x', ['y', 'z'])
    serializers.load_hdf5(path, loaded)
    assert loaded.text == text and isinstance(loaded.text, str)
    assert loaded.names.tolist() == ['a', 'bc']


def test_many_datasets(tmp_path):
    # With many datasets h5py reads back what it wrote through the temporary
    # file, which must be open for reading too.
    import chainer
    from chainer import links as L
    model = chainer.ChainList(*[L.Linear(2, 2) for _ in range(800)])
    path = str(tmp_path / 'big.h5')
    serializers.save_hdf5(path, model)
    other = chainer.ChainList(*[L.Linear(2, 2) for _ in range(800)])
    serializers.load_hdf5(path, other)
    numpy.testing.assert_array_equal(other[799].W.array, model[799].W.array)
