import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import backend
from chainer import testing
from chainer.testing import attr


@testing.parameterize(*testing.product({
    'shape': [(3, 2), (), (0, 3)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestCopy(testing.FunctionTestCase):

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        y = F.copy(inputs[0], device)
        assert y.array is not inputs[0].array
        return y,

    def forward_expected(self, inputs):
        return inputs[0].copy(),


@pytest.mark.parametrize('dst', [-1, '@numpy', backend.CpuDevice()])
def test_copy_to_cpu_specifiers(dst):
    x = chainer.Variable(numpy.arange(3, dtype=numpy.float32))
    y = F.copy(x, dst)
    assert isinstance(y.array, numpy.ndarray)
    assert not numpy.shares_memory(x.array, y.array)
    y.grad = numpy.ones(3, numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, numpy.ones(3, numpy.float32))


def test_invalid_device_specifier():
    with pytest.raises(TypeError):
        F.copy(numpy.zeros(2, numpy.float32), 1.5)


@attr.gpu
def test_copy_between_host_and_gpu():
    import cupy

    x = chainer.Variable(numpy.arange(3, dtype=numpy.float32))
    y = F.copy(x, 0)
    assert isinstance(y.array, cupy.ndarray)
    z = F.copy(y * 2, -1)
    assert isinstance(z.array, numpy.ndarray)
    z.grad = numpy.ones(3, numpy.float32)
    z.backward()
    assert isinstance(x.grad, numpy.ndarray)
    numpy.testing.assert_array_equal(x.grad, numpy.full(3, 2, numpy.float32))
