"""Decorrelated batch normalization layer."""
import warnings

import numpy

import chainer
from chainer import configuration
from chainer.functions.normalization import decorrelated_batch_normalization as dbn
from chainer import link
from chainer.utils import argument

_TEST = ('test argument is not supported anymore. Use '
         "chainer.using_config('train', False)")


class DecorrelatedBatchNormalization(link.Link):
    """Decorrelated batch normalization layer.

    See :func:`~chainer.functions.decorrelated_batch_normalization`.

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
            if configuration.config.in_recomputing:
                # F.forget runs the call again in backward: the statistics (and N)
                # were updated the first time already.
                return dbn.decorrelated_batch_normalization(x, groups=self.groups,
                                                            eps=self.eps)
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

    def serialize(self, serializer):
        if not isinstance(serializer, chainer.serializer.Deserializer):
            return super().serialize(serializer)
        # Files of Chainer before v7 hold one group's statistics ((C,) and (C, C)):
        # they are repeated for every group, with a warning when there are several.
        for name in ('avg_mean', 'avg_projection'):
            current = getattr(self, name)
            loaded = serializer(name, None)
            if loaded is None:
                continue
            loaded = numpy.asarray(loaded)
            if loaded.ndim == current.ndim - 1:
                if self.groups != 1:
                    warnings.warn('Found moving statistics of old '
                                  'DecorrelatedBatchNormalization, whose algorithm was '
                                  'different from the paper.')
                loaded = numpy.broadcast_to(loaded, (self.groups,) + loaded.shape)
            if loaded.shape != current.shape:
                raise ValueError(
                    f'DecorrelatedBatchNormalization: {name} in the file has shape '
                    f'{loaded.shape}, expected {current.shape}')
            current[...] = self.device.send(numpy.ascontiguousarray(loaded)).astype(
                current.dtype, copy=False)
        self.N = serializer('N', self.N)
