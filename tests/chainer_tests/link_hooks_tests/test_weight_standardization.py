import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L
from chainer.link_hooks import WeightStandardization


def test_each_output_row_is_standardized():
    lin = L.Linear(6, 3, nobias=True).add_hook(WeightStandardization())
    W = lin.W.array.copy()
    y = lin(numpy.eye(6, dtype=numpy.float32)).array.T
    expected = (W - W.mean(1, keepdims=True)) / numpy.sqrt(W.var(1, keepdims=True) + 1e-5)
    numpy.testing.assert_allclose(y, expected, rtol=1e-4, atol=1e-5)
    assert lin.W.array is not None and isinstance(lin.W, chainer.Parameter)


def test_lazy_link_and_gradient():
    lin = L.Linear(None, 2).add_hook(WeightStandardization())
    lin.cleargrads()
    F.sum(lin(numpy.random.randn(3, 4).astype(numpy.float32)) ** 2).backward()
    assert lin.W.shape == (2, 4) and numpy.isfinite(lin.W.grad).all()


def test_errors():
    with pytest.raises(ValueError, match="'V' does not exist"):
        L.Linear(2, 2).add_hook(WeightStandardization(weight_name='V'))
    with pytest.raises(NotImplementedError):
        with WeightStandardization():
            pass
