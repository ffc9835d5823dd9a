"""save_npz / load_npz: key layout, scalars and None, partial loads, and safety."""
import io
import os
import pickle
import zipfile

import numpy
import pytest

from chainer import serializers
from chainer.serializers import npz

from chainer_tests.serializers_tests._objects import assert_same_state, modified, Tree


def test_key_layout_and_dtypes():
    target = npz.serialize(Tree())
    assert list(target) == ['t', 'a/w', 'a/count', 'a/rate', 'a/flag', 'a/nothing',
                            'b/w', 'b/count', 'b/rate', 'b/flag', 'b/nothing']
    assert target['a/w'].dtype == numpy.float32 and target['t'].shape == ()
    assert target['a/nothing'].dtype == object and target['a/nothing'][()] is None


@pytest.mark.parametrize('compression', [True, False])
def test_round_trip(tmp_path, compression):
    path = tmp_path / 'tree.npz'
    serializers.save_npz(str(path), modified(), compression=compression)
    tree = Tree()
    serializers.load_npz(str(path), tree)
    assert_same_state(tree, modified())
    assert isinstance(tree.a.count, int) and isinstance(tree.a.rate, float)


def test_file_objects_and_no_suffix(tmp_path):
    buf = io.BytesIO()
    serializers.save_npz(buf, modified())
    buf.seek(0)
    tree = Tree()
    serializers.load_npz(buf, tree)
    assert_same_state(tree, modified())
    serializers.save_npz(str(tmp_path / 'noext'), Tree())
    assert os.listdir(tmp_path) == ['noext']


def test_path_strict_and_ignore_names(tmp_path):
    path = str(tmp_path / 'leaf.npz')
    serializers.save_npz(path, modified().a)
    # a sub-tree of a file: the leaf was saved at the root, load it as 'a/' of a tree
    target = npz.serialize(modified())
    numpy.savez(str(tmp_path / 'tree.npz'), **target)
    tree = Tree()
    serializers.load_npz(str(tmp_path / 'tree.npz'), tree.b, path='a/')
    numpy.testing.assert_array_equal(tree.b.w, modified().a.w)

    del target['b/w']
    numpy.savez(str(tmp_path / 'partial.npz'), **target)
    with pytest.raises(KeyError, match='b/w'):
        serializers.load_npz(str(tmp_path / 'partial.npz'), Tree())
    tree = Tree()
    serializers.load_npz(str(tmp_path / 'partial.npz'), tree, strict=False)
    numpy.testing.assert_array_equal(tree.b.w, Tree().b.w)
    assert tree.t == 99

    tree = Tree()
    serializers.load_npz(str(tmp_path / 'tree.npz'), tree, ignore_names=['a/w'])
    numpy.testing.assert_array_equal(tree.a.w, Tree().a.w)
    tree = Tree()
    serializers.load_npz(str(tmp_path / 'tree.npz'), tree,
                         ignore_names=lambda key: key.startswith('b/'))
    assert tree.b.count == 3 and tree.a.count == 7


def test_scalar_conversions_are_safe():
    d = npz.NpzDeserializer({'f': numpy.asarray(2.5), 'i': numpy.asarray(3),
                             'b': numpy.asarray(True), 's': numpy.asarray('abc')})
    assert d('i', 0.0) == 3.0 and isinstance(d('i', 0.0), float)
    assert d('b', 0) == 1 and d('s', '') == 'abc'
    with pytest.raises(TypeError, match="'f'"):
        d('f', 0)
    with pytest.raises(TypeError):
        d('i', False)


class _Evil:
    def __reduce__(self):
        return (os.system, ('echo pwned > /dev/null',))


def _write_npz_with(path, key, value):
    target = npz.serialize(Tree())
    target[key] = value
    numpy.savez(path, **target)


@pytest.mark.parametrize('payload', [numpy.array([_Evil()], dtype=object),
                                     numpy.array([1, 'x'], dtype=object)])
def test_pickled_objects_other_than_none_are_refused(tmp_path, payload):
    path = str(tmp_path / 'evil.npz')
    _write_npz_with(path, 'a/w', payload)
    tree = modified()
    with pytest.raises(ValueError, match=r"evil\.npz.*'a/w'"):
        serializers.load_npz(path, tree)
    assert_same_state(tree, modified())


def test_truncated_and_corrupted_files(tmp_path):
    path = str(tmp_path / 'tree.npz')
    serializers.save_npz(path, Tree(), compression=False)
    data = open(path, 'rb').read()
    open(str(tmp_path / 'short.npz'), 'wb').write(data[:len(data) // 2])
    flipped = bytearray(data)
    with zipfile.ZipFile(path) as zf:
        info = zf.getinfo('a/w.npy')
    # a byte of the array's data: past the local header (30 bytes + name) and the .npy header
    flipped[info.header_offset + 30 + len(info.filename) + 130] ^= 0xFF
    open(str(tmp_path / 'flipped.npz'), 'wb').write(bytes(flipped))
    open(str(tmp_path / 'text.npz'), 'w').write('not an archive')
    for name in ('short.npz', 'flipped.npz', 'text.npz'):
        tree = modified()
        with pytest.raises(ValueError, match=name) as info:
            serializers.load_npz(str(tmp_path / name), tree)
        assert isinstance(info.value, zipfile.BadZipFile)
        assert_same_state(tree, modified())


def test_shape_mismatch_leaves_object_unchanged(tmp_path):
    path = str(tmp_path / 'bad.npz')
    _write_npz_with(path, 'b/w', numpy.zeros((3, 2), numpy.float32))
    tree = modified()
    with pytest.raises(ValueError, match=r"'b/w'.*\(3, 2\).*\(2, 3\)"):
        serializers.load_npz(path, tree)
    assert_same_state(tree, modified())  # 'a/...' and 't' came first and were not applied


def test_missing_key_leaves_object_unchanged(tmp_path):
    target = npz.serialize(Tree())
    del target['b/nothing']
    path = str(tmp_path / 'partial.npz')
    numpy.savez(path, **target)
    tree = modified()
    with pytest.raises(KeyError):
        serializers.load_npz(path, tree)
    assert_same_state(tree, modified())


def test_missing_file():
    with pytest.raises(FileNotFoundError):
        serializers.load_npz('/nonexistent/model.npz', Tree())


def test_save_is_atomic(tmp_path):
    path = str(tmp_path / 'tree.npz')
    serializers.save_npz(path, modified())
    good = open(path, 'rb').read()

    class Broken(Tree):
        def serialize(self, s):
            super().serialize(s)
            s('bad', object())  # fails after most values were collected

    with pytest.raises(TypeError):
        serializers.save_npz(path, Broken())
    assert open(path, 'rb').read() == good
    assert os.listdir(tmp_path) == ['tree.npz']


def test_none_entries_load_with_plain_numpy(tmp_path):
    # What Chainer 7.8.1 does to read them: numpy.load with allow_pickle=True.
    path = str(tmp_path / 'tree.npz')
    serializers.save_npz(path, Tree())
    with numpy.load(path, allow_pickle=True) as f:
        assert f['a/nothing'][()] is None
    assert pickle.loads(pickle.dumps(numpy.asarray(None)))[()] is None
