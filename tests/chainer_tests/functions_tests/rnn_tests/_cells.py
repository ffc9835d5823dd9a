"""Checks shared by the tests of the LSTM-family cells (lstm, slstm, tree_lstm)."""
import importlib

import numpy
import pytest

import chainer


def check_first_and_second_order_paths_agree(func, input_shapes, output_shapes):
    # Without double backprop a fused gradient node is used; with it, a graph of
    # differentiable functions. Both must give the same first-order gradient.
    args = [numpy.random.uniform(-1, 1, s) for s in input_shapes]
    gys = [chainer.Variable(numpy.random.uniform(-1, 1, s)) for s in output_shapes]
    results = []
    for double in (False, True):
        xs = [chainer.Variable(a) for a in args]
        grads = chainer.grad(list(func(*xs)), xs, gys, enable_double_backprop=double)
        results.append([g.array for g in grads])
    for a, b in zip(*results):
        numpy.testing.assert_allclose(a, b, rtol=1e-12)


def check_module_path(module_name, func_name, node_name):
    # Chainer 7.8.1 keeps the cells in chainer.functions.rnn only.
    rnn = importlib.import_module(f'chainer.functions.rnn.{module_name}')
    assert getattr(rnn, func_name) is getattr(chainer.functions, func_name)
    assert issubclass(getattr(rnn, node_name), chainer.FunctionNode)
    assert issubclass(getattr(rnn, node_name + 'Grad'), chainer.FunctionNode)
    with pytest.raises(ImportError):
        importlib.import_module(f'chainer.functions.activation.{module_name}')
