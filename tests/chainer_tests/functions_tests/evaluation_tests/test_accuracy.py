import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product_dict(
    [{'x_shape': (10, 3), 't_shape': (10,)},
     {'x_shape': (10, 3, 1), 't_shape': (10,)},
     {'x_shape': (6, 3, 4), 't_shape': (6, 4)},
     {'x_shape': (6, 3, 2, 2, 1), 't_shape': (6, 2, 2)}],
    testing.product({
        'ignore_label': [None, 0, -1],
        'all_ignored': [False, True],
        'dtype': [numpy.float16, numpy.float32, numpy.float64],
        'label_dtype': [numpy.int8, numpy.int64],
    }),
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestAccuracy(testing.FunctionTestCase):

    skip_backward_test = True
    skip_double_backward_test = True

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.x_shape).astype(self.dtype)
        t = numpy.random.randint(0, 3, self.t_shape).astype(self.label_dtype)
        if self.ignore_label is not None:
            t[t == 2] = self.ignore_label
            if self.all_ignored:
                t[...] = self.ignore_label
        return x, t

    def forward(self, inputs, device):
        return F.accuracy(*inputs, ignore_label=self.ignore_label),

    def forward_expected(self, inputs):
        x, t = inputs
        pred = x.reshape(x.shape[:2] + t.shape[1:]).argmax(axis=1)
        keep = numpy.ones(t.shape, bool) if self.ignore_label is None else t != self.ignore_label
        acc = (pred == t)[keep].mean() if keep.any() else 0.
        return numpy.asarray(acc, self.dtype),


def test_returns_a_variable_of_the_input_dtype():
    y = F.accuracy(numpy.zeros((2, 3), 'e'), numpy.zeros(2, 'i'))
    assert isinstance(y, chainer.Variable) and y.dtype == numpy.float16 and y.shape == ()


@pytest.mark.parametrize('x_shape, t_shape', [
    ((10, 3), (4,)), ((10, 3, 2), (10,)), ((10, 3, 4), (10, 5)), ((10, 3, 5, 2), (10, 5)),
])
def test_invalid_shapes(x_shape, t_shape):
    with pytest.raises(type_check.InvalidType, match='Accuracy'):
        F.accuracy(numpy.zeros(x_shape, 'f'), numpy.zeros(t_shape, 'i'))


def test_bad_labels():
    x = numpy.zeros((3, 4), 'f')
    with pytest.raises(type_check.InvalidType, match='Accuracy'):
        F.accuracy(x, numpy.zeros(3, 'f'))
    # Chainer 7 counted an out-of-range label as a miss; it is refused here.
    with pytest.raises(ValueError, match='accuracy: label 4 in t'):
        F.accuracy(x, numpy.array([0, 4, 1], 'i'))
    with pytest.raises(ValueError, match='accuracy: label -1 in t'):
        F.accuracy(x, numpy.array([0, -1, 1], 'i'))
    F.accuracy(x, numpy.array([0, -1, 1], 'i'), ignore_label=-1)
