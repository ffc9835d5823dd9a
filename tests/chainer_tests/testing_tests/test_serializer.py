import importlib.util
import os

import numpy
import pytest

from chainer import testing


def test_save_and_load_round_trip_in_a_temporary_directory():
    seen = []

    def saver(path, obj):
        seen.append(path)
        numpy.save(path, obj)

    def loader(path, dst):
        dst[...] = numpy.load(path)

    src = numpy.arange(4.0)
    dst = numpy.zeros(4)
    testing.save_and_load(src, dst, 'x.npy', saver, loader)
    numpy.testing.assert_array_equal(dst, src)
    path, = seen
    assert os.path.basename(path) == 'x.npy'
    assert not os.path.exists(os.path.dirname(path))    # cleaned up


@pytest.mark.skipif(importlib.util.find_spec('chainer.serializers') is None,
                    reason='chainer.serializers is not built yet')
def test_save_and_load_npz():
    import chainer

    src = chainer.Parameter(numpy.arange(3, dtype=numpy.float32))
    dst = chainer.Parameter(numpy.zeros(3, dtype=numpy.float32))
    testing.save_and_load_npz(src, dst)
    numpy.testing.assert_array_equal(dst.array, src.array)
