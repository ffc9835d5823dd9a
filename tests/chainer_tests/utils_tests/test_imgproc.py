import numpy
import pytest

from chainer.utils import imgproc


def test_ten_crops_in_order():
    x = numpy.arange(2 * 1 * 4 * 5, dtype=numpy.float32).reshape(2, 1, 4, 5)
    y = imgproc.oversample(x, (2, 3))
    assert y.shape == (20, 1, 2, 3)
    assert y.dtype == x.dtype
    for n in range(2):
        img = x[n, 0]
        views = [img[:2, :3], img[:2, 2:], img[2:, :3], img[2:, 2:], img[1:3, 1:4]]
        views += [v[:, ::-1] for v in views]
        for k, v in enumerate(views):
            numpy.testing.assert_array_equal(y[10 * n + k, 0], v)


def test_full_size_crop():
    x = numpy.random.rand(1, 3, 4, 4)
    y = imgproc.oversample(x, (4, 4))
    for k in range(5):
        numpy.testing.assert_array_equal(y[k], x[0])
        numpy.testing.assert_array_equal(y[5 + k], x[0][..., ::-1])


@pytest.mark.parametrize('shape, crop', [((1, 4, 4), (2, 2)), ((1, 1, 4, 4), (5, 2)),
                                         ((1, 1, 4, 4), (0, 2))])
def test_bad_arguments(shape, crop):
    with pytest.raises(ValueError):
        imgproc.oversample(numpy.zeros(shape), crop)
