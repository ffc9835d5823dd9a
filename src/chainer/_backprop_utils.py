"""Chainer's ``backprop_step`` and ``_reduce``, for code that calls them: the engine's step
(:mod:`chainer._backprop`) on a plain dict of gradient lists."""
from chainer import _backprop
from chainer import function_hook

_reduce = _backprop._sum


def backprop_step(func, target_input_indexes, grad_outputs, grad_inputs, is_debug):
    """Runs ``func``'s backward and adds the input gradients to the lists of ``grad_inputs``
    (``{input node: list of gradient terms}``); returns them (``None`` where none)."""
    table = _backprop._GradTable(load=False, terms=grad_inputs)
    return _backprop._step(func, target_input_indexes, grad_outputs, table, None, is_debug,
                           function_hook.get_function_hooks())
