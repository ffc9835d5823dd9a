"""The single backprop engine behind Variable.backward, chainer.backward and chainer.grad.

Function nodes are visited in decreasing rank from a max-heap, so every node's
output gradients are complete before its backward runs; each visit is one
:func:`chainer._backprop_utils.backprop_step`. Gradients live in a table keyed by
variable node, as lists of terms that each node sums at once or, if it was applied
under ``lazy_grad_sum``, leaves to be summed when read. An intermediate gradient is
dropped as soon as its consumer has used it (unless ``retain_grad``).
"""
import heapq
import warnings

import chainer
from chainer import function_hook
from chainer._backprop_utils import _reduce
from chainer._backprop_utils import backprop_step
from chainer.utils import argument


class _GradTable(dict):
    """Gradient terms per variable node: ``node -> list of Variables``.

    With ``load``, a leaf seen for the first time starts from the gradient its
    variable already holds, so that ``Variable.backward`` accumulates into ``.grad``.
    """

    __slots__ = ('load',)

    def __init__(self, load):
        super().__init__()
        self.load = load

    def __missing__(self, node):
        grad_list = self[node] = []
        if self.load and node._creator_node is None:
            var = node._variable()
            if var is not None and var._grad_var is not None:
                grad_list.append(var._grad_var)
        return grad_list

    def pop_sum(self, node):
        """Removes the node's terms and returns their sum (``None`` if it has none)."""
        grad_list = self.pop(node, None)
        if not grad_list:
            return None
        return grad_list[0] if len(grad_list) == 1 else _reduce(grad_list)

    def get_sum(self, node):
        """Returns the sum of the node's terms, keeping it in the table."""
        grad_list = self.get(node)
        return _reduce(grad_list) if grad_list else None


def _run(table, start_nodes, retain_grad, restrict=None, reachable=None, keep=()):
    """Backpropagates from ``start_nodes`` (already seeded in ``table``).

    Returns the leaf nodes that received a gradient.
    """
    debug = chainer.config.debug
    global_hooks = function_hook.get_function_hooks()
    step = backprop_step
    pop_sum = table.pop_sum
    # The function nodes waiting for backprop: a max-heap by rank of
    # (-rank, order pushed, node), and `nxt`, the one node that waits when no other does
    # (a chain of ops then never touches the heap).
    heap = []
    nxt = None
    n_pushed = 0
    pushed = set()
    leaves = []
    leaf_set = set()

    for node in start_nodes:
        c = node._creator_node
        if c is not None and c not in pushed and (restrict is None or c in restrict):
            pushed.add(c)
            n_pushed += 1
            heapq.heappush(heap, (-c.rank, n_pushed, c))

    pop = heapq.heappop
    push = heapq.heappush
    while heap or nxt is not None:
        if nxt is None:
            func = pop(heap)[2]
        else:
            func = nxt
            nxt = None
        inputs = func.inputs
        if inputs is None:      # unchained meanwhile
            continue

        # Gradients of the outputs (complete now: every consumer has higher rank).
        fouts = func.outputs
        if len(fouts) == 1:
            y = fouts[0]()
            if y is None:
                continue
            gy = table.get_sum(y) if y in keep else pop_sum(y)
            if gy is None:
                continue
            gys = (gy,)
            if retain_grad:
                _retain_grads((y,), gys)
        else:
            outs = [r() for r in fouts]
            gys = tuple([None if y is None else (table.get_sum(y) if y in keep else pop_sum(y))
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

        gxs = step(func, targets, gys, table, debug, global_hooks)

        # Queue the creators of the inputs that got a gradient.
        k = 0
        n_targets = len(targets)
        while k < n_targets:
            if gxs[k] is None:
                k += 1
                continue
            x = inputs[targets[k]]
            k += 1
            c = x._creator_node
            if c is None:
                if x not in leaf_set:
                    x._check_old_style_gradient()
                    leaf_set.add(x)
                    leaves.append(x)
            elif restrict is None or c in restrict:
                if nxt is None:
                    if not heap:
                        # Nothing else waits: c runs next, and no later step can reach it
                        # again (every other consumer of its outputs would be waiting too).
                        nxt = c
                        continue
                elif c is nxt:
                    continue
                if c in pushed:
                    continue
                if nxt is not None:
                    pushed.add(nxt)
                    n_pushed += 1
                    push(heap, (-nxt.rank, n_pushed, nxt))
                    nxt = None
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
        table = _GradTable(load=True)
        for node, g in seeds:
            table[node].append(g)
        starts = [n for n, _ in seeds]
        leaves = _run(table, starts, retain_grad)
        # Seeds without a creator (chainer.backward on leaf variables) are leaves too.
        leaves += [n for n in dict.fromkeys(starts)
                   if n._creator_node is None and n not in leaves]
        for x in leaves:
            g = table.pop_sum(x)
            var = x._variable()
            if var is not None and g is not None:
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
        raise ValueError('grad_outputs must be of the same length as outputs.\n'
                         f'len(outputs) = {len(outputs)}, len(grad_outputs) = '
                         f'{len(grad_outputs)}')
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
        raise ValueError('grad_outputs must be of the same length as outputs.\n'
                         f'len(outputs) = {len(outputs)}, len(grad_outputs) = '
                         f'{len(grad_outputs)}')
    if grad_inputs is not None and len(grad_inputs) != len(inputs):
        raise ValueError('grad_inputs must have the same length as inputs '
                         f'({len(grad_inputs)} != {len(inputs)})')
    for y in outputs:
        y._node._check_old_style_gradient()

    with chainer.using_config('enable_backprop', enable_double_backprop):
        input_nodes = [x._node for x in inputs]
        output_nodes = [y._node for y in outputs]
        restrict, reachable = _minimal_subgraph(output_nodes, input_nodes)
        table = _GradTable(load=False)
        if grad_inputs is not None:
            for x, gx in zip(input_nodes, grad_inputs):
                if gx is not None:
                    table[x].append(_wrap(gx))
        for i, y in enumerate(outputs):
            gy = None if grad_outputs is None else grad_outputs[i]
            gy = _ones_like(y._array, loss_scale) if gy is None else _wrap(gy)
            table[y._node].append(gy)
        _run(table, output_nodes, retain_grad, restrict, reachable, keep=set(input_nodes))
        ret = [table.get_sum(x) for x in input_nodes]
    if set_grad:
        for x, gx in zip(inputs, ret):
            x._grad_var = gx
    return ret


def _wrap(g):
    if isinstance(g, chainer.Variable):
        return g
    return chainer.Variable(g, requires_grad=False)
