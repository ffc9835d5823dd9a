import io
import warnings

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import function_hooks


def _blocks(text):
    """Splits PrintHook output into one list of lines per report."""
    blocks = []
    for line in text.splitlines():
        if line.startswith('function\t'):
            blocks.append([])
        blocks[-1].append(line)
    return blocks


def test_forward_report():
    out = io.StringIO()
    x = chainer.Variable(numpy.arange(6, dtype=numpy.float32).reshape(2, 3))
    with function_hooks.PrintHook(file=out):
        F.sum(x * 2)
    blocks = _blocks(out.getvalue())
    assert [b[0] for b in blocks] == ['function\t_ * 2.0', 'function\tSum']
    first = blocks[0]
    assert first[1] == 'input data'
    assert '- shape: (2, 3)' in first
    assert '- dtype: float32' in first
    assert any(ln.startswith('- statistics: mean=2.50000000, std=1.707825') for ln in first)
    assert 'output gradient' not in first


def test_backward_report_shows_output_gradients():
    out = io.StringIO()
    x = chainer.Variable(numpy.ones(3, numpy.float32))
    y = F.sum(F.tanh(x * 2))
    with function_hooks.PrintHook(file=out):
        y.backward()
    blocks = _blocks(out.getvalue())
    sum_block = next(b for b in blocks if b[0] == 'function\tSum')
    assert 'output gradient' in sum_block
    after = sum_block[sum_block.index('output gradient'):]
    assert '- shape: ()' in after
    assert '- grad: mean=1.00000000, std=0.00000000' in after
    mul_block = next(b for b in blocks if b[0] == 'function\t_ * 2.0')
    assert '(removed)' in mul_block      # x * 2 keeps no input for backward (Chainer's word)
    tanh_block = next(b for b in blocks if b[0] == 'function\tTanh')
    assert 'output gradient' in tanh_block


def test_missing_output_gradient():
    class TwoOut(chainer.FunctionNode):
        def forward(self, inputs):
            return inputs[0] * 1, inputs[0] * 2

        def backward(self, indexes, grad_outputs):
            return grad_outputs[0],

    out = io.StringIO()
    x = chainer.Variable(numpy.ones(2, numpy.float32))
    y0, _ = TwoOut().apply((x,))
    y0.grad = numpy.ones(2, numpy.float32)
    with function_hooks.PrintHook(file=out):
        y0.backward()
    # The missing gradient is described as an empty variable, as Chainer does.
    blocks = _blocks(out.getvalue())
    block = next(b for b in blocks if b[0] == 'function\tTwoOut')
    after = block[block.index('output gradient'):]
    assert after[-6:] == ['- device: None', '- backend: None', '- shape: None',
                          '- dtype: None', '- statistics: None', '- grad: None']


def test_end_and_flush():
    class Recorder(io.StringIO):
        flushes = 0

        def flush(self):
            self.flushes += 1

    out = Recorder()
    x = chainer.Variable(numpy.ones(1, numpy.float32))
    with function_hooks.PrintHook(end='\n----\n', file=out):
        x * 2
    assert out.getvalue().endswith('\n----\n')
    assert out.flushes == 1
    out = Recorder()
    with function_hooks.PrintHook(file=out, flush=False):
        x * 2
    assert out.flushes == 0


def test_default_file_is_stdout(capsys):
    x = chainer.Variable(numpy.ones(1, numpy.float32))
    with function_hooks.PrintHook():
        x * 2
    assert capsys.readouterr().out.startswith('function\t_ * 2.0\n')


def test_sep_is_deprecated():
    with pytest.warns(DeprecationWarning):
        function_hooks.PrintHook(sep=' ')
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        function_hooks.PrintHook()


def test_name():
    hook = function_hooks.PrintHook()
    assert hook.name == 'PrintHook' and isinstance(hook, chainer.FunctionHook)
