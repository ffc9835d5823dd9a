"""One step of backprop: run a function node's backward and file its input gradients.

The engine in ``_backprop`` calls :func:`backprop_step` once per function node it
visits. The gradients gathered for a variable node are a list of terms. A node applied
under ``lazy_grad_sum`` appends its terms and leaves the summation to whoever reads the
list (then one ``add`` takes all terms); any other node adds its terms as they come.
"""
import traceback

import numpy

from chainer import function_hook
from chainer import function_node as _fnode
from chainer.variable import Variable
from chainer.variable import _is_array
from chainer.variable import check_grad_type

_ndarray = numpy.ndarray
_default_backward_accumulate = _fnode.FunctionNode.backward_accumulate


def _reduce(grad_list):
    """Sums the gradient terms in ``grad_list`` in place and returns the sum.

    Returns ``None`` for an empty list; afterwards the list holds just the sum.
    """
    if not grad_list:
        return None
    if len(grad_list) > 1:
        from chainer.functions.math import basic_math
        grad_list[:] = [basic_math.add(*grad_list)]
    return grad_list[0]


def backprop_step(func, target_input_indexes, grad_outputs, grad_inputs, is_debug,
                  global_hooks=None):
    """Runs the backward of one function node and adds the results to ``grad_inputs``.

    Args:
        func (~chainer.FunctionNode): The node to backpropagate through.
        target_input_indexes (tuple of int): Increasing indexes of the inputs that
            need gradients (at least one).
        grad_outputs (tuple): Gradient of each output (a Variable, or ``None``).
        grad_inputs (dict): Maps each target input's
            :class:`~chainer.variable.VariableNode` to the list of gradient terms
            gathered for it so far; the new gradients are added to these lists in
            place.
        is_debug (bool): Check the gradients for NaN, and tell where ``func`` was
            called when its backward fails.
        global_hooks (dict): The function hooks of this thread (looked up when
            ``None``).

    Returns:
        tuple: The gradient computed for each target input (``None`` where none).
    """
    if global_hooks is None:
        global_hooks = function_hook.get_function_hooks()
    hooks = None
    if global_hooks or (_fnode._local_hooks_added and func._n_local_function_hooks):
        hooks, in_data, gy_data = _hook_args(func, grad_outputs, global_hooks)
        # (called from this frame: the profiling hooks pair their records by caller frame)
        for h in hooks:
            h.backward_preprocess(func, in_data, gy_data)

    n_targets = len(target_input_indexes)
    try:
        # (read from the class each time: cheaper than a cache, and never stale)
        acc = func.__class__.backward_accumulate is not _default_backward_accumulate
        if acc:
            gins = _gather(func, target_input_indexes, grad_inputs)
            gxs = func.backward_accumulate(target_input_indexes, grad_outputs, gins)
        else:
            gxs = func.backward(target_input_indexes, grad_outputs)
        if gxs.__class__ is not tuple or len(gxs) != n_targets:
            gxs = _fix_gradients(func, target_input_indexes, gxs, acc)
    except Exception as e:
        if is_debug and func.stack:
            e.add_note(f'{func.label} was called at (most recent call last):\n'
                       + ''.join(traceback.format_list(func.stack)))
        raise
    if hooks:
        for h in hooks:
            h.backward_postprocess(func, in_data, gy_data)

    inputs = func.inputs
    # (an index loop: cheaper than zip in CPython 3.11 for the usual single gradient)
    k = 0
    while k < n_targets:
        gx = gxs[k]
        i = target_input_indexes[k]
        k += 1
        if gx is None:
            continue
        if gx.__class__ is not Variable:
            gx = _as_grad_variable(gx, func, i)
        x = inputs[i]
        ga = gx._array
        # (dtype objects of the builtin types are singletons: try `is` first; a gathered
        # gradient that backward_accumulate hands back as it is was checked before)
        if (ga.__class__ is not _ndarray or ga.shape != x.shape
                or (ga.dtype is not x.dtype and ga.dtype != x.dtype)) and not (
                    acc and gx is gins[k - 1]):
            check_grad_type(func, x, True, ga, index=i)
        if is_debug:
            func._check_nan((ga,), 'backward')

        # File the term: a first one starts the input's list; a node applied under
        # lazy_grad_sum appends it; any other sums the list at once.
        grad_list = grad_inputs.get(x)
        if grad_list is None:
            if x._creator_node is not None:
                grad_inputs[x] = [gx]
                continue
            grad_list = grad_inputs[x]      # a leaf may start from its variable's grad
        if not grad_list or func.lazy_grad_sum:
            grad_list.append(gx)
        elif len(grad_list) == 1:
            grad_list[0] = grad_list[0] + gx
        else:
            grad_list.append(gx)
            _reduce(grad_list)
    return gxs


def _hook_args(func, grad_outputs, global_hooks):
    # The thread's hooks followed by the node's own (a local hook of the same name replaces
    # the global one), and the arrays they are given.
    hooks = dict(global_hooks)
    if func._n_local_function_hooks:
        hooks.update(func.local_function_hooks)
    in_data = tuple([x.data for x in func.inputs])
    gy_data = tuple([g.array if isinstance(g, Variable) else g for g in grad_outputs])
    return list(hooks.values()), in_data, gy_data


def _gather(func, targets, grad_inputs):
    # For backward_accumulate, which adds the gradients gathered so far itself: takes them
    # out of their lists (summed), which then receive the node's results. An input given at
    # several positions gets its gathered gradient at the first one only.
    inputs = func.inputs
    seen = set()
    gins = []
    for i in targets:
        x = inputs[i]
        if x in seen:
            gins.append(None)
            continue
        seen.add(x)
        grad_list = grad_inputs[x]
        gins.append(_reduce(grad_list))
        grad_list.clear()
    return tuple(gins)


def _as_grad_variable(g, func, index):
    if _is_array(g):
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
        n = len(gxs)
        if n == len(targets):
            return tuple(gxs)
        if n == len(func.inputs):
            return tuple([gxs[i] for i in targets])
    expected = (str(len(targets)) if len(targets) == len(func.inputs)
                else f'{len(targets)} (one per target input) or {len(func.inputs)} '
                     f'(one per input)')
    raise ValueError(
        f'number of gradients returned from {what} is incorrect: {len(gxs)} != expected '
        f'{len(targets)}\n  function={type(func).__name__} ({func.label})\n'
        + _describe_nodes(func) + f'\n{func.label}: {what} returned {len(gxs)} gradients, '
        f'expected {expected}{note}')


def _describe_nodes(func):
    # The inputs' and outputs' shapes and dtypes, as Chainer lists them in this error.
    lines = [f'    input {i}: shape={x.shape} dtype={x.dtype}'
             for i, x in enumerate(func.inputs)]
    for i, ref in enumerate(func.outputs or ()):
        y = ref()
        lines.append(f'    output {i}: ' + ('(freed)' if y is None else
                                             f'shape={y.shape} dtype={y.dtype}'))
    return '\n'.join(lines)
