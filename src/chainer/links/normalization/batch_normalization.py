"""Batch normalization layer."""
import numpy

import chainer
from chainer import configuration
from chainer.functions.normalization import batch_normalization
from chainer import initializers
from chainer import link
from chainer.utils import argument
from chainer import variable

_TEST = ('test argument is not supported anymore. Use '
         "chainer.using_config('train', False)")


class BatchNormalization(link.Link):
    """Batch normalization layer (:func:`~chainer.functions.batch_normalization`).

    In training mode the input is normalized with the batch's statistics and the
    running averages ``avg_mean`` and ``avg_var`` are updated; with
    ``chainer.config.train`` off they are used instead. ``forward(x, finetune=True)``
    averages the statistics over all calls so far (``N`` counts them) instead of
    decaying them.

    Args:
        size (int, tuple of ints or None): Shape of the statistics and parameters
            (the channels). ``None``: taken from the first input (``axis`` required).
        decay (float): Decay rate of the running averages.
        eps (float): Added to the variance for stability.
        dtype: Data type of the parameters and statistics (default
            ``chainer.config.dtype``).
        use_gamma (bool): Whether to learn a scale ``gamma``.
        use_beta (bool): Whether to learn a shift ``beta``.
        initial_gamma: Initializer of ``gamma`` (``None``: ones).
        initial_beta: Initializer of ``beta`` (``None``: zeros).
        axis (int, tuple of ints or None): Axes the statistics are taken over
            (``None``: the batch axis and the axes after those of ``size``).
        initial_avg_mean: Initializer of ``avg_mean`` (``None``: zeros).
        initial_avg_var: Initializer of ``avg_var`` (``None``: ones).

    Attributes:
        gamma (~chainer.Parameter): Scale, or ``None`` without ``use_gamma``.
        beta (~chainer.Parameter): Shift, or ``None`` without ``use_beta``.
        avg_mean (N-dimensional array): Running mean (persistent).
        avg_var (N-dimensional array): Running variance (persistent).
        N (int): Number of fine-tuning calls so far (persistent).
    """

    gamma = None
    beta = None
    avg_mean = None
    avg_var = None

    def __init__(self, size=None, decay=0.9, eps=2e-5, dtype=None, use_gamma=True,
                 use_beta=True, initial_gamma=None, initial_beta=None, axis=None,
                 initial_avg_mean=None, initial_avg_var=None):
        super().__init__()
        if size is None and axis is None:
            raise RuntimeError('size or axis is required')
        self._initial_avg_mean = initial_avg_mean
        self._initial_avg_var = initial_avg_var
        self.N = 0
        self.register_persistent('N')
        self.decay = decay
        self.eps = eps
        if isinstance(axis, int):
            axis = (axis,)
        self.axis = axis
        self._highprec_dtype = chainer.get_dtype(dtype, map_mixed16=numpy.float32)
        with self.init_scope():
            if use_gamma:
                if initial_gamma is None:
                    initial_gamma = 1
                gamma_init = initializers._get_initializer(initial_gamma)
                gamma_init.dtype = self._highprec_dtype
                self.gamma = variable.Parameter(gamma_init)
            if use_beta:
                if initial_beta is None:
                    initial_beta = 0
                beta_init = initializers._get_initializer(initial_beta)
                beta_init.dtype = self._highprec_dtype
                self.beta = variable.Parameter(beta_init)
        if size is not None:
            self._initialize_params(size)
        else:
            self.avg_mean = None
            self.register_persistent('avg_mean')
            self.avg_var = None
            self.register_persistent('avg_var')

    def _initialize_params(self, shape):
        dtype = self._highprec_dtype
        mean_init = self._initial_avg_mean
        var_init = self._initial_avg_var
        self.avg_mean = self._init_array(0 if mean_init is None else mean_init, shape, dtype)
        self.register_persistent('avg_mean')
        self.avg_var = self._init_array(1 if var_init is None else var_init, shape, dtype)
        self.register_persistent('avg_var')
        if self.gamma is not None:
            self.gamma.initialize(shape)
        if self.beta is not None:
            self.beta.initialize(shape)

    def _init_array(self, initializer, shape, dtype):
        return initializers.generate_array(initializers._get_initializer(initializer),
                                           shape, self.xp, dtype, device=self.device)

    @property
    def printable_specs(self):
        yield 'size', None if self.avg_mean is None else self.avg_mean.shape[0]
        yield 'decay', self.decay
        yield 'eps', self.eps
        yield 'dtype', self._highprec_dtype
        yield 'use_gamma', self.gamma is not None
        yield 'use_beta', self.beta is not None

    def _param_or_constant(self, param, value):
        if param is not None:
            return param
        return variable.Variable(self.xp.full(self.avg_mean.shape, value,
                                              dtype=self._highprec_dtype))

    def forward(self, x, **kwargs):
        """Normalizes ``x``.

        Args:
            x (~chainer.Variable or N-dimensional array): Input batch.
            finetune (bool): Average the statistics over all fine-tuning calls
                (training mode only).

        Returns:
            ~chainer.Variable: The normalized, scaled and shifted input.
        """
        finetune, = argument.parse_kwargs(kwargs, ('finetune', False), test=_TEST)
        if self.avg_mean is None:
            kept = tuple(i for i in range(len(x.shape)) if i not in self.axis)
            self._initialize_params(tuple(x.shape[i] for i in kept))
        gamma = self._param_or_constant(self.gamma, 1)
        beta = self._param_or_constant(self.beta, 0)
        if configuration.config.train:
            if configuration.config.in_recomputing:
                # F.forget runs the call again in backward: the statistics (and N)
                # were updated the first time already.
                return batch_normalization.batch_normalization(
                    x, gamma, beta, eps=self.eps, axis=self.axis)
            decay = self._next_decay(finetune)
            return batch_normalization.batch_normalization(
                x, gamma, beta, eps=self.eps, running_mean=self.avg_mean,
                running_var=self.avg_var, decay=decay, axis=self.axis)
        return batch_normalization.fixed_batch_normalization(
            x, gamma, beta, variable.Variable(self.avg_mean), variable.Variable(self.avg_var),
            self.eps, axis=self.axis)

    def _next_decay(self, finetune):
        # Fine-tuning averages over all calls so far: the decay is 1 - 1/N.
        if finetune:
            self.N += 1
            return 1. - 1. / self.N
        return self.decay

    def start_finetuning(self):
        """Resets the fine-tuning count ``N``; the next fine-tuning call restarts the average."""
        self.N = 0
