"""MultiNodeBatchNormalization: batch normalization with the statistics of every process."""
import numpy

import chainer
from chainer import configuration
from chainer.functions.normalization import batch_normalization as _bn
from chainer import initializers
from chainer import link
from chainer.links.normalization import batch_normalization as _links_bn
from chainer.utils import argument
from chainer import variable
from chainermn.functions import batch_normalization as chainermn_batch_normalization


class MultiNodeBatchNormalization(link.Link):
    """Batch normalization whose statistics are those of the whole batch over all processes.

    In data-parallel training each process normalizes its own part of the batch; with this
    link, the mean and variance (in training mode) are those of the union of every process's
    part, so the result is that of :class:`~chainer.links.BatchNormalization` on the
    concatenated batch, and so are the gradients of the inputs (the gradients of ``gamma``
    and ``beta`` are this process's share: their sum over the processes is the one-process
    gradient). The running averages are updated with the global statistics, so they are the
    same on every process. In test mode (``chainer.config.train`` off) it uses the running
    averages and communicates nothing.

    Every process must call it, and backpropagate through it, the same number of times in
    the same order. Deep copies share the communicator.

    Args:
        size (int or tuple of ints): Shape of the channels (of ``gamma``).
        comm (~chainermn.CommunicatorBase): The communicator.
        decay (float): Decay rate of the running averages.
        eps (float): Added to the variance for stability.
        dtype: Data type of the parameters and statistics (default ``chainer.config.dtype``).
        use_gamma (bool): Whether to learn a scale ``gamma``.
        use_beta (bool): Whether to learn a shift ``beta``.
        initial_gamma: Initializer of ``gamma`` (``None``: ones).
        initial_beta: Initializer of ``beta`` (``None``: zeros).
        communication_backend (str): ``'mpi'``, ``'nccl'`` or ``'auto'`` (see
            :func:`chainermn.functions.batch_normalization.get_communication_backend`).
    """

    gamma = None
    beta = None

    def __init__(self, size, comm, decay=0.9, eps=2e-05, dtype=None, use_gamma=True,
                 use_beta=True, initial_gamma=None, initial_beta=None,
                 communication_backend='auto'):
        chainer.utils.experimental('chainermn.links.MultiNodeBatchNormalization')
        backend_name = chainermn_batch_normalization.get_communication_backend(
            comm, communication_backend)
        super().__init__()
        self._highprec_dtype = chainer.get_dtype(dtype, map_mixed16=numpy.float32)
        self.comm = comm
        self._communication_backend = backend_name
        self.N = 0
        self.register_persistent('N')
        self.decay = decay
        self.eps = eps
        dtype = self._highprec_dtype
        self.avg_mean = numpy.zeros(size, dtype=dtype)
        self.register_persistent('avg_mean')
        self.avg_var = numpy.ones(size, dtype=dtype)
        self.register_persistent('avg_var')
        with self.init_scope():
            if use_gamma:
                init = initializers._get_initializer(1 if initial_gamma is None
                                                     else initial_gamma)
                init.dtype = dtype
                self.gamma = variable.Parameter(init, size)
            if use_beta:
                init = initializers._get_initializer(0 if initial_beta is None
                                                     else initial_beta)
                init.dtype = dtype
                self.beta = variable.Parameter(init, size)

    # The same helpers as BatchNormalization's (the attributes they read are the same).
    _param_or_constant = _links_bn.BatchNormalization._param_or_constant
    _next_decay = _links_bn.BatchNormalization._next_decay
    start_finetuning = _links_bn.BatchNormalization.start_finetuning

    def __call__(self, x, finetune=False):
        # (ChainerMN's signature; Link.__call__ runs the hooks around forward)
        return super().__call__(x, finetune=finetune)

    def forward(self, x, **kwargs):
        """Normalizes ``x`` (see the class description).

        Args:
            x (~chainer.Variable or N-dimensional array): This process's part of the batch.
            finetune (bool): Average the statistics over all fine-tuning calls instead of
                decaying them (training mode only).

        Returns:
            ~chainer.Variable: The normalized, scaled and shifted input.
        """
        finetune, = argument.parse_kwargs(kwargs, ('finetune', False), test=_links_bn._TEST)
        gamma = self._param_or_constant(self.gamma, 1)
        beta = self._param_or_constant(self.beta, 0)
        if not configuration.config.train:
            return _bn.fixed_batch_normalization(
                x, gamma, beta, variable.Variable(self.avg_mean),
                variable.Variable(self.avg_var), self.eps)
        decay = self._next_decay(finetune)
        impl = chainermn_batch_normalization.MultiNodeBNImplSelector(
            self.comm, self._communication_backend)(None, ())
        return chainermn_batch_normalization._batch_normalization(
            x, gamma, beta, impl, self.eps, self.avg_mean, self.avg_var, decay)
