import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


def _groups(x, g):
    n, c = x.shape[:2]
    return x.reshape(n, g, c // g, -1).transpose(1, 2, 0, 3).reshape(g, c // g, -1)


def _ungroup(y, shape, g):
    n, c = shape[:2]
    return y.reshape(g, c // g, n, -1).transpose(2, 0, 1, 3).reshape(shape)


def _zca(x, g, eps):
    """Centred groups times (cov + eps I)^(-1/2), by an eigendecomposition per group."""
    xg = _groups(x.astype(numpy.float64), g)
    c = xg - xg.mean(axis=2, keepdims=True)
    out = numpy.empty_like(c)
    projections = []
    for i in range(g):
        cov = c[i] @ c[i].T / c.shape[2] + eps * numpy.eye(c.shape[1])
        w, u = numpy.linalg.eigh(cov)
        p = u @ numpy.diag(w ** -.5) @ u.T
        out[i] = p @ c[i]
        projections.append(p)
    return _ungroup(out, x.shape, g), xg.mean(axis=2), numpy.stack(projections)


@testing.parameterize(*testing.product({
    'shape_groups': [((10, 4, 3), 2), ((12, 3), 1), ((6, 6, 2, 2), 3), ((8, 2), 2)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestDecorrelatedBatchNormalization(testing.FunctionTestCase):

    eps = 2e-5
    # Its gradient goes through an eigendecomposition and is not differentiable again.
    skip_double_backward_test = True

    tolerances = {
        # float16: whitening inverts a float16 covariance matrix
        numpy.float16: (2e-2, 5e-2),
        # float32: the gradient goes through an inverse square root of the covariance
        numpy.float32: (None, (5e-3, 5e-2)),
    }

    def setUp(self):
        self.shape, self.groups = self.shape_groups
        self.check_forward_options = {'atol': 1e-4, 'rtol': 1e-3}
        self.check_backward_options = {'atol': 1e-3, 'rtol': 1e-2}

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.decorrelated_batch_normalization(inputs[0], groups=self.groups, eps=self.eps),

    def forward_expected(self, inputs):
        return _zca(inputs[0], self.groups, self.eps)[0].astype(self.dtype),


def test_output_is_white():
    x = numpy.random.RandomState(1).randn(50, 4, 3) @ numpy.random.RandomState(2).randn(3, 3)
    y = F.decorrelated_batch_normalization(x, groups=2).array
    for yg in _groups(y, 2):
        numpy.testing.assert_allclose(yg @ yg.T / yg.shape[1], numpy.eye(2), atol=1e-4)


def test_running_statistics():
    x = numpy.random.uniform(-1, 1, (6, 4, 2))
    mean0, proj0 = numpy.random.rand(2, 2), numpy.random.rand(2, 2, 2)
    running_mean, running_proj = mean0.copy(), proj0.copy()
    F.decorrelated_batch_normalization(x, groups=2, running_mean=running_mean,
                                       running_projection=running_proj, decay=0.7)
    _, mean, proj = _zca(x, 2, 2e-5)
    m = 12
    numpy.testing.assert_allclose(running_mean, .7 * mean0 + .3 * mean)
    numpy.testing.assert_allclose(running_proj, .7 * proj0 + .3 * proj * m / (m - 1))


def test_double_backward_is_refused():
    x = chainer.Variable(numpy.random.uniform(-1, 1, (6, 4)))
    y = F.decorrelated_batch_normalization(x, groups=2)
    gx, = chainer.grad([y], [x], [chainer.Variable(numpy.ones((6, 4)))],
                       enable_double_backprop=True)
    with pytest.raises(NotImplementedError, match='decorrelated_batch_normalization'):
        chainer.grad([F.sum(gx * gx)], [x])


@testing.parameterize(*testing.product({
    'shape_groups': [((5, 4, 3), 2), ((4, 3), 1), ((3, 6, 2, 1), 3)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    # one (d, d) projection shared by the groups, which Chainer 7.8.1 broadcasts
    'shared': [False, True],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestFixedDecorrelatedBatchNormalization(testing.FunctionTestCase):

    # float16: whitening inverts a float16 covariance matrix
    tolerances = {numpy.float16: (1e-2, 2e-2, 5e-2)}

    def setUp(self):
        self.shape, self.groups = self.shape_groups

    def generate_inputs(self):
        g = self.groups
        d = self.shape[1] // g
        x = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        mean = numpy.random.uniform(-1, 1, (g, d)).astype(self.dtype)
        proj_shape = (d, d) if self.shared else (g, d, d)
        proj = numpy.random.uniform(-1, 1, proj_shape).astype(self.dtype)
        return x, mean, proj

    def forward(self, inputs, device):
        return F.fixed_decorrelated_batch_normalization(*inputs, groups=self.groups),

    def forward_expected(self, inputs):
        x, mean, proj = (a.astype(numpy.float64) for a in inputs)
        y = proj @ (_groups(x, self.groups) - mean[:, :, None])
        return _ungroup(y, x.shape, self.groups).astype(self.dtype),


def test_train_and_fixed_agree_on_the_batch_statistics():
    x = numpy.random.uniform(-1, 1, (8, 4, 2))
    rm, rp = numpy.zeros((2, 2)), numpy.zeros((2, 2, 2))
    y = F.decorrelated_batch_normalization(x, groups=2, running_mean=rm,
                                           running_projection=rp, decay=0.)
    m = 16
    y2 = F.fixed_decorrelated_batch_normalization(x, rm, rp * (m - 1) / m, groups=2)
    numpy.testing.assert_allclose(y.array, y2.array, atol=1e-12)


def test_invalid_inputs():
    with pytest.raises(type_check.InvalidType, match='DecorrelatedBatchNormalization'):
        F.decorrelated_batch_normalization(numpy.ones((4, 3), numpy.float32), groups=2)
    with pytest.raises(type_check.InvalidType, match='FixedDecorrelatedBatchNormalization'):
        F.fixed_decorrelated_batch_normalization(
            numpy.ones((4, 4)), numpy.ones((2, 3)), numpy.ones((2, 2, 2)), groups=2)
    with pytest.raises(TypeError, match='unexpected'):
        F.decorrelated_batch_normalization(numpy.ones((4, 4)), train=True)


def test_bad_groups_and_running_shapes():
    x = numpy.ones((4, 4))
    with pytest.raises(TypeError, match='groups'):
        F.decorrelated_batch_normalization(x, groups=2.)
    with pytest.raises(ValueError, match='groups'):
        F.decorrelated_batch_normalization(x, groups=0)
    with pytest.raises(ValueError, match=r'running_mean must have shape \(2, 2\)'):
        F.decorrelated_batch_normalization(x, groups=2, running_mean=numpy.zeros(2))
    with pytest.raises(ValueError, match=r'running_projection must have shape \(2, 2, 2\)'):
        F.decorrelated_batch_normalization(x, groups=2, running_projection=numpy.zeros((2, 2)))
