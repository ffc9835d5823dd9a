import numpy

import chainer
import chainer.links as L
from chainer import testing


@testing.parameterize(*testing.product({
    'ignore_label': [None, 1],
    'dtype': [numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestEmbedID(testing.LinkTestCase):

    param_names = ('W',)
    skip_backward_test = False

    def generate_params(self):
        return numpy.random.uniform(-1, 1, (4, 3)).astype(self.dtype),

    def create_link(self, initializers):
        W, = initializers
        return L.EmbedID(4, 3, initialW=W, ignore_label=self.ignore_label)

    def generate_inputs(self):
        return numpy.array([[0, 1], [3, 1]], numpy.int32),

    def forward_expected(self, link, inputs):
        x, = inputs
        y = link.W.array[x].copy()
        if self.ignore_label is not None:
            y[x == self.ignore_label] = 0
        return y,

    def forward(self, link, inputs, device):
        return link(inputs[0]),


def test_defaults():
    emb = L.EmbedID(10, 4)
    assert emb.W.shape == (10, 4) and emb.W.dtype == numpy.float32
    assert emb.ignore_label is None and str(emb) == 'EmbedID()'
    assert 0.5 < float(emb.W.array.std()) < 1.5     # Normal(scale=1)
    assert L.EmbedID.__module__ == 'chainer.links.connection.embed_id'


def test_gradient_accumulates_per_id():
    emb = L.EmbedID(3, 2, initialW=chainer.initializers.Zero())
    emb.cleargrads()
    chainer.functions.sum(emb(numpy.array([2, 2, 0], numpy.int32))).backward()
    numpy.testing.assert_array_equal(emb.W.grad, [[1, 1], [0, 0], [2, 2]])
