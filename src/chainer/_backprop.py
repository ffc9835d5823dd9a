"""The backprop engine behind ``Variable.backward``, ``chainer.backward`` and ``chainer.grad``.

Function nodes run their backward in decreasing rank (a node's rank is above that of every node
that made its inputs), so each one's output gradients are complete when it runs. The
:class:`_GradTable` holds and alone sums the gradients, the :class:`_Queue` holds the waiting
nodes, and :func:`_run` takes them one by one through :func:`_step`. ``chainer.grad`` takes
three steps: backward enumeration (:func:`_nodes_behind`), forward enumeration
(:func:`_nodes_reached`), backprop over their intersection (:func:`_run`).
"""
import heapq
import traceback
import warnings

import numpy

from chainer import backend
from chainer import configuration
from chainer import function_hook
from chainer import function_node
from chainer import variable
from chainer.function_node import FunctionNode
from chainer.utils import argument
from chainer.variable import Variable

_ndarray = numpy.ndarray
_plain_backward_accumulate = FunctionNode.backward_accumulate
_add = None     # chainer.functions.add, handed over by install()


def install(add):
    """Hands the engine ``chainer.functions.add`` and ``Variable.backward`` the engine (once,
    when ``chainer`` is imported: the engine and the functions are built on variable.py);
    ``chainer.function_node.grad`` is Chainer's place of :func:`grad`."""
    global _add
    _add = add
    variable._backward_from_variable = backward_from_variable
    function_node.grad = grad


def _sum(terms):
    """Sums the list of gradient terms in place (it holds just the sum) and returns the sum
    (``None`` for an empty list)."""
    if len(terms) > 1:
        terms[:] = [_add(*terms)]
    return terms[0] if terms else None


class _GradTable:
    """Gradient terms per variable node (``terms``): the one place where gradients are summed.

    A term from a function applied under ``lazy_grad_sum`` joins its node's list, summed when
    taken; any other is added at once. With ``load`` (``Variable.backward``,
    ``chainer.backward``) the table starts from the variables' gradients, as Chainer does: a
    leaf accumulates into its ``grad``, and an output that gets no gradient from the graph
    contributes (and loses) its ``grad_var``. Nodes in ``keep`` (``chainer.grad``'s inputs)
    keep their gradients when taken.
    """

    __slots__ = ('terms', 'load', 'keep')

    def __init__(self, load, keep=None, terms=None):
        self.terms = {} if terms is None else terms
        self.load = load
        self.keep = keep

    def add(self, node, g, lazy=False):
        """Adds the gradient term ``g`` to the gradient of ``node``."""
        terms = self.terms.get(node)
        if terms is None:
            if node._creator_node is not None:
                self.terms[node] = [g]
                return
            terms = self._start_leaf(node)
        if lazy or not terms:
            terms.append(g)
        elif len(terms) == 1:
            terms[0] = terms[0] + g
        else:
            terms.append(g)
            _sum(terms)

    def _start_leaf(self, node):
        # A leaf's first term: it starts from the variable's gradient when loading.
        node._check_old_style_gradient()
        terms = self.terms[node] = []
        var = node._variable() if self.load else None
        if var is not None and var._grad_var is not None:
            terms.append(var._grad_var)
        return terms

    def _fresh_leaf(self, node):
        # Whether a first term for the leaf ``node`` is its whole gradient (what _start_leaf
        # would find is nothing).
        if node._old_style_grad_generator is not None:
            return False
        var = node._variable() if self.load else None
        return var is None or var._grad_var is None

    def take(self, node):
        """Removes and returns the gradient of an output ``node`` (``None`` if it has none, or
        if the node is gone or unchained)."""
        if node is None or node._creator_node is None:
            return None
        if self.keep is None or node not in self.keep:
            terms = self.terms.pop(node, None)
        else:
            terms = self.terms.get(node)
        if terms:
            return terms[0] if len(terms) == 1 else _sum(terms)
        if terms is None and self.load:
            var = node._variable()
            if var is not None:
                g, var._grad_var = var._grad_var, None
                return g
        return None

    def take_all(self, output_refs):
        """:meth:`take` for each of a function's outputs; ``None`` if none has a gradient."""
        gys = tuple([self.take(ref()) for ref in output_refs])
        return None if all([g is None for g in gys]) else gys

    def get(self, node):
        """Returns the gradient of ``node`` (``None`` if it has none), keeping it."""
        terms = self.terms.get(node)
        return _sum(terms) if terms else None

    def gather(self, nodes):
        """Takes out the gradients of ``nodes`` for a ``backward_accumulate``, which adds them
        back (a node given twice gets its gradient at its first place only)."""
        gathered = []
        for k, node in enumerate(nodes):
            terms = self.terms.get(node)
            if terms is None:   # (stays, empty: the node is then no longer new)
                terms = self.terms[node] = ([] if node._creator_node is not None
                                            else self._start_leaf(node))
            gathered.append(None if node in nodes[:k] else _sum(terms))
            terms.clear()
        return tuple(gathered)

    def leaves(self):
        """Yields each leaf node with a gradient, and its gradient."""
        for node, terms in self.terms.items():
            if node._creator_node is None and terms:
                yield node, terms[0] if len(terms) == 1 else _sum(terms)


class _Queue:
    """The function nodes waiting for their backward, highest rank first: at first the
    creators of ``start_nodes``; ``allowed``, if given, holds the only ones that may run.

    ``push(func)`` (a list's append: it costs no Python call) queues a node; pushed nodes are
    placed when the next one is taken. One pushed while no other waits runs next, without the
    heap: it cannot come again, since every node still to come is made from its inputs and
    has a lower rank than its outputs' users. The others go to a max-heap by rank (first
    pushed first among equals), each once.
    """

    __slots__ = ('_heap', '_pushed', '_queued', '_allowed', 'push')

    def __init__(self, start_nodes, allowed=None):
        self._heap = []
        self._pushed = [n._creator_node for n in start_nodes if n._creator_node is not None]
        self._queued = set()
        self._allowed = allowed
        self.push = self._pushed.append

    def __iter__(self):
        """Yields the queued nodes, highest rank first, until none is left."""
        heap, pushed, queued, allowed = self._heap, self._pushed, self._queued, self._allowed
        while True:
            if len(pushed) == 1 and not heap:
                func = pushed.pop()
                if allowed is None or func in allowed:
                    yield func
                continue
            for func in pushed:
                if func not in queued and (allowed is None or func in allowed):
                    queued.add(func)
                    heapq.heappush(heap, (-func.rank, len(queued), func))
            pushed.clear()
            if not heap:
                return
            yield heapq.heappop(heap)[2]


def _run(table, queue, retain_grad, reachable=None):
    """Runs the backward of the queued nodes until none is left; only inputs in ``reachable``
    (when given) get gradients. (One output and one input take no loop: ~5% per op.)"""
    debug = configuration.config.debug
    hooks = function_hook.get_function_hooks()
    for func in queue:
        inputs = func.inputs
        if inputs is None:      # unchained since it was queued
            continue
        outputs = func.outputs
        if len(outputs) == 1:
            gys = table.take(outputs[0]())
            gys = None if gys is None else (gys,)
        else:
            gys = table.take_all(outputs)
        if gys is None:
            continue
        if retain_grad:     # the output variables still alive keep their gradients
            for y, gy in zip([ref() for ref in outputs], gys):
                if y is not None and y._variable() is not None:
                    y._variable()._grad_var = gy
        if len(inputs) == 1:
            x = inputs[0]
            targets = (0,) if x._requires_grad and (reachable is None or x in reachable) else ()
        else:
            targets = _targets(inputs, reachable)
        if targets:
            _step(func, targets, gys, table, queue.push, debug, hooks)


def _targets(inputs, reachable):
    # The indexes of the inputs that need gradients.
    return tuple([i for i, x in enumerate(inputs)
                  if x._requires_grad and (reachable is None or x in reachable)])


def _step(func, targets, gys, table, push, debug, hooks):
    """Runs ``func``'s backward for the inputs ``targets`` (increasing indexes) from the output
    gradients ``gys``, files the input gradients in ``table`` and ``push``-es (if given) their
    creators; returns them (``None`` where none). ``debug``: check for NaN, and say where
    ``func`` was called when its backward fails. ``hooks``: the thread's function hooks."""
    if hooks or func._n_local_function_hooks:
        hooks = func._hooks_with_local(hooks)
        in_data = tuple([x.data for x in func.inputs])
        gy_data = tuple([None if g is None else g.array for g in gys])
        # (called from this frame: the profiling hooks pair their records by caller frame)
        for h in hooks:
            h.backward_preprocess(func, in_data, gy_data)
    # (read from the class each time: cheaper than a cache, and never stale)
    accumulate = func.__class__.backward_accumulate is not _plain_backward_accumulate
    try:
        if accumulate:
            gathered = table.gather([func.inputs[i] for i in targets])
            gxs = func.backward_accumulate(targets, gys, gathered)
        else:
            gxs = func.backward(targets, gys)
        if gxs.__class__ is not tuple or len(gxs) != len(targets):
            gxs = _fix_gradients(func, targets, gxs, accumulate)
    except Exception as e:
        if debug and func.stack:
            e.add_note(f'{func.label} was called at (most recent call last):\n'
                       + ''.join(traceback.format_list(func.stack)))
        raise
    if hooks:
        for h in hooks:
            h.backward_postprocess(func, in_data, gy_data)

    inputs = func.inputs
    lazy = func.lazy_grad_sum
    terms = table.terms
    k = 0
    for i in targets:   # (not enumerate(gxs): an index is cheaper than a pair per gradient)
        gx = gxs[k]
        k += 1
        if gx is None:
            continue
        if gx.__class__ is not Variable:
            gx = _as_grad_variable(gx, func, i)
        x = inputs[i]
        ga = gx._array
        # (dtype objects of the builtin types are singletons: `is` first; a gathered gradient
        # handed back as it is was checked when it was filed)
        if (ga.__class__ is not _ndarray or ga.shape != x.shape
                or (ga.dtype is not x.dtype and ga.dtype != x.dtype)) and not (
                    accumulate and gx is gathered[k - 1]):
            variable.check_grad_type(func, x, True, ga, index=i)
        if debug:
            func._check_nan((ga,), 'backward')
        creator = x._creator_node
        if x not in terms and (creator is not None or table._fresh_leaf(x)):
            # (a first term, filed without a call: ~2% per op; a leaf's when it has no
            # gradient of its own to start from)
            terms[x] = [gx]
        else:
            table.add(x, gx, lazy)
        if push is not None and creator is not None:
            push(creator)
    return gxs


def _as_grad_variable(g, func, index):
    if variable._is_array(g):
        return Variable(g, requires_grad=False)
    raise TypeError(f'{func.label}: backward must return Variables (or None); gradient for '
                    f'input #{index} is {type(g).__name__}')


def _fix_gradients(func, targets, gxs, accumulated):
    what = 'backward_accumulate' if accumulated else 'backward'
    if not isinstance(gxs, (tuple, list)):
        if not hasattr(gxs, '__len__'):
            raise TypeError(f'{func.label}: {what} must return a tuple of gradients, '
                            f'got {type(gxs).__name__}')
        note = f' ({what} must return a tuple of gradients, got {type(gxs).__name__})'
    else:
        note = ''
        if len(gxs) == len(targets):
            return tuple(gxs)
        if len(gxs) == len(func.inputs):
            return tuple([gxs[i] for i in targets])
    expected = (str(len(targets)) if len(targets) == len(func.inputs)
                else f'{len(targets)} (one per target input) or {len(func.inputs)} '
                     f'(one per input)')
    raise ValueError(   # (Chainer's words, with the nodes' shapes and dtypes, then ours)
        f'number of gradients returned from {what} is incorrect: {len(gxs)} != expected '
        f'{len(targets)}\n  function={type(func).__name__} ({func.label})\n'
        + _describe_nodes(func) + f'\n{func.label}: {what} returned {len(gxs)} gradients, '
        f'expected {expected}{note}')


def _describe_nodes(func):
    lines = [f'    input {i}: shape={x.shape} dtype={x.dtype}'
             for i, x in enumerate(func.inputs)]
    for i, ref in enumerate(func.outputs or ()):
        y = ref()
        lines.append(f'    output {i}: ' + ('(freed)' if y is None else
                                             f'shape={y.shape} dtype={y.dtype}'))
    return '\n'.join(lines)


# ---- front ends ---------------------------------------------------------------------------
def _backprop_to_leaves(table, start_nodes, retain_grad, enable_double_backprop, loss_scale):
    # Variable.backward and chainer.backward: every node behind the start nodes runs, and the
    # leaves' variables receive their gradients.
    with configuration.using_config('enable_backprop', enable_double_backprop):
        _run(table, _Queue(start_nodes), retain_grad)
        for node, g in table.leaves():
            var = node._variable()
            if var is not None:
                var._grad_var = g
                var._loss_scale = loss_scale


def backward_from_variable(var, retain_grad, enable_double_backprop, loss_scale):
    """Implements :meth:`chainer.Variable.backward`."""
    node = var._node
    node._check_old_style_gradient()
    if var._grad_var is None:
        if var._array.size != 1:
            return      # no gradient to start from
        if var._array.ndim != 0:
            warnings.warn(
                'Treating a variable with only one element as a scalar in '
                f'Variable.backward is deprecated (shape {var._array.shape}): reduce it to '
                'a 0-d variable first (e.g. with F.squeeze or F.sum), or set its grad '
                'explicitly.', DeprecationWarning, stacklevel=3)
        var._grad_var = _ones_like(var._array, loss_scale)
    # The table takes the start gradient from var, as from any output without one.
    _backprop_to_leaves(_GradTable(load=True), (node,), retain_grad, enable_double_backprop,
                        loss_scale)


def _ones_like(array, loss_scale):
    g = backend.get_array_module(array).ones_like(array)
    if loss_scale is not None:
        g *= loss_scale
    return Variable(g, requires_grad=False)


def _as_variable(g):
    return g if isinstance(g, Variable) else Variable(g, requires_grad=False)


def _check_args(what, values, of=None, variables=False):
    # values must be a tuple or a list (or None, if ``of`` names the list it goes with).
    if of is not None and values is None:
        return
    if not isinstance(values, (tuple, list)):
        extra = ' or None' if of is not None else ''
        raise TypeError(f'{what} must be a tuple or a list{extra}, not {type(values).__name__}')
    if of is not None and len(values) != len(of[1]):
        raise ValueError(f'{what} must be of the same length as {of[0]}.\n'   # (Chainer's words)
                         f'len({of[0]}) = {len(of[1])}, len({what}) = {len(values)}')
    for i, v in enumerate(values if variables else ()):
        if not isinstance(v, Variable):
            raise TypeError(f'{what}[{i}] must be a Variable, not {type(v).__name__}')


def backward(outputs, grad_outputs=None, **kwargs):
    """Runs backprop from several variables at once (with no default gradient of 1, unlike
    :meth:`Variable.backward`).

    Args:
        outputs (tuple or list of Variable): Where backprop starts.
        grad_outputs (tuple or list): Their gradients (Variables or arrays; ``None`` skips an
            output). If ``None``, the outputs' :attr:`~chainer.Variable.grad_var`, taken from
            them; an output without one is skipped with a ``RuntimeWarning``.
        enable_double_backprop (bool): Record the backward pass, to differentiate again.
    """
    enable_double_backprop, = argument.parse_kwargs(
        kwargs, ('enable_double_backprop', False),
        retain_grad='chainer.backward does not support retain_grad; use Variable.backward',
        loss_scale='chainer.backward does not support loss_scale option')
    _check_args('outputs', outputs, variables=True)
    _check_args('grad_outputs', grad_outputs, of=('outputs', outputs))
    for y in outputs:
        y._node._check_old_style_gradient()
    if grad_outputs is None:
        grad_outputs = []
        for y in outputs:
            if y._grad_var is None:
                warnings.warn('outputs contains a Variable without grad, or duplicate '
                              'outputs. Note that chainer.backward does not set default '
                              'grad.', RuntimeWarning, stacklevel=2)
            # Taken out of the variable: it seeds the table instead (and a duplicate
            # output then counts once).
            grad_outputs.append(y._grad_var)
            y._grad_var = None
    table = _GradTable(load=True)
    starts = []
    for y, gy in zip(outputs, grad_outputs):
        if gy is not None:
            table.add(y._node, _as_variable(gy))
            starts.append(y._node)
    if starts:
        _backprop_to_leaves(table, starts, False, enable_double_backprop, None)


def _nodes_behind(output_nodes):
    """Step 1 (backward enumeration): the function nodes that the outputs come from."""
    funcs = set()
    todo = [n._creator_node for n in output_nodes if n._creator_node is not None]
    while todo:
        f = todo.pop()
        if f in funcs or f.inputs is None:
            continue
        funcs.add(f)
        todo += [x._creator_node for x in f.inputs if x._creator_node is not None]
    return funcs


def _nodes_reached(funcs, input_nodes):
    """Step 2 (forward enumeration): the nodes of ``funcs`` that the inputs reach, and the
    variable nodes reached (the inputs and those nodes' outputs)."""
    reachable = set(input_nodes)
    on_path = set()
    for f in sorted(funcs, key=lambda f: f.rank):
        if any([x in reachable for x in f.inputs]):
            on_path.add(f)
            reachable.update([n for n in (r() for r in f.outputs) if n is not None])
    return on_path, reachable


def grad(outputs, inputs, grad_outputs=None, grad_inputs=None, set_grad=False,
         retain_grad=False, enable_double_backprop=False, loss_scale=None):
    """Computes the gradients of ``outputs`` with respect to ``inputs``, backpropagating only
    through function nodes on a path from an input to an output; ``.grad`` is left alone
    unless ``set_grad``.

    Args:
        outputs, inputs (tuple or list of Variable): What to differentiate, and by what.
        grad_outputs (tuple or list): The outputs' gradients (``None``: ones, times
            ``loss_scale``).
        grad_inputs (tuple or list): Gradients that the inputs' gradients are added to.
        set_grad (bool): Also store the results in the inputs' ``grad_var``.
        retain_grad (bool): Keep the gradients of intermediate variables.
        enable_double_backprop (bool): Record the backward pass, to differentiate again.
        loss_scale (float): Scale of the default output gradients.

    Returns:
        list of Variable: Gradients of the inputs (``None`` where no path exists).
    """
    _check_args('outputs', outputs, variables=True)
    _check_args('inputs', inputs, variables=True)
    _check_args('grad_outputs', grad_outputs, of=('outputs', outputs))
    _check_args('grad_inputs', grad_inputs, of=('inputs', inputs))
    for y in outputs:
        y._node._check_old_style_gradient()

    with configuration.using_config('enable_backprop', enable_double_backprop):
        input_nodes = [x._node for x in inputs]
        output_nodes = [y._node for y in outputs]
        table = _GradTable(load=False, keep=set(input_nodes))
        for x, gx in zip(input_nodes, grad_inputs or ()):
            if gx is not None:
                table.add(x, _as_variable(gx))
        for y, gy in zip(outputs, grad_outputs or [None] * len(outputs)):
            table.add(y._node, _ones_like(y._array, loss_scale) if gy is None
                      else _as_variable(gy))
        funcs = _nodes_behind(output_nodes)                         # 1. backward enumeration
        on_path, reachable = _nodes_reached(funcs, input_nodes)     # 2. forward enumeration
        _run(table, _Queue(output_nodes, on_path), retain_grad, reachable)   # 3. backprop
        ret = [table.get(x) for x in input_nodes]
    if set_grad:
        for x, gx in zip(inputs, ret):
            x._grad_var = gx
    return ret
