import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing


def _renorm(x, gamma, beta, running_mean, running_var, rmax, dmax, eps):
    """The textbook batch renormalization (channels on axis 1), in float64."""
    axes = (0,) + tuple(range(2, x.ndim))
    shape = [1 if i in axes else s for i, s in enumerate(x.shape)]
    x = x.astype(numpy.float64)
    mean = x.mean(axis=axes, keepdims=True)
    std = numpy.sqrt(x.var(axis=axes, keepdims=True) + eps)
    running_std = numpy.sqrt(running_var.reshape(shape) + eps)
    r = numpy.clip(std / running_std, 1 / rmax, rmax)
    d = numpy.clip((mean - running_mean.reshape(shape)) / running_std, -dmax, dmax)
    return gamma.reshape(shape) * ((x - mean) / std * r + d) + beta.reshape(shape), r, d


@testing.parameterize(*testing.product({
    'shape': [(5, 3), (4, 3, 2, 3), (2, 3, 1)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'rmax_dmax': [(1, 0), (3, 5), (1.1, .1)],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestBatchRenormalization(testing.FunctionTestCase):

    eps = 2e-5
    # r and d are held constant in backward though they depend on x, so the numerical
    # gradient of the forward pass is not the gradient computed: backward is checked
    # against batch normalization below.
    skip_backward_test = True
    skip_double_backward_test = True

    # float16: the batch statistics are float16 sums
    tolerances = {numpy.float16: (2e-2,)}

    def setUp(self):
        self.running_mean = numpy.random.uniform(-1, 1, 3).astype(self.dtype)
        self.running_var = numpy.random.uniform(.5, 1, 3).astype(self.dtype)

    def generate_inputs(self):
        x = numpy.random.uniform(-3, 3, self.shape).astype(self.dtype)
        gamma = numpy.random.uniform(.5, 1, 3).astype(self.dtype)
        beta = numpy.random.uniform(-1, 1, 3).astype(self.dtype)
        return x, gamma, beta

    def forward(self, inputs, device):
        rmax, dmax = self.rmax_dmax
        return F.batch_renormalization(
            *inputs, rmax, dmax, eps=self.eps, running_mean=device.send(self.running_mean),
            running_var=device.send(self.running_var)),

    def forward_expected(self, inputs):
        y, _, _ = _renorm(*inputs, self.running_mean, self.running_var, *self.rmax_dmax,
                          self.eps)
        return y.astype(self.dtype),


@pytest.mark.parametrize('update', [True, False])
def test_running_statistics(update):
    x = numpy.random.uniform(-1, 1, (5, 3, 2))
    mean0, var0 = numpy.random.uniform(-1, 1, 3), numpy.random.uniform(.5, 1, 3)
    running_mean, running_var = mean0.copy(), var0.copy()
    F.batch_renormalization(x, numpy.ones(3), numpy.zeros(3), 2, 1, running_mean=running_mean,
                            running_var=running_var, decay=0.8, update_statistics=update)
    if not update:
        numpy.testing.assert_array_equal(running_mean, mean0)
        numpy.testing.assert_array_equal(running_var, var0)
        return
    unbiased = x.var(axis=(0, 2)) * 10 / 9
    numpy.testing.assert_allclose(running_mean, .8 * mean0 + .2 * x.mean(axis=(0, 2)))
    numpy.testing.assert_allclose(running_var, .8 * var0 + .2 * unbiased)


def test_backward_holds_r_and_d_constant():
    # With r and d constant, y is batch normalization with scale gamma * r and shift
    # beta + gamma * d: the gradients must be those of that function.
    rmax, dmax, eps = 1.5, .5, 2e-5
    x = numpy.random.uniform(-3, 3, (6, 3, 2))
    gamma, beta = numpy.random.uniform(.5, 1, 3), numpy.random.uniform(-1, 1, 3)
    rm, rv = numpy.random.uniform(-1, 1, 3), numpy.random.uniform(.5, 1, 3)
    gy = numpy.random.uniform(-1, 1, x.shape)
    _, r, d = _renorm(x, gamma, beta, rm, rv, rmax, dmax, eps)
    r, d = r.reshape(3), d.reshape(3)

    xs = [chainer.Variable(a) for a in (x, gamma, beta)]
    y = F.batch_renormalization(*xs, rmax, dmax, eps=eps, running_mean=rm, running_var=rv)
    got = chainer.grad([y], xs, [chainer.Variable(gy)])

    xs2 = [chainer.Variable(a) for a in (x, gamma, beta)]
    y2 = F.batch_normalization(xs2[0], xs2[1] * r, xs2[2] + xs2[1] * d, eps=eps)
    expected = chainer.grad([y2], xs2, [chainer.Variable(gy)])
    numpy.testing.assert_allclose(y.array, y2.array, rtol=1e-10)
    for g, e in zip(got, expected):
        numpy.testing.assert_allclose(g.array, e.array, rtol=1e-8, atol=1e-10)


def test_running_statistics_are_required():
    with pytest.raises(TypeError, match='running_mean'):
        F.batch_renormalization(numpy.ones((2, 3)), numpy.ones(3), numpy.zeros(3), 1, 0)


def test_training_only():
    with chainer.using_config('train', False), pytest.raises(AssertionError, match='fixed'):
        F.batch_renormalization(numpy.ones((2, 3)), numpy.ones(3), numpy.zeros(3), 1, 0,
                                running_mean=numpy.zeros(3), running_var=numpy.ones(3))


@testing.parameterize(*testing.product({'dtype': [numpy.float16, numpy.float32,
                                                  numpy.float64]}))
class TestFixedBatchRenormalization(testing.FunctionTestCase):

    # float16: the batch statistics are float16 sums
    tolerances = {numpy.float16: ((5e-3, 1e-2), 1e-2)}

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, (4, 3, 2)).astype(self.dtype)
        params = [numpy.random.uniform(lo, hi, 3).astype(self.dtype)
                  for lo, hi in ((.5, 1), (-1, 1), (-1, 1), (.5, 1))]
        return (x,) + tuple(params)

    def forward(self, inputs, device):
        with pytest.warns(DeprecationWarning):
            return F.fixed_batch_renormalization(*inputs),

    def forward_expected(self, inputs):
        x, gamma, beta, mean, var = (a.astype(numpy.float64) for a in inputs)
        e = (None, slice(None), None)
        y = gamma[e] * (x - mean[e]) / numpy.sqrt(var[e] + 2e-5) + beta[e]
        return y.astype(self.dtype),
