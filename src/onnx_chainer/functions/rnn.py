"""Converters of ``chainer.functions.rnn``.

``n_step_gru`` is a Python function over smaller FunctionNodes; during an export it runs as
one node (``mapping.patch_functions`` wraps it with ``fake_as_funcnode``), converted here to
one ONNX ``GRU`` per layer.
"""
import chainer

from onnx_chainer import onnx_helper
from onnx_chainer.functions._registry import converts
from onnx_chainer.functions.opset_version import support  # NOQA

# Chainer's weights per cell: w0-w2 act on the input (reset, update, new), w3-w5 on the state.
# ONNX's GRU orders the gates update, reset, new.
_GATES_W = (1, 0, 2)
_GATES_R = (4, 3, 5)


def _count(value):
    if isinstance(value, chainer.Variable):
        return 1
    if isinstance(value, (list, tuple)):
        return sum(_count(v) for v in value)
    return 0


def _split_inputs(func, input_names):
    # The input names of each positional argument of the wrapped call.
    out, k = [], 0
    for arg in func.args:
        n = _count(arg)
        out.append(input_names[k:k + n])
        k += n
    return out


@converts('n_step_gru', opsets=(1, 6, 7))
def convert_n_step_gru(func, opset_version, input_names, output_names, context):
    n_layers = func.args[0]
    hx_names, w_names, b_names, x_names = _split_inputs(func, input_names)[2:6]
    ws, bs = func.args[3], func.args[4]
    hidden = ws[0][0].shape[0]
    gb = onnx_helper.GraphBuilder()
    h0 = [None] * n_layers
    if hx_names:
        h0 = gb.op('Split', hx_names, num_outputs=n_layers, axis=0)
        if n_layers == 1:
            h0 = [h0]
    x = gb.op('Concat', [gb.op('Unsqueeze', [name], axes=[0]) for name in x_names], axis=0)
    per_cell_w = [w_names[6 * i:6 * i + 6] for i in range(len(ws))]
    per_cell_b = [b_names[6 * i:6 * i + 6] for i in range(len(bs))]
    last_h = []
    for layer in range(n_layers):
        w, b = per_cell_w[layer], per_cell_b[layer]
        w_in = gb.op('Unsqueeze', [gb.op('Concat', [w[i] for i in _GATES_W], axis=0)],
                     axes=[0])
        w_rec = gb.op('Unsqueeze', [gb.op('Concat', [w[i] for i in _GATES_R], axis=0)],
                      axes=[0])
        bias = gb.op('Unsqueeze', [gb.op('Concat', [b[i] for i in _GATES_W + _GATES_R],
                                          axis=0)], axes=[0])
        inputs = [x, w_in, w_rec, bias]
        if h0[layer] is not None:
            inputs += ['', h0[layer]]
        y, y_h = gb.op('GRU', inputs, num_outputs=2, hidden_size=hidden,
                       linear_before_reset=1)
        x = gb.op('Squeeze', [y], axes=[1])
        last_h.append(y_h)
    steps = gb.op('Split', [x], num_outputs=len(x_names), axis=0)
    if len(x_names) == 1:
        steps = [steps]
    for step, name in zip(steps, output_names[1:]):
        gb.op_output_named('Squeeze', [step], [name], axes=[0])
    gb.op_output_named('Concat', last_h, [output_names[0]], axis=0)
    return gb.nodes()
