"""Optimizers that average gradients over all processes before each update."""
import copy


def _signature(link):
    # What a model looks like to the exchange: each parameter's name and whether it exists yet.
    return [(name, p.array is not None) for name, p in sorted(link.namedparams())]


class _OptimizerWrapper:
    """What both multi-node optimizers share: attributes not their own are read from and
    written to the wrapped optimizer, and ``update(lossfun, ...)`` computes gradients as it
    would."""

    def setup(self, link):
        self.actual_optimizer.setup(link)
        return self

    def _backward(self, target, lossfun, args, kwds):
        loss = lossfun(*args, **kwds)
        if getattr(self.actual_optimizer, '_use_cleargrads', True):
            target.cleargrads()
        else:
            target.zerograds()
        loss.backward(loss_scale=self.actual_optimizer._loss_scale)

    def __getattr__(self, attr_name):
        return getattr(self.actual_optimizer, attr_name)

    def __setattr__(self, attr_name, value):
        setattr(self.actual_optimizer, attr_name, value)


class _MultiNodeOptimizer(_OptimizerWrapper):
    """Wraps an optimizer: gradients are averaged over all processes before each update.

    When the model's parameters change (the first update, a lazily initialized or a newly
    added link), the update broadcasts rank 0's parameters instead, so that every process
    starts equal.
    """

    def __init__(self, actual_optimizer, communicator, zero_fill):
        object.__setattr__(self, 'communicator', communicator)
        object.__setattr__(self, 'actual_optimizer', actual_optimizer)
        object.__setattr__(self, 'target_params', [])
        object.__setattr__(self, 'zero_fill', zero_fill)

    def update(self, lossfun=None, *args, **kwds):
        target = self.target
        if lossfun is not None:
            self._backward(target, lossfun, args, kwds)
        if self.is_changed(target):
            self.communicator.bcast_data(target)
        else:
            self.communicator.multi_node_mean_grad(target, self.zero_fill)
            self.actual_optimizer.update(None, *args, **kwds)

    def is_changed(self, target):
        """Whether ``target``'s parameters differ from the last call's (and records them)."""
        current = _signature(target)
        if current == self.target_params:
            return False
        object.__setattr__(self, 'target_params', current)
        return True


class _DoubleBufferingOptimizer(_OptimizerWrapper):
    """Overlaps the gradient exchange with the next step's computation (``pure_nccl`` only).

    Each update applies the gradients averaged during the previous step, while this step's
    gradients are averaged on a separate CUDA stream; updates therefore lag one step.
    """

    def __init__(self, actual_optimizer, communicator, zero_fill):
        from chainer.backends import cuda
        object.__setattr__(self, 'actual_optimizer', actual_optimizer)
        object.__setattr__(self, 'communicator', communicator)
        object.__setattr__(self, 'zero_fill', zero_fill)
        object.__setattr__(self, 'needs_update', False)
        object.__setattr__(self, 'communicated_target', None)
        object.__setattr__(self, 'target_params', [])
        object.__setattr__(self, 'target_params_list', [[], []])
        object.__setattr__(self, 'allreduce_grad_stream', cuda.cupy.cuda.Stream(non_blocking=True))

    def update(self, lossfun=None, *args, **kwds):
        target = self.target
        if lossfun is not None:
            self._backward(target, lossfun, args, kwds)
        if self.is_changed(target, self.target_params):
            self.wait()
            self.communicator.bcast_data(target)
            communicated = copy.deepcopy(target)
            object.__setattr__(self, 'communicated_target', communicated)
            object.__setattr__(self, 'target_params_list', [sorted(target.namedparams()),
                                                       sorted(communicated.namedparams())])
            object.__setattr__(self, 'needs_update', False)
            return
        self.wait()
        self.swap_grad(*self.target_params_list)
        self.multi_node_mean_grad_async()
        if self.needs_update:
            self.actual_optimizer.update(None, *args, **kwds)
        else:
            object.__setattr__(self, 'needs_update', True)

    def multi_node_mean_grad_async(self):
        """Starts averaging the gradients of the communicated copy on the side stream."""
        self.communicator._multi_node_mean_grad_async(
            self.communicated_target, self.zero_fill, self.allreduce_grad_stream)

    def is_changed(self, target, previous_params):
        """Whether ``target``'s parameters differ from ``previous_params`` (and records them)."""
        current = _signature(target)
        if current == previous_params:
            return False
        object.__setattr__(self, 'target_params', current)
        return True

    def swap_grad(self, target1_params, target2_params):
        """Exchanges the gradient arrays of two lists of ``(name, param)`` pairs."""
        for (_, p1), (_, p2) in zip(target1_params, target2_params):
            g1, g2 = p1.grad, p2.grad
            p1.grad, p2.grad = g2, g1

    def wait(self):
        """Waits for the gradient exchange in flight."""
        self.allreduce_grad_stream.synchronize()


def create_multi_node_optimizer(actual_optimizer, communicator, double_buffering=False,
                                zero_fill=True):
    """Makes an optimizer average the gradients over all processes before each update.

    Args:
        actual_optimizer (~chainer.Optimizer): The optimizer to wrap (set it up through the
            returned object).
        communicator (~chainermn.CommunicatorBase): The communicator.
        double_buffering (bool): Overlap the exchange with the next step (updates lag one
            step); needs the ``pure_nccl`` communicator.
        zero_fill (bool): Whether parameters without a gradient take part with zeros (see
            :meth:`~chainermn.CommunicatorBase.multi_node_mean_grad`).

    Returns:
        The wrapping optimizer; other attributes are those of ``actual_optimizer``.

    Raises:
        ValueError: If ``double_buffering`` is requested with another communicator.
    """
    if double_buffering:
        from chainermn.communicators import pure_nccl_communicator  # loads CuPy, if present
        if not isinstance(communicator, pure_nccl_communicator.PureNcclCommunicator):
            raise ValueError('This communicator does not support double buffering: '
                             "create_multi_node_optimizer(double_buffering=True) needs the "
                             f"'pure_nccl' communicator, got {type(communicator).__name__}")
        return _DoubleBufferingOptimizer(actual_optimizer, communicator, zero_fill)
    return _MultiNodeOptimizer(actual_optimizer, communicator, zero_fill)
