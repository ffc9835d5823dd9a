"""The single backprop engine behind Variable.backward, chainer.backward and chainer.grad.

Function nodes are visited in decreasing rank from a max-heap, so every node's
output gradients are complete before its backward runs. Gradients live in a
table keyed by variable node; an intermediate gradient is dropped as soon as
its consumer has used it (unless ``retain_grad``).
"""
import heapq
import traceback
import warnings

import numpy

import chainer
from chainer import function_hook
from chainer.utils import argument


def _sum(grads):
    if len(grads) == 1:
        return grads[0]
    return chainer.functions.add(*grads)


class _GradTable:
    """Gradients per variable node: a Variable, or a list of them when sums are lazy."""

    __slots__ = ('grads', 'load', 'lazy')

    def __init__(self, load, lazy):
        self.grads = {}
        self.load = load    # start from the gradient the variable already holds
        self.lazy = lazy

    def seed(self, node, g):
        grads = self.grads
        if node in grads:
            cur = grads[node]
            if self.lazy:
                cur.append(g)
            else:
                grads[node] = cur + g
        else:
            grads[node] = [g] if self.lazy else g

    def add(self, node, g):
        grads = self.grads
        if node in grads:
            cur = grads[node]
            if self.lazy:
                cur.append(g)
            else:
                grads[node] = cur + g
            return
        if self.load:
            var = node._variable()
            old = None if var is None else var._grad_var
            if old is not None:
                grads[node] = [old, g] if self.lazy else old + g
                return
        grads[node] = [g] if self.lazy else g

    def pop(self, node):
        g = self.grads.pop(node, None)
        if g is not None and self.lazy:
            g = _sum(g)
        return g

    def get(self, node):
        g = self.grads.get(node)
        if g is not None and self.lazy:
            g = _sum(g)
            self.grads[node] = [g]
        return g


def _as_grad_variable(g, func, index):
    if g is None or isinstance(g, chainer.Variable):
        return g
    if chainer.variable._is_array(g):
        return chainer.Variable(g, requires_grad=False)
    raise TypeError(f'{func.label}: backward must return Variables (or None); gradient for '
                    f'input #{index} is {type(g).__name__}')


def _loaded(node, table):
    if not table.load:
        return None
    var = node._variable()
    return None if var is None else var._grad_var


_ndarray = numpy.ndarray
_accumulates = {}   # FunctionNode subclass -> whether it overrides backward_accumulate


def _overrides_accumulate(cls):
    r = _accumulates.get(cls)
    if r is None:
        r = _accumulates[cls] = (
            cls.backward_accumulate is not chainer.FunctionNode.backward_accumulate)
    return r


def _run(table, start_nodes, retain_grad, restrict=None, reachable=None, keep=()):
    """Backpropagates from ``start_nodes`` (already seeded in ``table``).

    Returns the list of leaf nodes that received a gradient.
    """
    debug = chainer.config.debug
    lazy = table.lazy
    grads = table.grads
    load = table.load
    Variable = chainer.Variable
    fnode_module = chainer.function_node
    heap = []           # (-rank, order pushed, function node)
    pushed = set()
    n_pushed = 0
    push = heapq.heappush
    pop = heapq.heappop

    for node in start_nodes:
        c = node._creator_node
        if c is not None and c not in pushed and (restrict is None or c in restrict):
            pushed.add(c)
            n_pushed += 1
            push(heap, (-c.rank, n_pushed, c))

    leaves = []
    leaf_set = set()
    global_hooks = function_hook.get_function_hooks()
    accumulates = _accumulates
    while heap:
        func = pop(heap)[2]
        inputs = func.inputs
        if inputs is None:      # unchained meanwhile
            continue

        # Gradients of the outputs (complete now: every consumer has higher rank).
        fouts = func.outputs
        if len(fouts) == 1:
            y = fouts[0]()
            if y is None:
                continue
            if y in keep:
                gy = table.get(y)
            elif lazy:
                gy = table.pop(y)
            else:
                gy = grads.pop(y, None)
            if gy is None:
                continue
            gys = (gy,)
            if retain_grad:
                _retain_grads((y,), gys)
        else:
            outs = [r() for r in fouts]
            gys = tuple([None if y is None else (table.get(y) if y in keep else table.pop(y))
                         for y in outs])
            if all(g is None for g in gys):
                continue
            if retain_grad:
                _retain_grads(outs, gys)

        if len(inputs) == 1:
            x = inputs[0]
            if not x._requires_grad or (reachable is not None and x not in reachable):
                continue
            targets = (0,)
        else:
            targets = tuple([i for i, x in enumerate(inputs) if x._requires_grad
                             and (reachable is None or x in reachable)])
            if not targets:
                continue

        hooks = global_hooks
        if hooks or (fnode_module._local_hooks_added and func._n_local_function_hooks):
            hooks = dict(hooks)
            hooks.update(func.local_function_hooks)
            hooks = list(hooks.values())
            in_data = tuple([x.data for x in inputs])
            gy_data = tuple([None if g is None else g.array for g in gys])
            for h in hooks:
                h.backward_preprocess(func, in_data, gy_data)
        try:
            acc = accumulates.get(func.__class__)
            if acc is None:
                acc = _overrides_accumulate(func.__class__)
            if lazy or not acc:
                gxs = func.backward(targets, gys)
                accumulated = False
            else:
                gxs = _backward_accumulate(func, targets, gys, table)
                accumulated = True
            n_targets = len(targets)
            if gxs.__class__ is not tuple or len(gxs) != n_targets:
                gxs = _fix_gradients(func, targets, gxs)
        except Exception as e:
            if debug and func.stack:
                e.add_note(f'{func.label} was called at (most recent call last):\n'
                           + ''.join(traceback.format_list(func.stack)))
            raise
        if hooks:
            for h in hooks:
                h.backward_postprocess(func, in_data, gy_data)

        # (an index loop: cheaper than zip in CPython 3.11 for the usual single gradient)
        k = 0
        while k < n_targets:
            i = targets[k]
            gx = gxs[k]
            k += 1
            x = inputs[i]
            if gx is None:
                if accumulated:
                    grads.pop(x, None)
                continue
            if gx.__class__ is not Variable:
                gx = _as_grad_variable(gx, func, i)
            ga = gx._array
            # (dtype objects of the builtin types are singletons: try `is` first)
            if (ga.__class__ is not _ndarray or ga.shape != x.shape
                    or (ga.dtype is not x.dtype and ga.dtype != x.dtype)):
                chainer.variable.check_grad_type(func, x, True, ga, index=i)
            if debug:
                func._check_nan((ga,), 'backward')
            if accumulated:
                grads[x] = gx
            elif lazy:
                table.add(x, gx)
            elif x in grads:
                grads[x] = grads[x] + gx
            else:
                if load:
                    # Start from the gradient the variable already holds.
                    var = x._variable()
                    if var is not None:
                        old = var._grad_var
                        if old is not None:
                            gx = old + gx
                grads[x] = gx
            c = x._creator_node
            if c is None:
                if x not in leaf_set:
                    x._check_old_style_gradient()
                    leaf_set.add(x)
                    leaves.append(x)
            elif c not in pushed and (restrict is None or c in restrict):
                pushed.add(c)
                n_pushed += 1
                push(heap, (-c.rank, n_pushed, c))
    return leaves


def _retain_grads(outs, gys):
    # retain_grad=True: the output variables that are still alive keep their gradients.
    for y, gy in zip(outs, gys):
        if y is not None:
            var = y._variable()
            if var is not None:
                var._grad_var = gy


def _backward_accumulate(func, targets, gys, table):
    # The node adds the gradients itself: hand it what has been summed so far.
    seen = set()
    gins = []
    for i in targets:
        x = func.inputs[i]
        if x in seen:
            gins.append(None)
        else:
            seen.add(x)
            gins.append(table.pop(x) if x in table.grads else _loaded(x, table))
    return func.backward_accumulate(targets, gys, tuple(gins))


def _fix_gradients(func, targets, gxs):
    if not isinstance(gxs, (tuple, list)):
        raise TypeError(f'{func.label}: backward must return a tuple of gradients, '
                        f'got {type(gxs).__name__}')
    n = len(gxs)
    if n == len(targets):
        return tuple(gxs)
    if n == len(func.inputs):
        return tuple([gxs[i] for i in targets])
    expected = (str(len(targets)) if len(targets) == len(func.inputs)
                else f'{len(targets)} (one per target input) or {len(func.inputs)} '
                     f'(one per input)')
    raise ValueError(f'{func.label}: backward returned {n} gradients, expected {expected}')


def _ones_like(array, loss_scale):
    xp = chainer.backend.get_array_module(array)
    g = xp.ones_like(array)
    if loss_scale is not None:
        g *= loss_scale
    return chainer.Variable(g, requires_grad=False)


def backward_from_variable(var, retain_grad, enable_double_backprop, loss_scale):
    """Implements :meth:`chainer.Variable.backward`."""
    node = var._node
    node._check_old_style_gradient()
    if node._creator_node is None:
        return
    g = var._grad_var
    if g is None:
        if var._array.size != 1:
            return      # nothing to propagate (as Chainer)
        if var._array.ndim != 0:
            warnings.warn(
                'Treating a variable with only one element as a scalar in '
                f'Variable.backward is deprecated (shape {var._array.shape}): reduce it to '
                'a 0-d variable first (e.g. with F.squeeze or F.sum), or set its grad '
                'explicitly.', DeprecationWarning, stacklevel=3)
        g = _ones_like(var._array, loss_scale)
        var._grad_var = g
    _backprop_to_leaves([(node, g)], retain_grad, enable_double_backprop, loss_scale)


def _backprop_to_leaves(seeds, retain_grad, enable_double_backprop, loss_scale):
    with chainer.using_config('enable_backprop', enable_double_backprop):
        table = _GradTable(load=True, lazy=bool(chainer.config.lazy_grad_sum))
        for node, g in seeds:
            table.seed(node, g)
        starts = [n for n, _ in seeds]
        leaves = _run(table, starts, retain_grad)
        # Seeds without a creator (chainer.backward on leaf variables) are leaves too.
        leaves += [n for n in dict.fromkeys(starts)
                   if n._creator_node is None and n not in leaves]
        for x in leaves:
            g = table.pop(x)
            var = x._variable()
            if var is not None:
                var._grad_var = g
                var._loss_scale = loss_scale


def _check_sequence(value, what, allow_none=False):
    if allow_none and value is None:
        return
    if not isinstance(value, (tuple, list)):
        extra = ' or None' if allow_none else ''
        raise TypeError(f'{what} must be a tuple or a list{extra}, not {type(value).__name__}')


def _check_variables(values, what):
    for i, v in enumerate(values):
        if not isinstance(v, chainer.Variable):
            raise TypeError(f'{what}[{i}] must be a Variable, not {type(v).__name__}')


def backward(outputs, grad_outputs=None, **kwargs):
    """Runs backprop from several variables at once.

    Unlike :meth:`Variable.backward`, no output gets a default gradient of 1: an
    output without a gradient is skipped.

    Args:
        outputs (tuple or list of Variable): Where backprop starts.
        grad_outputs (tuple or list): Initial gradients (Variables or arrays), one
            per output; a ``None`` entry skips its output. When ``grad_outputs``
            itself is ``None``, each output's :attr:`~chainer.Variable.grad_var` is
            used (and then reset to ``None``); an output without one is skipped with
            a ``RuntimeWarning``.
        enable_double_backprop (bool): Build the graph of the backward pass.
    """
    enable_double_backprop, = argument.parse_kwargs(
        kwargs, ('enable_double_backprop', False),
        retain_grad='chainer.backward does not support retain_grad; use Variable.backward',
        loss_scale='chainer.backward does not support loss_scale option')
    _check_sequence(outputs, 'outputs')
    _check_variables(outputs, 'outputs')
    _check_sequence(grad_outputs, 'grad_outputs', allow_none=True)
    if grad_outputs is not None and len(grad_outputs) != len(outputs):
        raise ValueError('grad_outputs must have the same length as outputs '
                         f'({len(grad_outputs)} != {len(outputs)})')
    for y in outputs:
        y._node._check_old_style_gradient()
    if grad_outputs is None:
        grad_outputs = []
        for y in outputs:
            gy = y._grad_var
            if gy is None:
                warnings.warn('outputs contains a Variable without grad, or duplicate '
                              'outputs. Note that chainer.backward does not set default '
                              'grad.', RuntimeWarning, stacklevel=2)
            # Taken out of the variable: it seeds the table instead (and a duplicate
            # output then counts once).
            y._grad_var = None
            grad_outputs.append(gy)
    seeds = []
    for y, gy in zip(outputs, grad_outputs):
        if gy is None:
            continue
        if not isinstance(gy, chainer.Variable):
            gy = chainer.Variable(gy, requires_grad=False)
        seeds.append((y._node, gy))
    if seeds:
        _backprop_to_leaves(seeds, False, enable_double_backprop, None)


def _minimal_subgraph(output_nodes, input_nodes):
    """Function nodes on some path from an input to an output, and the nodes they reach."""
    funcs = set()
    todo = [n._creator_node for n in output_nodes if n._creator_node is not None]
    while todo:
        f = todo.pop()
        if f in funcs or f.inputs is None:
            continue
        funcs.add(f)
        for x in f.inputs:
            c = x._creator_node
            if c is not None and c not in funcs:
                todo.append(c)
    reachable = set(input_nodes)
    on_path = set()
    for f in sorted(funcs, key=lambda f: f.rank):
        if any([x in reachable for x in f.inputs]):
            on_path.add(f)
            for r in f.outputs:
                n = r()
                if n is not None:
                    reachable.add(n)
    return on_path, reachable


def grad(outputs, inputs, grad_outputs=None, grad_inputs=None, set_grad=False,
         retain_grad=False, enable_double_backprop=False, loss_scale=None):
    """Computes the gradients of ``outputs`` with respect to ``inputs``.

    Only function nodes lying on a path from some input to some output are
    backpropagated through; nothing is accumulated into ``.grad`` unless
    ``set_grad`` is given.

    Args:
        outputs (tuple or list of Variable): Variables to differentiate.
        inputs (tuple or list of Variable): Variables to differentiate with
            respect to.
        grad_outputs (tuple or list of Variable or None): Gradients of the
            outputs; ``None`` means ones (times ``loss_scale``).
        grad_inputs (tuple or list of Variable or None): Initial values that the
            input gradients are added to.
        set_grad (bool): Also store the results in the inputs' ``grad_var``.
        retain_grad (bool): Keep the gradients of intermediate variables.
        enable_double_backprop (bool): Build the graph of the backward pass so
            the results can be differentiated again.
        loss_scale (float): Scale applied to the default output gradients.

    Returns:
        list of Variable: Gradients of the inputs (``None`` where no path exists).
    """
    _check_sequence(outputs, 'outputs')
    _check_sequence(inputs, 'inputs')
    _check_sequence(grad_outputs, 'grad_outputs', allow_none=True)
    _check_sequence(grad_inputs, 'grad_inputs', allow_none=True)
    _check_variables(outputs, 'outputs')
    _check_variables(inputs, 'inputs')
    if grad_outputs is not None and len(grad_outputs) != len(outputs):
        raise ValueError('grad_outputs must have the same length as outputs '
                         f'({len(grad_outputs)} != {len(outputs)})')
    if grad_inputs is not None and len(grad_inputs) != len(inputs):
        raise ValueError('grad_inputs must have the same length as inputs '
                         f'({len(grad_inputs)} != {len(inputs)})')
    for y in outputs:
        y._node._check_old_style_gradient()

    with chainer.using_config('enable_backprop', enable_double_backprop):
        table = _GradTable(load=False, lazy=bool(chainer.config.lazy_grad_sum))
        input_nodes = [x._node for x in inputs]
        if grad_inputs is not None:
            for x, gx in zip(input_nodes, grad_inputs):
                if gx is not None:
                    table.seed(x, _wrap(gx))
        output_nodes = [y._node for y in outputs]
        for i, y in enumerate(outputs):
            gy = None if grad_outputs is None else grad_outputs[i]
            gy = _ones_like(y._array, loss_scale) if gy is None else _wrap(gy)
            table.seed(y._node, gy)
        restrict, reachable = _minimal_subgraph(output_nodes, input_nodes)
        _run(table, output_nodes, retain_grad, restrict, reachable, keep=set(input_nodes))
        ret = [table.get(x) for x in input_nodes]
    if set_grad:
        for x, gx in zip(inputs, ret):
            x._grad_var = gx
    return ret


def _wrap(g):
    if isinstance(g, chainer.Variable):
        return g
    return chainer.Variable(g, requires_grad=False)
