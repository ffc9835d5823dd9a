"""Names that Chainer 7.8.1 defines in the function modules (FunctionNode classes and helpers
that users and Chainer's tests import) exist at the same paths here."""
import importlib

import numpy
import pytest

import chainer
from chainer import utils

_NAMES = {
    'activation.prelu': 'PReLUFunction PReLUFunctionGrad prelu',
    'activation.swish': 'Swish SwishGrad swish',
    'array.as_strided': 'AsStrided AsStridedGrad TensorGeometry as_strided _stride_array',
    'array.flip': 'Flip flip _flip',
    'array.select_item': 'SelectItem Assign select_item',
    'math.einsum': 'EinSum DiagEinSum einsum',
    'math.minmax': 'SelectorBase IndexSelectorBase Max Min ArgMax ArgMin max min argmax argmin',
    'math.sparse_matmul': 'CooMatMul CooMatMulGradSP sparse_matmul',
    'rnn.lstm': 'LSTM LSTMGrad lstm',
    'rnn.slstm': 'SLSTM SLSTMGrad slstm',
    'rnn.tree_lstm': 'TreeLSTM TreeLSTMGrad tree_lstm',
}


@pytest.mark.parametrize('module, names', sorted(_NAMES.items()))
def test_names_at_chainer_paths(module, names):
    mod = importlib.import_module('chainer.functions.' + module)
    for name in names.split():
        value = getattr(mod, name)
        if name[:1].isupper() and name.endswith(('Grad', 'SP', 'Sum', 'Mul', 'Base', 'Assign')):
            assert issubclass(value, chainer.FunctionNode), name


def test_select_item_assign_places_rows():
    from chainer.functions.array.select_item import Assign
    t = numpy.array([2, 0], numpy.int32)
    y, = Assign((2, 3), numpy.float32, t).apply((numpy.array([5., 7.], numpy.float32),))
    numpy.testing.assert_array_equal(y.array, [[0, 0, 5], [7, 0, 0]])


def test_diag_einsum_fills_the_diagonal_and_takes_it_back():
    from chainer.functions.math.einsum import DiagEinSum, EinSum
    a = chainer.Variable(numpy.arange(6, dtype=numpy.float64).reshape(2, 3))
    b = chainer.Variable(numpy.arange(3, dtype=numpy.float64))
    y, = DiagEinSum('ij,j', 'iij', (2, 2, 3)).apply((a, b))
    expected = numpy.zeros((2, 2, 3))
    expected[[0, 1], [0, 1]] = a.array * b.array
    numpy.testing.assert_array_equal(y.array, expected)
    chainer.gradient_check.check_backward(
        lambda p, q: DiagEinSum('ij,j', 'iij', (2, 2, 3)).apply((p, q)),
        (a.array, b.array), numpy.random.uniform(-1, 1, (2, 2, 3)))
    # Chainer's EinSum takes the input subscripts joined by commas.
    z, = EinSum('ij,jk', 'ik').apply((numpy.ones((2, 3)), numpy.ones((3, 2))))
    numpy.testing.assert_array_equal(z.array, numpy.full((2, 2), 3.))


def test_sparse_matmul_builds_one_coo_node_for_either_order():
    from chainer.functions.math.sparse_matmul import CooMatMul
    sp = utils.to_coo(numpy.eye(2, dtype=numpy.float32))
    d = numpy.ones((2, 2), numpy.float32)
    for y in (chainer.functions.sparse_matmul(sp, d), chainer.functions.sparse_matmul(d, sp)):
        assert isinstance(y.creator, CooMatMul)
    assert chainer.functions.sparse_matmul(d, sp).creator.transc
