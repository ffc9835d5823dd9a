"""The stacked, variable-length recurrence shared by n_step_rnn, n_step_lstm and n_step_gru.

``xs[t]`` holds time step ``t`` of a mini-batch of sequences: row ``i`` of it
belongs to sequence ``i``, so a step with ``b`` rows advances the states of
sequences ``0 .. b - 1`` and leaves the others as they are (sequences sorted by
decreasing length give decreasing ``b``). Each layer and direction runs as:

* one matrix product for the input side of every time step at once (the
  input projection does not depend on the state), split back per step;
* a Python loop over time steps only, each step vectorised over batch and
  units, built from differentiable functions so double backprop works.

A cell *kind* says what is recurrent: ``prepare(w, b)`` turns one layer's weight
list into parameters, ``project(x, params)`` maps the concatenated inputs of all
steps, and ``step(pre, h, c, params)`` returns the new ``(h, c)`` (``c`` is
``None`` for cells without one).
"""
import chainer
from chainer import variable
from chainer.functions import _checks
from chainer.utils import argument
from chainer.utils import type_check

_RETIRED = {
    'train': 'train argument is not supported anymore. Use chainer.using_config',
    'use_cudnn': 'use_cudnn argument is not supported anymore. Use chainer.using_config',
}


def check_kwargs(name, kwargs):
    """Rejects the options Chainer retired (``train``, ``use_cudnn``) and unknown ones."""
    if kwargs:
        argument.check_unexpected_kwargs(kwargs, **_RETIRED)
        names = ', '.join(repr(k) for k in sorted(kwargs))
        raise TypeError(f'{name}() got unexpected keyword argument(s) {names}')


def _functions():
    return chainer.functions


def linear(x, w, b=None):
    """``x @ w.T + b`` from differentiable pieces."""
    y = _functions().matmul(x, w, transb=True)
    return y if b is None else y + b


class _Rows:
    """The state of one direction: ``live`` (the first ``k`` rows, last
    written by a step) followed by ``rest`` (untouched pieces, in row order).

    A step with ``b`` rows takes the first ``b`` rows: fewer than ``k`` moves the
    tail of ``live`` onto ``rest``; more brings rows back from ``rest``. Only
    split and concat nodes are added, and only when the batch size changes.
    """

    def __init__(self, state):
        self.live = None
        self.k = 0
        self.rest = [state]

    def take(self, b):
        F = _functions()
        if self.live is None and b == 0:
            self.live = self.rest[0][:0]
        elif b < self.k:
            self.live, tail = F.split_axis(self.live, [b], 0)
            self.rest.insert(0, tail)
        elif b > self.k:
            pieces = [] if self.live is None else [self.live]
            need = b - self.k
            while need:
                piece = self.rest.pop(0)
                if len(piece) > need:
                    piece, back = F.split_axis(piece, [need], 0)
                    self.rest.insert(0, back)
                pieces.append(piece)
                need -= len(piece)
            self.live = pieces[0] if len(pieces) == 1 else F.concat(pieces, 0)
        self.k = b
        return self.live

    def final(self):
        pieces = [p for p in [self.live] + self.rest if p is not None and len(p)]
        if not pieces:
            return self.rest[0]
        return pieces[0] if len(pieces) == 1 else _functions().concat(pieces, 0)


def _run_direction(kind, x_all, offsets, batches, h0, c0, params, reverse):
    F = _functions()
    pre = kind.project(x_all, params)
    pres = F.split_axis(pre, offsets, 0) if offsets else (pre,)
    h_rows = _Rows(h0)
    c_rows = None if c0 is None else _Rows(c0)
    ys = [None] * len(batches)
    steps = range(len(batches) - 1, -1, -1) if reverse else range(len(batches))
    for t in steps:
        b = batches[t]
        h = h_rows.take(b)
        c = None if c_rows is None else c_rows.take(b)
        h, c = kind.step(pres[t], h, c, params)
        h_rows.live = h
        if c_rows is not None:
            c_rows.live = c
        ys[t] = h
    return ys, h_rows.final(), (None if c_rows is None else c_rows.final())


def run(kind, name, n_layers, dropout_ratio, hx, cx, ws, bs, xs, use_bi_direction):
    """Runs the stacked recurrence; returns ``(hy, cy, ys)`` (``cy`` is ``None`` without ``cx``).

    The initial states of layer ``l`` and direction ``d`` (0: forward, 1:
    backward) are ``hx[l * n_dirs + d]`` (and ``cx[...]``); a bidirectional
    layer feeds the next one the concatenation ``[forward, backward]`` of its
    outputs along the unit axis.
    """
    F = _functions()
    n_dirs = 2 if use_bi_direction else 1
    if hx is None:
        raise TypeError(f'{name} requires the initial states hx, got None (pass zeros of shape '
                        f'(n_layers * n_dirs, batch, n_units))')
    hx = variable.as_variable(hx)
    cx = None if cx is None else variable.as_variable(cx)
    check_inputs(kind, name, n_layers, n_dirs, hx, cx, ws, bs, xs)
    batches = [len(x) for x in xs]
    offsets = []
    for b in batches[:-1]:
        offsets.append(b + (offsets[-1] if offsets else 0))
    hs = F.separate(hx, 0)
    cs = (None,) * len(hs) if cx is None else F.separate(cx, 0)
    # As in Chainer 7.8.1, every direction of every layer but the first draws its own
    # dropout mask, even at ratio 0, so that seeded runs get the same random stream.
    dropout = chainer.config.train
    x_all = F.concat(xs, 0) if len(xs) > 1 else variable.as_variable(xs[0])
    hy, cy = [], []
    for layer in range(n_layers):
        outs = []
        for d in range(n_dirs):
            i = layer * n_dirs + d
            params = kind.prepare(ws[i], bs[i])
            x_in = F.dropout(x_all, dropout_ratio) if layer > 0 and dropout else x_all
            ys, h, c = _run_direction(kind, x_in, offsets, batches, hs[i], cs[i], params, d == 1)
            outs.append(ys)
            hy.append(h)
            cy.append(c)
        last = layer == n_layers - 1
        if n_dirs == 1:
            ys = outs[0]
            if not last:
                x_all = F.concat(ys, 0) if len(ys) > 1 else ys[0]
        elif last:
            ys = [F.concat(pair, 1) for pair in zip(*outs)]
        else:
            # The next layer only needs the concatenation over all steps.
            x_all = F.concat([F.concat(o, 0) if len(o) > 1 else o[0] for o in outs], 1)
    hy = F.stack(hy)
    cy = None if cx is None else F.stack(cy)
    return hy, cy, tuple(ys)


def _fail(name, expect, actual, detail):
    raise type_check.InvalidType(expect, actual, f'{name}: {detail}\nExpect: {expect}\nActual: '
                                                 f'{actual}')


class InputSizeError(type_check.InvalidType, ValueError):
    """The input width of ``xs`` does not match the first layer's weights.

    Chainer reports this as ``ValueError`` (n_step_rnn, n_step_lstm) or as
    ``InvalidType`` (n_step_gru, from the linear map); this error is both.
    """


def check_inputs(kind, name, n_layers, n_dirs, hx, cx, ws, bs, xs):
    """Checks counts, shapes and dtypes of every argument, naming the offending one."""
    n_w = kind.n_weights
    _checks.arrays_of(name, 'xs', xs)
    if len(xs) == 0:
        raise ValueError(f'{name} requires at least one time step in xs, got an empty sequence')
    n_cells = n_layers * n_dirs
    for label, params in (('ws', ws), ('bs', bs)):
        if len(params) < n_cells:
            raise ValueError(
                f'{name} requires {n_cells} lists in {label} (n_layers={n_layers} x '
                f'{n_dirs} direction(s)), got {len(params)}')
        for i in range(n_cells):
            if n_w is not None and len(params[i]) != n_w:
                raise ValueError(
                    f'{name} requires {n_w} arrays in {label}[{i}], got {len(params[i])}')
    dtype = hx.dtype
    if dtype.kind != 'f':
        _fail(name, 'hx.dtype.kind == f', f'{dtype.kind} != f', 'hx must be a float array')
    if hx.ndim != 3 or hx.shape[0] != n_cells:
        _fail(name, f'hx.shape == ({n_cells}, batch, n_units)', str(hx.shape),
              f'hx must hold one state per layer and direction ({n_cells})')
    if cx is not None and (cx.shape != hx.shape or cx.dtype != dtype):
        _fail(name, f'cx.shape, cx.dtype == {hx.shape}, {dtype}', f'{cx.shape}, {cx.dtype}',
              'cx must match hx')
    max_batch, n_units = hx.shape[1], hx.shape[2]
    in_size = None
    for t, x in enumerate(xs):
        if x.ndim != 2 or x.dtype != dtype:
            _fail(name, f'xs[{t}].ndim == 2 and xs[{t}].dtype == {dtype}',
                  f'{x.ndim}, {x.dtype}', f'xs[{t}] must be a (batch, in_size) matrix like hx')
        if x.shape[0] > max_batch:
            _fail(name, f'xs[{t}].shape[0] <= hx.shape[1]', f'{x.shape[0]} > {max_batch}',
                  f'time step {t} has {x.shape[0]} sequences but hx holds states for '
                  f'{max_batch}; give each sequence a state (sort sequences by decreasing '
                  f'length, xs[0] having them all)')
        if in_size is None:
            in_size = x.shape[1]
    if n_w is not None:
        # (the first step against the weights first, as Chainer checks)
        _check_weights(name, n_w, n_cells, n_dirs, n_units, in_size, dtype, ws, bs)
    for t, x in enumerate(xs):
        if x.shape[1] != in_size:
            _fail(name, f'xs[{t}].shape[1] == xs[0].shape[1]', f'{x.shape[1]} != {in_size}',
                  'every time step must have the same input size')


def _check_weights(name, n_w, n_cells, n_dirs, n_units, in_size, dtype, ws, bs):
    # The first half of each weight list maps the layer input, the second half the state.
    for i in range(n_cells):
        width = in_size if i < n_dirs else n_units * n_dirs
        for j, w in enumerate(ws[i]):
            is_input = j < n_w // 2
            expect = (n_units, width if is_input else n_units)
            if w.shape != expect:
                if i < n_dirs and is_input and w.ndim == 2 and w.shape[0] == n_units:
                    raise InputSizeError(
                        f'xs[t].shape[1] == ws[{i}][{j}].shape[1]', f'{in_size} != {w.shape[1]}',
                        f'{name}: Inconsistent input size in input values and weight '
                        f'parameters: {in_size} != {w.shape[1]} (xs[t].shape[1] and '
                        f'ws[{i}][{j}].shape[1])')
                _fail(name, f'ws[{i}][{j}].shape == {expect}', str(w.shape),
                      f'weight {j} of layer/direction {i} must be {expect} '
                      f'(n_units={n_units} from hx)')
            if w.dtype != dtype:
                _fail(name, f'ws[{i}][{j}].dtype == {dtype}', str(w.dtype),
                      'weights must have the dtype of hx')
        for j, b in enumerate(bs[i]):
            if b.shape != (n_units,) or b.dtype != dtype:
                _fail(name, f'bs[{i}][{j}].shape, dtype == ({n_units},), {dtype}',
                      f'{b.shape}, {b.dtype}', 'biases must be (n_units,) vectors like hx')
