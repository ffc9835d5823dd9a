"""Differentiable collective communication: bcast, gather, scatter, allgather, alltoall.

Every process of the communicator calls the same function, in the same order, and later
backpropagates through it: each backward is itself a collective (the adjoint one: the
backward of a broadcast gathers and sums, that of a gather scatters, ...), written with these
same functions, so it is differentiable again.
"""
import chainer
from chainer import backend
from chainer import function_node
from chainermn.functions import _delegate


def _sum(variables):
    total = variables[0]
    for v in variables[1:]:
        total = total + v
    return total


def _filled(grad_outputs, specs, xp):
    # An output that got no gradient contributes zeros, so every process still takes part.
    return tuple([_delegate.zeros_like(shape, dtype, xp) if g is None else g
                  for g, (shape, dtype) in zip(grad_outputs, specs)])


def _specs(arrays):
    return [(a.shape, a.dtype) for a in arrays]


class AllGather(function_node.FunctionNode):
    """Every process gets every process's ``x``; backward sums the gradients of each ``x``."""

    def __init__(self, comm):
        self.comm = comm

    def forward(self, inputs):
        self._xp = backend.get_array_module(*inputs)
        ys = tuple(self.comm.allgather(inputs[0]))
        self._out_specs = _specs(ys)
        return ys

    def backward(self, target_input_indexes, grad_outputs):
        gys = _filled(grad_outputs, self._out_specs, self._xp)
        # Gradient i goes back to process i, which sums what every process sends it.
        return _sum(AllToAll(self.comm).apply(gys)),


class AllToAll(function_node.FunctionNode):
    """Process ``i`` sends its ``xs[j]`` to process ``j``; backward is the same exchange."""

    def __init__(self, comm):
        self.comm = comm

    def forward(self, inputs):
        self._xp = backend.get_array_module(*inputs)
        ys = tuple(self.comm.alltoall(inputs))
        self._out_specs = _specs(ys)
        return ys

    def backward(self, target_input_indexes, grad_outputs):
        gys = _filled(grad_outputs, self._out_specs, self._xp)
        gxs = AllToAll(self.comm).apply(gys)
        return tuple([gxs[i] for i in target_input_indexes])


class Bcast(function_node.FunctionNode):
    """Every process gets the root's ``x``; backward sums the gradients on the root.

    The input is ``x`` on the root and a delegate variable elsewhere.
    """

    def __init__(self, comm, root):
        self.comm = comm
        self.root = root

    def forward(self, inputs):
        self._xp = backend.get_array_module(*inputs)
        x = inputs[0] if self.comm.rank == self.root else None
        y = self.comm.bcast(x, root=self.root)
        self._out_specs = _specs((y,))
        return y,

    def backward(self, target_input_indexes, grad_outputs):
        gys = _filled(grad_outputs, self._out_specs, self._xp)
        gathered = Gather(self.comm, self.root).apply(gys)
        if self.comm.rank == self.root:
            return _sum(gathered),
        return gathered   # the delegate's own gradient: the gather's delegate


class Gather(function_node.FunctionNode):
    """The root gets every process's ``x``; elsewhere the output is a delegate variable.

    Backward scatters the root's gradients back to the processes.
    """

    def __init__(self, comm, root):
        self.comm = comm
        self.root = root

    def forward(self, inputs):
        xp = backend.get_array_module(*inputs)
        self._xp = xp
        ys = self.comm.gather(inputs[0], root=self.root)
        if self.comm.rank != self.root:
            return xp.empty((0,), 'f'),
        ys = tuple(ys)
        self._out_specs = _specs(ys)
        return ys

    def backward(self, target_input_indexes, grad_outputs):
        if self.comm.rank == self.root:
            gys = _filled(grad_outputs, self._out_specs, self._xp)
        else:
            gys = (_delegate.new(self._xp),)
        return Scatter(self.comm, self.root).apply(gys)


class Scatter(function_node.FunctionNode):
    """Process ``i`` gets the root's ``xs[i]``; backward gathers the gradients on the root.

    The inputs are ``xs`` on the root and a delegate variable elsewhere.
    """

    def __init__(self, comm, root):
        self.comm = comm
        self.root = root

    def forward(self, inputs):
        self._xp = backend.get_array_module(*inputs)
        xs = inputs if self.comm.rank == self.root else None
        y = self.comm.scatter(xs, root=self.root)
        self._out_specs = _specs((y,))
        return y,

    def backward(self, target_input_indexes, grad_outputs):
        # On the root: one gradient per input; elsewhere the gather's delegate, which is the
        # gradient of this function's delegate input.
        gys = _filled(grad_outputs, self._out_specs, self._xp)
        gxs = Gather(self.comm, self.root).apply(gys)
        return tuple([gxs[i] for i in target_input_indexes])


def _check_root(caller, comm, root):
    _delegate.check_rank(caller, 'root', root, comm, allow_self=True)


def _check_per_process(caller, comm, xs):
    if not isinstance(xs, (tuple, list)):
        raise TypeError(f'{caller}: xs must be a tuple or list of {comm.size} variables (one '
                        f'per process), got {type(xs).__name__}')
    if len(xs) != comm.size:
        raise ValueError(f'{caller}: the length of xs must equal the communicator size '
                         f'({comm.size}), got {len(xs)}')


def allgather(comm, x):
    """Gathers ``x`` from every process, on every process.

    Args:
        comm (~chainermn.CommunicatorBase): The communicator.
        x (~chainer.Variable): This process's variable (shapes may differ between processes).

    Returns:
        tuple of ~chainer.Variable: Every process's ``x``, by rank.
    """
    chainer.utils.experimental('chainermn.functions.all_gather')
    return AllGather(comm).apply((x,))


def alltoall(comm, xs):
    """Sends ``xs[i]`` to process ``i``, and receives one variable from each process.

    Args:
        comm (~chainermn.CommunicatorBase): The communicator.
        xs (tuple of ~chainer.Variable): One variable per process (one dtype).

    Returns:
        tuple of ~chainer.Variable: What each process sent to this one, by rank.
    """
    chainer.utils.experimental('chainermn.functions.all_to_all')
    _check_per_process('alltoall', comm, xs)
    return AllToAll(comm).apply(tuple(xs))


def bcast(comm, x, root=0):
    """Broadcasts the root's ``x`` to every process.

    Args:
        comm (~chainermn.CommunicatorBase): The communicator.
        x (~chainer.Variable): The variable on the root; ignored elsewhere (pass ``None``).
        root (int): Rank of the root.

    Returns:
        ~chainer.Variable: The root's ``x``, on every process. Its gradients are summed on
        the root.
    """
    chainer.utils.experimental('chainermn.functions.bcast')
    _check_root('bcast', comm, root)
    if comm.rank != root:
        x = _delegate.new()
    elif x is None:
        raise TypeError(f'bcast: x is None on the root (rank {root}); the root must pass '
                        'the variable to broadcast')
    return Bcast(comm, root).apply((x,))[0]


def gather(comm, x, root=0):
    """Gathers every process's ``x`` on the root.

    Args:
        comm (~chainermn.CommunicatorBase): The communicator.
        x (~chainer.Variable): This process's variable.
        root (int): Rank of the root.

    Returns:
        On the root, a tuple of every process's ``x`` by rank; elsewhere a delegate variable,
        whose backward (``phi.backward()``, or through :func:`pseudo_connect`) receives the
        gradient of ``x`` from the root.
    """
    chainer.utils.experimental('chainermn.functions.gather')
    _check_root('gather', comm, root)
    ys = Gather(comm, root).apply((x,))
    if comm.rank == root:
        return ys
    return _delegate.handed_out(ys[0])


def scatter(comm, xs, root=0):
    """Sends the root's ``xs[i]`` to process ``i``.

    Args:
        comm (~chainermn.CommunicatorBase): The communicator.
        xs (tuple of ~chainer.Variable): One variable per process, on the root (one dtype);
            ignored elsewhere (pass ``None``).
        root (int): Rank of the root.

    Returns:
        ~chainer.Variable: This process's part. Its gradient goes back to the root.
    """
    chainer.utils.experimental('chainermn.functions.scatter')
    _check_root('scatter', comm, root)
    if comm.rank == root:
        _check_per_process('scatter', comm, xs)
        inputs = tuple(xs)
    else:
        inputs = (_delegate.new(),)
    return Scatter(comm, root).apply(inputs)[0]
