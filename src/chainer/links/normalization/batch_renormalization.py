"""Batch renormalization layer."""
from chainer import configuration
from chainer.functions.normalization import batch_normalization
from chainer.functions.normalization import batch_renormalization
from chainer.links.normalization.batch_normalization import BatchNormalization
from chainer import variable


class BatchRenormalization(BatchNormalization):
    """Batch renormalization layer (:func:`~chainer.functions.batch_renormalization`).

    Like :class:`~chainer.links.BatchNormalization`, but in training the batch
    statistics are corrected towards the running ones by factors clipped to
    ``[1/rmax, rmax]`` and ``[-dmax, dmax]``.

    Args:
        size (int or tuple of ints): Shape of the statistics and parameters.
        rmax (float): Bound of the scale correction.
        dmax (float): Bound of the shift correction.
        decay, eps, dtype, use_gamma, use_beta, initial_gamma, initial_beta,
        initial_avg_mean, initial_avg_var: As for
            :class:`~chainer.links.BatchNormalization`.
    """

    def __init__(self, size, rmax=1, dmax=0, decay=0.9, eps=2e-5, dtype=None,
                 use_gamma=True, use_beta=True, initial_gamma=None, initial_beta=None,
                 initial_avg_mean=None, initial_avg_var=None):
        super().__init__(size, decay, eps, dtype, use_gamma, use_beta, initial_gamma,
                         initial_beta, initial_avg_mean=initial_avg_mean,
                         initial_avg_var=initial_avg_var)
        self.rmax = rmax
        self.dmax = dmax
        self.r = None
        self.d = None

    def forward(self, x, finetune=False):
        """Normalizes ``x`` (``finetune`` as for :class:`~chainer.links.BatchNormalization`)."""
        gamma = self._param_or_constant(self.gamma, 1)
        beta = self._param_or_constant(self.beta, 0)
        if configuration.config.train:
            if configuration.config.in_recomputing:
                # F.forget runs the call again in backward: it must see the running
                # statistics of the first call, which updated them.
                mean, var = self._stats_before_update
                return batch_renormalization.batch_renormalization(
                    x, gamma, beta, self.rmax, self.dmax, self.eps, mean, var,
                    update_statistics=False)
            if configuration.config._will_recompute:
                self._stats_before_update = (self.avg_mean.copy(), self.avg_var.copy())
            decay = self._next_decay(finetune)
            return batch_renormalization.batch_renormalization(
                x, gamma, beta, self.rmax, self.dmax, self.eps, self.avg_mean, self.avg_var,
                decay, update_statistics=True)
        return batch_normalization.fixed_batch_normalization(
            x, gamma, beta, variable.Variable(self.avg_mean), variable.Variable(self.avg_var),
            self.eps)
