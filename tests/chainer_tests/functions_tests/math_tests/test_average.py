import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

_PARAMS = [p for p in (
    testing.product({
        'shape': [(3, 4)],
        'axis': [None, 0, -1, (0, 1)],
        'use_weights': [False, True],
        'keepdims': [False, True],
        'dtype': [numpy.float32],
    })
    + testing.product({
        'shape': [(2, 3, 4)],
        'axis': [None, 1],
        'use_weights': [False, True],
        'keepdims': [False],
        'dtype': [numpy.float16, numpy.float64],
    })
) if not (p['use_weights'] and isinstance(p['axis'], tuple))]  # weights need one axis


@testing.parameterize(*_PARAMS)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestAverage(testing.FunctionTestCase):

    # float16: weighted sums of float16 terms
    tolerances = {numpy.float16: (5e-3, (1e-2, 5e-2), (5e-2, 1e-1))}

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        if not self.use_weights:
            return x,
        w_shape = self.shape if self.axis is None else (self.shape[self.axis],)
        return x, numpy.random.uniform(0.5, 1.5, w_shape).astype(self.dtype)

    def forward(self, inputs, device):
        x = inputs[0]
        w = inputs[1] if self.use_weights else None
        return F.average(x, axis=self.axis, weights=w, keepdims=self.keepdims),

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        w = inputs[1].astype(numpy.float64) if self.use_weights else None
        y = numpy.average(x, axis=self.axis, weights=w)
        if self.keepdims:
            axes = range(x.ndim) if self.axis is None else numpy.atleast_1d(self.axis)
            y = numpy.expand_dims(y, tuple(a % x.ndim for a in axes))
        return numpy.asarray(y, self.dtype),


def test_mean_is_average():
    x = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    numpy.testing.assert_allclose(F.mean(x).array, 2.5)
    numpy.testing.assert_allclose(F.mean(x, axis=0, keepdims=True).array, [[1.5, 2.5, 3.5]])
    # NumPy-style positional keepdims
    assert F.mean(x, 1, True).shape == (2, 1)
    w = numpy.array([1, 0, 1], numpy.float32)
    numpy.testing.assert_allclose(F.mean(x, 1, w).array, [1, 4])


def test_empty_mean_is_nan():
    y = F.average(numpy.zeros((0, 3), numpy.float32), axis=0)
    assert y.shape == (3,)
    assert numpy.isnan(y.array).all()


def test_gradient_reaches_weights():
    x = chainer.Variable(numpy.array([1., 3.], numpy.float32))
    w = chainer.Variable(numpy.array([1., 1.], numpy.float32))
    F.average(x, weights=w).backward()
    numpy.testing.assert_allclose(x.grad, [0.5, 0.5])
    numpy.testing.assert_allclose(w.grad, [-0.5, 0.5])


def test_invalid_weights():
    x = numpy.zeros((2, 3), numpy.float32)
    # Shape mismatches raise InvalidType, as in Chainer.
    with pytest.raises(type_check.InvalidType, match='average: with axis=None'):
        F.average(x, weights=numpy.ones(3, numpy.float32))
    with pytest.raises(type_check.InvalidType, match=r'average: with axis=1, weights'):
        F.average(x, axis=1, weights=numpy.ones(2, numpy.float32))
    with pytest.raises(TypeError, match='average: weights must be'):
        F.average(x, axis=1, weights=[1, 1, 1])
    with pytest.raises(ValueError):
        F.average(x, axis=(0, 1), weights=numpy.ones((2, 3), numpy.float32))
    with pytest.raises(TypeError, match='mean: axis must be'):
        F.mean(x, axis=[0])


def test_unweighted_average_is_one_mean_node():
    # Chainer 7 graphs show an unweighted average as a single 'Mean' node.
    x = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    y = F.average(x, axis=1)
    assert y.creator.label == 'Mean'
    assert y.creator.inputs[0] is x.node
    assert F.mean(x).creator.label == 'Mean'


def test_unweighted_average_type_errors_name_mean():
    with pytest.raises(chainer.utils.type_check.InvalidType, match='Mean'):
        F.average(numpy.ones((2, 3), numpy.int32))
    with pytest.raises(chainer.utils.type_check.InvalidType, match='Mean'):
        F.average(numpy.ones((2, 3), numpy.float32), axis=2)
    with pytest.raises(TypeError):
        F.average(numpy.ones((2, 3), numpy.float32), axis=[0])
    with pytest.raises(ValueError):
        F.average(numpy.ones((2, 3), numpy.float32), axis=(0, 0))
