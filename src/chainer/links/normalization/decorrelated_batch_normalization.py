"""Decorrelated batch normalization layer."""
import numpy

from chainer import configuration
from chainer.functions.normalization import decorrelated_batch_normalization as dbn
from chainer import link
from chainer.utils import argument

_TEST = ('test argument is not supported anymore. Use '
         "chainer.using_config('train', False)")


class DecorrelatedBatchNormalization(link.Link):
    """Decorrelated batch normalization (:func:`~chainer.functions.decorrelated_batch_normalization`).

    The channels are split into ``groups``; each group is whitened with the
    batch's statistics in training (updating ``avg_mean`` and
    ``avg_projection``), and with those running values otherwise.

    Args:
        size (int): Number of channels (axis 1 of the input).
        groups (int): Number of groups; it must divide ``size``.
        decay (float): Decay rate of the running statistics.
        eps (float): Added to the covariance's diagonal.
        dtype: Data type of the statistics.

    Attributes:
        avg_mean (N-dimensional array): Shape ``(groups, size // groups)``.
        avg_projection (N-dimensional array): Shape
            ``(groups, size // groups, size // groups)``; identities at first.
        N (int): Number of fine-tuning calls so far.
    """

    def __init__(self, size, groups=16, decay=0.9, eps=2e-5, dtype=numpy.float32):
        super().__init__()
        if size % groups:
            raise ValueError(f'DecorrelatedBatchNormalization: groups must divide size, got '
                             f'size={size}, groups={groups}')
        d = size // groups
        self.avg_mean = numpy.zeros((groups, d), dtype=dtype)
        self.register_persistent('avg_mean')
        self.avg_projection = numpy.broadcast_to(
            numpy.eye(d, dtype=dtype), (groups, d, d)).copy()
        self.register_persistent('avg_projection')
        self.N = 0
        self.register_persistent('N')
        self.decay = decay
        self.eps = eps
        self.groups = groups

    def forward(self, x, **kwargs):
        """Whitens ``x`` of shape ``(n, size, ...)`` (``finetune`` as for BatchNormalization)."""
        finetune, = argument.parse_kwargs(kwargs, ('finetune', False), test=_TEST)
        if configuration.config.train:
            if finetune:
                self.N += 1
                decay = 1. - 1. / self.N
            else:
                decay = self.decay
            return dbn.decorrelated_batch_normalization(
                x, groups=self.groups, eps=self.eps, running_mean=self.avg_mean,
                running_projection=self.avg_projection, decay=decay)
        return dbn.fixed_decorrelated_batch_normalization(
            x, self.avg_mean, self.avg_projection, groups=self.groups)

    def start_finetuning(self):
        """Resets the fine-tuning count ``N``."""
        self.N = 0
