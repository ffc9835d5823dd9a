import numpy
import pytest

from chainer.utils import precision


class _Node:
    @precision._fp16_mixed_precision_helper
    def forward(self, inputs):
        self.seen = ''.join(x.dtype.char for x in inputs)
        return numpy.zeros(1, 'f'), numpy.zeros(1, 'd'), numpy.zeros(1, 'i'), numpy.zeros(1, 'e')


@pytest.mark.parametrize('given, seen, out', [
    ('e', 'f', 'edie'),
    ('ee', 'ff', 'edie'),
    ('ie', 'if', 'edie'),
    ('f', 'f', 'fdie'),
    ('ef', 'ff', 'fdie'),
    ('de', 'df', 'fdie'),
    # No float32/float64 input: float32 results go back to float16.
    ('i', 'i', 'edie'),
])
def test_inputs_and_outputs(given, seen, out):
    node = _Node()
    outputs = node.forward(tuple(numpy.ones(1, c) for c in given))
    assert node.seen == seen
    assert ''.join(y.dtype.char for y in outputs) == out


def test_keeps_values_and_name():
    class N:
        @precision._fp16_mixed_precision_helper
        def forward(self, inputs):
            x, = inputs
            return x * 2,
    y, = N().forward((numpy.array([1.5], numpy.float16),))
    assert y.dtype == numpy.float16 and y[0] == 3
    assert N.forward.__name__ == 'forward'


def test_none_passes_through():
    class N:
        @precision._fp16_mixed_precision_helper
        def forward(self, inputs):
            return inputs
    x = numpy.ones(1, 'e')
    y, z = N().forward((x, None))
    assert y.dtype == numpy.float16 and z is None
