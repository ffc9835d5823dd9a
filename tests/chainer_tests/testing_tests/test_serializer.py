import os

import numpy

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


def test_save_and_load_npz():
    import chainer

    src = chainer.Link()
    with src.init_scope():
        src.p = chainer.Parameter(numpy.arange(3, dtype=numpy.float32))
    dst = chainer.Link()
    with dst.init_scope():
        dst.p = chainer.Parameter(numpy.zeros(3, dtype=numpy.float32))
    testing.save_and_load_npz(src, dst)
    numpy.testing.assert_array_equal(dst.p.array, src.p.array)
