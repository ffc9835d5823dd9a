"""F.forget: trade computation for memory by recomputing a sub-graph in backward."""
import chainer
from chainer import _errors
from chainer import configuration
from chainer import function_node
from chainer import variable
from chainer.functions import _checks


def _ordinal(n):
    # 1st, 2nd, 3rd, 4th, ..., 11th, 12th, 13th, ..., 21st
    suffix = 'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')
    return f'{n}{suffix}'


def _call_func(func, xs):
    outs = func(*xs)
    if isinstance(outs, variable.Variable):
        return (outs,)
    if not isinstance(outs, tuple):
        raise RuntimeError(f'F.forget: func must return a Variable or a tuple of Variables, '
                           f'got {type(outs).__name__}')
    for i, y in enumerate(outs, 1):
        if not isinstance(y, variable.Variable):
            raise RuntimeError(f'F.forget: the {_ordinal(i)} element of the tuple returned by '
                               f'func must be a Variable, got {type(y).__name__}')
    return outs


class Forget(function_node.FunctionNode):
    """Runs ``func`` without a graph in forward and again, with one, in backward."""

    def __init__(self, func):
        if not callable(func):
            raise TypeError(f'func must be callable, got {type(func).__name__}')
        self.func = func

    def forward(self, inputs):
        self.retain_inputs(tuple(range(len(inputs))))
        xs = [variable.Variable(x) for x in inputs]
        with configuration.using_config('enable_backprop', False), \
                configuration.using_config('_will_recompute', True):
            outs = _call_func(self.func, xs)
        return tuple([y.array for y in outs])

    def backward(self, indexes, grad_outputs):
        if configuration.config.enable_backprop:
            raise RuntimeError(
                'F.forget does not support double backpropagation (enable_double_backprop=True '
                'or chainer.grad(..., enable_double_backprop=True)); call func directly '
                'where higher-order gradients are needed')
        # Fresh leaves: the recomputed graph must not reach into the caller's graph
        # through our inputs; their gradients are read off afterwards.
        targets = set(indexes)
        xs = [variable.Variable(x.array, requires_grad=i in targets)
              for i, x in enumerate(self.get_retained_inputs())]
        with configuration.using_config('enable_backprop', True), \
                configuration.using_config('in_recomputing', True):
            outs = _call_func(self.func, xs)
        if len(outs) != len(grad_outputs):
            raise RuntimeError(f'F.forget: func returned {len(grad_outputs)} outputs in forward '
                               f'but {len(outs)} when recomputed in backward')

        seeds, grads = [], []
        direct = {}     # outputs that are inputs themselves get their gradient as is
        for y, gy in zip(outs, grad_outputs):
            if gy is None:
                continue
            if y.creator_node is None:
                direct.setdefault(id(y), []).append(gy)
            else:
                seeds.append(y)
                grads.append(gy)
        if seeds:
            # chainer.backward (not chainer.grad) so that parameters used inside func,
            # e.g. those of a Link, get their gradients accumulated as usual.
            chainer.backward(seeds, grads)

        ret = []
        for i in indexes:
            x = xs[i]
            gx = x.grad_var
            for g in direct.get(id(x), ()):
                gx = g if gx is None else gx + g
            ret.append(gx)
        return tuple(ret)


def forget(func, *xs):
    """Calls a function without keeping its intermediate results.

    Normally every function in the graph keeps what its backward needs, and
    for large intermediate values this dominates memory use. ``F.forget``
    runs ``func`` without recording a graph, keeping only the inputs and
    outputs, and in backward runs ``func`` once more (with
    ``chainer.config.in_recomputing`` set to ``True``) to rebuild the graph
    and backpropagate through it. Memory drops to one segment's worth at a
    time, at the price of computing the forward twice.

    ``func`` must compute the same thing both times: functions with random
    results such as :func:`~chainer.functions.dropout` cannot be used.
    Parameters that ``func`` uses without receiving them as arguments (the
    weights of a Link) get their gradients as usual. Double backpropagation
    through ``F.forget`` is not supported and raises :class:`RuntimeError`.

    Args:
        func (callable): Function taking Variables and returning a
            :class:`~chainer.Variable` or a tuple of them.
        xs: Arguments of ``func``: Variables or arrays. Arrays are wrapped in
            Variables (which need gradients), so the call stays in the graph.

    Returns:
        ~chainer.Variable or tuple of ~chainer.Variable: The outputs of
        ``func``; a single Variable when there is one output.

    .. admonition:: Example

        >>> def f(a, b):
        ...     return (a + b) * a
        >>> x = chainer.Variable(np.ones(3, np.float32))
        >>> y = chainer.Variable(np.ones(3, np.float32))
        >>> z = F.forget(f, x, y)   # a + b is not kept
        >>> F.sum(z).backward()
        >>> x.grad
        array([3., 3., 3.], dtype=float32)
    """
    try:
        xs = tuple([x if isinstance(x, variable.Variable) else variable.Variable(x)
                    for x in xs])
    except TypeError as e:
        _errors.add_to_message(e, 'forget: each of xs must be a Variable or an N-dimensional '
                                  'array')
        raise
    for i, x in enumerate(xs):
        if x.array is None:
            raise _checks.not_an_array('forget', f'xs[{i}]', None)
    try:
        ys = Forget(func).apply(xs)
    except Exception as e:
        # (an error of func: the arguments forget passed it)
        _errors.add_to_message(e, f'forget: raised by func ({_errors.describe(func)}) on xs: '
                                  f'{_errors.describe(xs)}')
        raise
    if len(ys) == 1:
        return ys[0]
    return ys
