"""Chainer's ``backprop_step`` and ``_reduce``, for code that calls them directly.

The engine itself is :mod:`chainer._backprop`; these run its step on a plain dict of lists.
"""
from chainer import _backprop
from chainer import function_hook

_reduce = _backprop._sum


def backprop_step(func, target_input_indexes, grad_outputs, grad_inputs, is_debug):
    """Runs the backward of ``func`` and adds the results to the lists of ``grad_inputs``.

    Args:
        func (~chainer.FunctionNode): The node to backpropagate through.
        target_input_indexes (tuple of int): Increasing indexes of the inputs that
            need gradients.
        grad_outputs (tuple): Gradient of each output (a Variable, or ``None``).
        grad_inputs (dict): Maps each target input's node to the list of gradient
            terms gathered for it so far; the new gradients join these lists.
        is_debug (bool): Check the gradients for NaN.

    Returns:
        tuple: The gradient computed for each target input (``None`` where none).
    """
    table = _backprop._GradTable(load=False, terms=grad_inputs)
    return _backprop._step(func, target_input_indexes, grad_outputs, table, None, is_debug,
                           function_hook.get_function_hooks())
