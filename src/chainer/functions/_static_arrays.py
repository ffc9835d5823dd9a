"""Arrays that a backward computes outside function nodes, made so a static graph remakes them.

A backward may compute an array in Python (a mask from its retained input, zeros for an output
that got no gradient) and hand it to a gradient node. A static schedule
(:func:`chainer.static_graph`) repeats only recorded steps, so such an array is computed
through :func:`~chainer.static_code` here: outside a recording it is a plain call, during one
it becomes a step of the schedule, computed again at each replay from that replay's arrays.
"""
from chainer import backend
from chainer.graph_optimizations.static_graph_utilities import static_code


def compute(fn, *arrays, **constants):
    """Returns ``fn(*arrays, **constants)`` as a tuple of arrays.

    Args:
        fn (callable): Computes one array or a tuple of arrays from ``arrays``; it must not
            keep them.
        arrays (N-dimensional arrays): Its array arguments.
        constants: Its other arguments (the same at every call of a static schedule).
    """
    return _compute(inputs=list(arrays), fn=fn, constants=constants)


@static_code(func_name='array computation of a backward')
def _compute(inputs, fn, constants):
    out = fn(*inputs, **constants)
    return out if isinstance(out, tuple) else (out,)


def full(like, shape, dtype, value):
    """An array of ``shape`` and ``dtype`` filled with ``value``, on ``like``'s device."""
    return compute(_full, like, shape=shape, dtype=dtype, value=value)[0]


def _full(like, shape, dtype, value):
    return backend.get_array_module(like).full(shape, value, dtype)
