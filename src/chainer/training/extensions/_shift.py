"""The part that all hyperparameter-shift extensions share."""
import numpy

from chainer.training import extension


class _Shift(extension.Extension):
    # A shift sets ``optimizer.<attr>`` to value(t) after the t-th call. The
    # subclasses give _value(t); this base finds the optimizer, applies the
    # value (also at initialize, so that a resumed run continues with the
    # value it had), and saves the state.

    _optimizer = None
    _last_value = None
    _t = 0

    def __init__(self, attr, optimizer=None):
        self._attr = attr
        self._optimizer = optimizer
        self._t = 0
        self._last_value = None

    def _get_optimizer(self, trainer):
        return self._optimizer or trainer.updater.get_optimizer('main')

    def _init_value(self, optimizer):
        """Sets defaults that depend on the optimizer (the initial value)."""

    def initialize(self, trainer):
        optimizer = self._get_optimizer(trainer)
        self._init_value(optimizer)
        value = self._last_value if self._last_value is not None else self._value(self._t)
        self._update_value(optimizer, value)

    def __call__(self, trainer):
        self._t += 1
        self._update_value(self._get_optimizer(trainer), self._value(self._t))

    def _update_value(self, optimizer, value):
        setattr(optimizer, self._attr, value)
        self._last_value = value

    def serialize(self, serializer):
        self._t = serializer('_t', self._t)
        last = serializer('_last_value', self._last_value)
        if isinstance(last, numpy.ndarray):
            last = last.item()
        self._last_value = last


def clip_to_target(value, target, growing):
    """Stops ``value`` at ``target`` (sign-aware, as the ratio is compared)."""
    if target is None:
        return value
    ratio = value / target
    if (growing and ratio > 1) or (not growing and ratio < 1):
        return target
    return value
