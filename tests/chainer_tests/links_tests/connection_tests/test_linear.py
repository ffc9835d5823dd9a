import numpy
import pytest

import chainer
from chainer import initializers
import chainer.links as L
from chainer.links.connection import linear
from chainer import testing


@testing.parameterize(*testing.product({
    'x_shape': [(4, 3), (4, 1, 3)],
    'in_size': [3, None],
    'nobias': [False, True],
    'dtype': [numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestLinear(testing.LinkTestCase):

    def setUp(self):
        self.param_names = ('W',) if self.nobias else ('W', 'b')

    def generate_params(self):
        W = numpy.random.uniform(-1, 1, (2, 3)).astype(self.dtype)
        b = numpy.random.uniform(-1, 1, 2).astype(self.dtype)
        return W, b

    def create_link(self, initializers):
        W, b = initializers
        # An array initializer fills a parameter of the configured dtype, as in Chainer.
        with chainer.using_config('dtype', self.dtype):
            link = L.Linear(self.in_size, 2, nobias=self.nobias, initialW=W, initial_bias=b)
            if self.in_size is None:
                link(numpy.zeros((1, 3), self.dtype))     # sizes the lazy weight
        assert link.W.dtype == self.dtype
        return link

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.x_shape).astype(self.dtype),

    def forward_expected(self, link, inputs):
        x, = inputs
        y = x.reshape(len(x), -1) @ link.W.array.T
        if not self.nobias:
            y = y + link.b.array
        return y.astype(self.dtype),


@testing.parameterize(*testing.product({'in_size': [3, None]}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestLinearInitializers(testing.LinkInitializersTestCase):

    param_names = ('W', 'b')

    def generate_params(self):
        return None, None

    def create_link(self, initializers):
        W, b = initializers
        return L.Linear(self.in_size, 2, initialW=W, initial_bias=b)

    def generate_inputs(self):
        # The harness calls the link once: a lazy Linear gets in_size 3 here.
        return numpy.zeros((1, 3), numpy.float32),

    def get_initializers(self):
        return ([initializers.Constant(1.5), 2.0, numpy.ones((2, 3), numpy.float32),
                 testing.InitializerArgument(None, initializers.LeCunNormal())],
                [initializers.Constant(0.5), 3.0,
                 testing.InitializerArgument(None, 0)])


def test_specs_and_module():
    assert L.Linear is linear.Linear
    assert L.Linear.__module__ == 'chainer.links.connection.linear'
    assert list(L.Linear(4).printable_specs) == [
        ('in_size', None), ('out_size', 4), ('nobias', False)]
    assert L.Linear(2, 3, nobias=True).b is None


def test_float16_config():
    with chainer.using_config('dtype', numpy.float16):
        lin = L.Linear(2, 3)
    assert lin.W.dtype == numpy.float16 and lin.b.dtype == numpy.float16


def test_forget_gives_parameter_gradients():
    lin = L.Linear(None, 4)
    lin.cleargrads()
    x = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    chainer.functions.sum(chainer.functions.forget(lin, x)).backward()
    assert lin.W.grad is not None and lin.b.grad is not None
    numpy.testing.assert_allclose(lin.b.grad, [2, 2, 2, 2])


def test_bad_input_size():
    with pytest.raises(chainer.utils.type_check.InvalidType):
        L.Linear(3, 2)(numpy.ones((1, 4), numpy.float32))
