import numpy
import pytest

import chainer
from chainer import gradient_check
from chainer.distributions import utils


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_modified_xlogx_values(dtype):
    x = numpy.array([0, 0.5, 1, 2], dtype)
    y = utils._modified_xlogx(x)
    assert y.dtype == dtype
    numpy.testing.assert_allclose(y.array, [0, 0.5 * numpy.log(0.5), 0, 2 * numpy.log(2)],
                                  rtol=1e-6)
    # with log(x) given by the caller
    with numpy.errstate(divide='ignore'):
        logx = numpy.log(x)
    given = utils.ModifiedXLogX(logx).apply((x,))[0]
    numpy.testing.assert_allclose(given.array, y.array)


def test_modified_xlogx_gradient_vanishes_at_zero():
    x = chainer.Variable(numpy.array([0., 0.5, 1.]))
    y = utils._modified_xlogx(x)
    y.grad = numpy.ones(3)
    y.backward()
    numpy.testing.assert_allclose(x.grad, [0, numpy.log(0.5) + 1, 1])


def test_modified_xlogx_backward():
    rng = numpy.random.RandomState(0)
    x = rng.uniform(0.2, 2, (3, 2))
    gy, ggx = rng.normal(size=(3, 2)), rng.normal(size=(3, 2))
    gradient_check.check_backward(utils._modified_xlogx, x, gy, dtype=numpy.float64)
    gradient_check.check_double_backward(utils._modified_xlogx, x, gy, ggx,
                                         dtype=numpy.float64)
