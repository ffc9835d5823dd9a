import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*(
    testing.product({
        'case': [
            ('ij,jk->ik', [(2, 3), (3, 4)]),     # matrix product
            ('ij,jk', [(2, 3), (3, 4)]),         # implicit output
            ('ii', [(3, 3)]),                    # trace
            ('ii->i', [(3, 3)]),                 # diagonal
            ('iij->ji', [(2, 2, 3)]),            # partial diagonal, transposed
            ('ij->i', [(2, 3)]),                 # sum over an axis only one operand has
            ('i,j->ij', [(2,), (3,)]),           # outer product
            ('...j,...k,jkl', [(3, 4), (3, 5), (4, 5, 6)]),  # batched bilinear form
            ('bij,bjk->bik', [(2, 3, 4), (1, 4, 5)]),        # broadcast batch axis
            ('i...,i...->...', [(2, 3, 4), (2, 4)]),         # ellipsis of different lengths
            ('ij,ij', [(2, 1), (2, 3)]),         # a named axis of length one broadcasts
            ('ba', [(2, 3)]),                    # implicit output is sorted
            ('', [()]),                          # 0-d operand
        ],
        'dtype': [numpy.float32],
    })
    + testing.product({
        'case': [('ij,jk->ik', [(2, 3), (3, 4)]), ('i,i', [(0,), (0,)])],
        'dtype': [numpy.float16, numpy.float64],
    })
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestEinSum(testing.FunctionTestCase):

    # float16: dot products of several float16 terms
    tolerances = {numpy.float16: (5e-3, (1e-2, 5e-2), (5e-2, 1e-1))}

    def generate_inputs(self):
        return tuple(numpy.random.uniform(-1, 1, s).astype(self.dtype) for s in self.case[1])

    def forward(self, inputs, device):
        return F.einsum(self.case[0], *inputs),

    def forward_expected(self, inputs):
        y = numpy.einsum(self.case[0], *[x.astype(numpy.float64) for x in inputs])
        return numpy.asarray(y, self.dtype),


def test_sublist_format():
    x1 = numpy.random.uniform(-1, 1, (3, 4))
    x2 = numpy.random.uniform(-1, 1, (3, 5))
    w = numpy.random.uniform(-1, 1, (4, 5, 6))
    expected = numpy.einsum('ij,ik,jkl->il', x1, x2, w)
    y = F.einsum(x1, [0, 1], x2, [0, 2], w, [1, 2, 3], [0, 3])
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-12)
    y = F.einsum(x1, [Ellipsis, 1], x2, [Ellipsis, 2], w, [1, 2, 3])
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-12)


@pytest.mark.parametrize('args', [
    ('ij,jk', (2, 3)),            # fewer operands than subscripts
    ('i...->i', (2, 3)),          # "..." axes must reach the output
    ('ij->k', (2, 3)),            # output letter nowhere in the inputs
    ('i%', (2, 3)),               # not a letter
    ('ij->ii', (2, 2)),           # repeated output letter
])
def test_value_errors(args):
    with pytest.raises(ValueError):
        F.einsum(args[0], *[numpy.ones(s, numpy.float32) for s in args[1:]])


@pytest.mark.parametrize('args,words', [
    (('ij,jk', (2, 3), (4, 5)), 'x0.shape[1] == x1.shape[0]'),    # lengths of j differ
    (('ii', (2, 3)), 'x0.shape[0] == x0.shape[1]'),               # a non-square diagonal
])
def test_letter_lengths(args, words):
    # InvalidType in Chainer's words, against the letter's first appearance
    with pytest.raises(type_check.InvalidType) as info:
        F.einsum(args[0], *[numpy.ones(s, numpy.float32) for s in args[1:]])
    assert f'Expect: {words}' in str(info.value)


def test_type_errors():
    with pytest.raises(type_check.InvalidType, match='EinSum'):
        F.einsum('ij', numpy.ones(2, numpy.float32))
    with pytest.raises(type_check.InvalidType, match='EinSum'):
        F.einsum('ij', numpy.ones((2, 3), numpy.int32))
    with pytest.raises(TypeError):
        F.einsum(numpy.ones(2, numpy.float32), ['i'])
