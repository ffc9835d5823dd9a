"""What the tests of n_step_rnn, n_step_lstm and n_step_gru share.

Each test module gives a NumPy cell ``cell(x, h, c, w, b) -> (h, c)`` (float64,
written out gate by gate); :func:`reference` runs it by explicit loops over
layers, directions and time steps, updating only the first ``len(xs[t])`` rows
of each state at step ``t``.
"""
import numpy

import chainer
from chainer import testing


def sigmoid(x):
    return 1 / (1 + numpy.exp(-x))


def reference(cell, n_layers, n_dirs, hx, cx, ws, bs, xs):
    """Returns ``(hy, cy, ys)`` computed step by step in float64."""
    h = hx.astype(numpy.float64)
    c = None if cx is None else cx.astype(numpy.float64)
    inputs = [x.astype(numpy.float64) for x in xs]
    ws = [[w.astype(numpy.float64) for w in layer] for layer in ws]
    bs = [[b.astype(numpy.float64) for b in layer] for layer in bs]
    steps = len(inputs)
    for layer in range(n_layers):
        outs = []
        for d in range(n_dirs):
            i = layer * n_dirs + d
            ys = [None] * steps
            for t in (range(steps) if d == 0 else reversed(range(steps))):
                b = len(inputs[t])
                c_prev = None if c is None else c[i, :b]
                h_new, c_new = cell(inputs[t], h[i, :b], c_prev, ws[i], bs[i])
                h[i, :b] = h_new
                if c is not None:
                    c[i, :b] = c_new
                ys[t] = h_new
            outs.append(ys)
        inputs = [numpy.concatenate(parts, axis=1) for parts in zip(*outs)]
    return h, c, inputs


def make_params(n_layers, n_dirs, n_weights, in_size, n_units, dtype):
    """Random ``ws`` and ``bs``: the first half of each weight list maps the layer input."""
    ws, bs = [], []
    for i in range(n_layers * n_dirs):
        width = in_size if i < n_dirs else n_units * n_dirs
        ws.append([numpy.random.uniform(-1, 1, (n_units, width if j < n_weights // 2 else n_units))
                   .astype(dtype) for j in range(n_weights)])
        bs.append([numpy.random.uniform(-1, 1, n_units).astype(dtype) for _ in range(n_weights)])
    return ws, bs


# Cases shared by the three test modules: layers, time-step batch sizes, hx batch.
CASES = [
    {'n_layers': 1, 'batches': (3, 2, 1), 'hx_batch': 3},
    {'n_layers': 2, 'batches': (2, 2), 'hx_batch': 2},
    {'n_layers': 2, 'batches': (1, 3, 2), 'hx_batch': 4},   # unsorted; rows never used
    {'n_layers': 3, 'batches': (1,), 'hx_batch': 1},
]


class NStepTestCase(testing.FunctionTestCase):
    """Flattens ``(hx, [cx], xs, ws, bs)`` into the harness's input tuple and back.

    A subclass sets ``n_weights``, ``has_cell``, ``cell(x, h, c, w, b)`` (the NumPy step) and
    ``call(hx, cx, ws, bs, xs)`` (the function under test, returning its usual
    tuple); parameterization gives ``n_layers``, ``batches``, ``hx_batch``,
    ``bi`` and ``dtype``.
    """

    in_size = 3
    n_units = 2
    has_cell = False

    check_backward_options = {'atol': 1e-4, 'rtol': 1e-3}
    check_double_backward_options = {'atol': 1e-3, 'rtol': 1e-2}
    # float16: the recurrence compounds float16 rounding over layers and steps
    tolerances = {numpy.float16: (1e-2, 5e-2, 5e-2)}

    @property
    def n_dirs(self):
        return 2 if self.bi else 1

    def generate_inputs(self):
        shape = (self.n_layers * self.n_dirs, self.hx_batch, self.n_units)
        states = [numpy.random.uniform(-1, 1, shape).astype(self.dtype)
                  for _ in range(2 if self.has_cell else 1)]
        xs = [numpy.random.uniform(-1, 1, (b, self.in_size)).astype(self.dtype)
              for b in self.batches]
        ws, bs = make_params(self.n_layers, self.n_dirs, self.n_weights, self.in_size,
                             self.n_units, self.dtype)
        return tuple(states + xs + sum(ws, []) + sum(bs, []))

    def split_inputs(self, inputs):
        n_states = 2 if self.has_cell else 1
        hx = inputs[0]
        cx = inputs[1] if self.has_cell else None
        steps = len(self.batches)
        xs = list(inputs[n_states:n_states + steps])
        flat = inputs[n_states + steps:]
        n_cells, n_w = self.n_layers * self.n_dirs, self.n_weights
        ws = [list(flat[i * n_w:(i + 1) * n_w]) for i in range(n_cells)]
        flat = flat[n_cells * n_w:]
        bs = [list(flat[i * n_w:(i + 1) * n_w]) for i in range(n_cells)]
        return hx, cx, ws, bs, xs

    def forward(self, inputs, device):
        out = self.call(*self.split_inputs(inputs))
        return tuple(out[:-1]) + tuple(out[-1])

    def forward_expected(self, inputs):
        hx, cx, ws, bs, xs = self.split_inputs(inputs)
        hy, cy, ys = reference(self.cell, self.n_layers, self.n_dirs, hx, cx, ws, bs, xs)
        outs = [hy] + ([cy] if self.has_cell else []) + ys
        return tuple(y.astype(self.dtype) for y in outs)


def random_call_args(n_weights, n_layers=2, n_dirs=1, batches=(3, 2), in_size=3, n_units=2,
                     hx_batch=None, dtype=numpy.float32):
    """``hx, cx, ws, bs, xs`` as arrays, for the tests of single behaviours."""
    shape = (n_layers * n_dirs, hx_batch or max(batches), n_units)
    hx = numpy.random.uniform(-1, 1, shape).astype(dtype)
    cx = numpy.random.uniform(-1, 1, shape).astype(dtype)
    xs = [numpy.random.uniform(-1, 1, (b, in_size)).astype(dtype) for b in batches]
    ws, bs = make_params(n_layers, n_dirs, n_weights, in_size, n_units, dtype)
    return hx, cx, ws, bs, xs


def graph_function_names(outputs):
    """Names of the FunctionNodes that produced ``outputs``."""
    seen, stack, names = set(), [o.creator_node for o in outputs], []
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        names.append(type(node).__name__)
        stack.extend(x.creator_node for x in node.inputs)
    return names


def check_dropout_applies_after_the_first_layer(call, n_weights, dropout_name='Dropout'):
    """Dropout (in training mode only) feeds every layer but the first."""
    args = random_call_args(n_weights, n_layers=2)
    if not hasattr(chainer.functions, 'dropout'):
        import pytest
        pytest.skip('chainer.functions.dropout is not available')
    with chainer.using_config('train', False):
        plain = call(0.9, *args)
    with chainer.using_config('train', True):
        dropped = call(0.9, *args)
    hy0, hy1 = plain[0].array, dropped[0].array
    numpy.testing.assert_array_equal(hy0[0], hy1[0])
    assert not numpy.allclose(hy0[1], hy1[1])
    assert dropout_name in graph_function_names([dropped[0]])
    # At ratio 0 the masks are still drawn (as in Chainer, for the same random stream),
    # and change nothing.
    with chainer.using_config('train', True):
        state = numpy.random.get_state()
        zero = call(0.0, *args)
        assert numpy.random.get_state()[2] != state[2] or (
            numpy.random.get_state()[1] != state[1]).any()
    numpy.testing.assert_allclose(zero[0].array, hy0, rtol=1e-6, atol=1e-6)
