"""Converters of ``chainer.functions.rnn``.

The ``n_step_*`` functions are Python functions over smaller FunctionNodes; during an export
each runs as one node (``mapping.patch_functions`` wraps them with ``fake_as_funcnode``),
converted here to one ONNX ``RNN``, ``GRU`` or ``LSTM`` per layer. ``F.lstm`` (one step, the
function ``L.LSTM`` applies at each call) is written out elementwise.
"""
import numpy

import chainer

from onnx_chainer import onnx_helper
from onnx_chainer.functions._common import in_shape
from onnx_chainer.functions._registry import converts
from onnx_chainer.functions.array import get_slice_node
from onnx_chainer.functions.array import pad_node
from onnx_chainer.functions.opset_version import support  # NOQA

# The order of Chainer's weights of one cell in ONNX's gate order. Chainer's GRU has w0-w2 on
# the input (reset, update, new) and w3-w5 on the state, ONNX's orders update, reset, new;
# Chainer's LSTM has w0-w3 on the input (input, forget, cell, output gate) and w4-w7 on the
# state, ONNX's orders input, output, forget, cell.
_GATES = {
    'RNN': ((0,), (1,)),
    'GRU': ((1, 0, 2), (4, 3, 5)),
    'LSTM': ((0, 3, 1, 2), (4, 7, 5, 6)),
}
_N_WEIGHTS = {'RNN': 2, 'GRU': 6, 'LSTM': 8}


def _count(value):
    if isinstance(value, chainer.Variable):
        return 1
    if isinstance(value, (list, tuple)):
        return sum(_count(v) for v in value)
    return 0


def _split_inputs(func, input_names):
    # ``(first input position, input names)`` of each positional argument of the wrapped call.
    out, k = [], 0
    for arg in func.args:
        n = _count(arg)
        out.append((k, input_names[k:k + n]))
        k += n
    return out


def _initial_state(gb, context, func, position, names, n_layers):
    """Per layer, the initial state given by the inputs ``names`` (a ``(n_dirs, B, H)`` slice
    each), or None for every layer when it is absent or a constant of zeros (ONNX's
    default)."""
    if not names:
        return [None] * n_layers
    value = context.constant_value(func.inputs[position])
    if value is not None and not numpy.asarray(value).any():
        return [None] * n_layers
    if n_layers == 1:
        return [names[0]]
    return list(gb.op('Split', names, num_outputs=n_layers, axis=0))


def _sequence(gb, context, func, position, x_names, opset_version):
    """The input sequence ``(T, B, in)`` from Chainer's time-major list of ``(B_t, in)``
    arrays, and ``(lengths constant, [B_t])`` when ``B_t`` decreases (shorter sequences are
    padded with zeros), else None."""
    packed = context.unpacked_source(x_names, axis=0)
    if packed is not None:
        return packed, None
    sizes = [in_shape(func, position + t)[0] for t in range(len(x_names))]
    batch = sizes[0]
    steps = []
    for name, size in zip(x_names, sizes):
        if size < batch:
            name = pad_node(gb, opset_version, context, name, [0, 0, batch - size, 0])
        steps.append(gb.op('Unsqueeze', [name], axes=[0]))
    x = gb.op('Concat', steps, axis=0) if len(steps) > 1 else steps[0]
    if sizes[-1] == batch:
        return x, None
    lengths = numpy.array([sum(1 for s in sizes if s > b) for b in range(batch)], numpy.int32)
    return x, (context.add_const(lengths, 'sequence_lens'), sizes)


def _stack_weights(gb, names, order, n_dirs):
    # ONNX's ``[n_dirs, gates * H, in]`` from each direction's Chainer weights.
    per_dir = []
    for d in range(n_dirs):
        w = names[d]
        per_dir.append(gb.op('Unsqueeze', [gb.op('Concat', [w[i] for i in order], axis=0)],
                             axes=[0]))
    return per_dir[0] if n_dirs == 1 else gb.op('Concat', per_dir, axis=0)


def _n_step(kind, bidirectional, func, opset_version, input_names, output_names, context):
    n_layers = func.args[0]
    n_states = 2 if kind == 'LSTM' else 1
    n_dirs = 2 if bidirectional else 1
    parts = _split_inputs(func, input_names)
    ws = func.args[2 + n_states]
    hidden = ws[0][0].shape[0]
    n_w = _N_WEIGHTS[kind]
    w_names, b_names = parts[2 + n_states][1], parts[3 + n_states][1]
    cells_w = [w_names[n_w * i:n_w * i + n_w] for i in range(n_layers * n_dirs)]
    cells_b = [b_names[n_w * i:n_w * i + n_w] for i in range(n_layers * n_dirs)]
    w_order, r_order = _GATES[kind]

    gb = onnx_helper.GraphBuilder()
    states = [_initial_state(gb, context, func, parts[2 + s][0], parts[2 + s][1], n_layers)
              for s in range(n_states)]
    x_position, x_names = parts[4 + n_states]
    x, lengths = _sequence(gb, context, func, x_position, x_names, opset_version)
    attrs = {'hidden_size': hidden}
    if bidirectional:
        attrs['direction'] = 'bidirectional'
    if kind == 'GRU':
        attrs['linear_before_reset'] = 1
    if kind == 'RNN':
        act = {'tanh': 'Tanh', 'relu': 'Relu'}[getattr(func, 'activation', 'tanh')]
        attrs['activations'] = [act] * n_dirs
    finals = [[] for _ in range(n_states)]
    for layer in range(n_layers):
        cw = cells_w[layer * n_dirs:(layer + 1) * n_dirs]
        cb = cells_b[layer * n_dirs:(layer + 1) * n_dirs]
        inputs = [x, _stack_weights(gb, cw, w_order, n_dirs),
                  _stack_weights(gb, cw, r_order, n_dirs),
                  _stack_weights(gb, cb, w_order + r_order, n_dirs),
                  lengths[0] if lengths else '']
        inputs += [states[s][layer] or '' for s in range(n_states)]
        while inputs[-1] == '':
            inputs.pop()
        # With one layer, the final states are the function's outputs themselves.
        y = gb.node_name()
        outs = [y] + [output_names[s] if n_layers == 1 else '{}_{}'.format(y, s + 1)
                      for s in range(n_states)]
        gb.op_output_named(kind, inputs, outs, **attrs)
        for s in range(n_states):
            finals[s].append(outs[1 + s])
        # (T, n_dirs, B, H) -> (T, B, n_dirs * H), the next layer's input.
        if bidirectional:
            y = gb.op('Transpose', [y], perm=[0, 2, 1, 3])
            x = gb.op('Reshape', [y, context.add_const(
                numpy.array([0, 0, -1], numpy.int64), 'shape')])
        else:
            x = gb.op('Squeeze', [y], axes=[1])
    if n_layers > 1:
        for s in range(n_states):
            gb.op_output_named('Concat', finals[s], [output_names[s]], axis=0)
    _split_steps(gb, context, opset_version, x, output_names[n_states:], lengths)
    return gb.nodes()


def _split_steps(gb, context, opset_version, y, names, lengths):
    # Chainer's time-major list of outputs: one (B_t, H) slice of ``y`` per step.
    if len(names) == 1:
        steps = [y]
    else:
        steps = gb.op('Split', [y], num_outputs=len(names), axis=0)
    for t, (step, name) in enumerate(zip(steps, names)):
        if lengths is not None and lengths[1][t] < lengths[1][0]:
            step = get_slice_node(gb, opset_version, context, [step], [1], [0],
                                  [lengths[1][t]], [1])
        gb.op_output_named('Squeeze', [step], [name], axes=[0])
    if lengths is None:
        context.set_packed(names, y, axis=0)


def _register_n_step(name, kind, bidirectional):
    @converts(name, opsets=(7, 10, 11))
    def convert(func, opset_version, input_names, output_names, context):
        return _n_step(kind, bidirectional, func, opset_version, input_names, output_names,
                       context)
    convert.__name__ = convert.__qualname__ = 'convert_' + name
    convert.__doc__ = 'Chainer\'s ``{}`` as ONNX ``{}`` nodes, one per layer.'.format(name, kind)
    globals()[convert.__name__] = convert


for _name, _kind, _bi in (('n_step_rnn', 'RNN', False), ('n_step_birnn', 'RNN', True),
                          ('n_step_gru', 'GRU', False), ('n_step_bigru', 'GRU', True),
                          ('n_step_lstm', 'LSTM', False), ('n_step_bilstm', 'LSTM', True)):
    _register_n_step(_name, _kind, _bi)
del _name, _kind, _bi


@converts('LSTM', opsets=(7, 10))
def convert_LSTM(func, opset_version, input_names, output_names, context):
    """One LSTM step: ``x``'s channels hold the gates interleaved (``a, i, f, o`` for each
    unit); ``c = tanh(a) sigmoid(i) + sigmoid(f) c_prev``, ``h = sigmoid(o) tanh(c)``. Rows
    of ``c_prev`` beyond ``x``'s batch pass through unchanged, as in Chainer."""
    c_prev, x = input_names
    c_shape, x_shape = in_shape(func, 0), in_shape(func, 1)
    units = x_shape[1] // 4
    gb = onnx_helper.GraphBuilder()
    gates_shape = context.add_const(
        numpy.array([0, units, 4] + list(x_shape[2:]), numpy.int64), 'gates_shape')
    gates = gb.op('Reshape', [x, gates_shape])
    a, i, f, o = [gb.op('Squeeze', [g], axes=[2])
                  for g in gb.op('Split', [gates], num_outputs=4, axis=2)]
    rest = None
    if c_shape[0] > x_shape[0]:
        rest = get_slice_node(gb, opset_version, context, [c_prev], [0], [x_shape[0]],
                              [c_shape[0]], [1])
        c_prev = get_slice_node(gb, opset_version, context, [c_prev], [0], [0],
                                [x_shape[0]], [1])
    c_new = [gb.op('Mul', [gb.op('Tanh', [a]), gb.op('Sigmoid', [i])]),
             gb.op('Mul', [gb.op('Sigmoid', [f]), c_prev])]
    if rest is None:
        c = gb.op_output_named('Add', c_new, [output_names[0]])
    else:
        c = gb.op('Add', c_new)
        gb.op_output_named('Concat', [c, rest], [output_names[0]], axis=0)
    gb.op_output_named('Mul', [gb.op('Sigmoid', [o]), gb.op('Tanh', [c])], [output_names[1]])
    return gb.nodes()
