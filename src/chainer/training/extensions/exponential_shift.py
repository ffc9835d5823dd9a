"""Multiplies a hyperparameter by a constant rate at each call."""
from chainer.training.extensions import _shift


class ExponentialShift(_shift._Shift):
    """Sets ``optimizer.<attr>`` to ``init * rate ** t`` after the t-th call.

    Args:
        attr (str): Name of the optimizer attribute (such as ``'lr'``).
        rate (float): Factor applied at each call.
        init (float): Initial value (the attribute's value when ``None``).
        target (float): Value at which the shift stops (no limit when ``None``).
        optimizer: Optimizer to change (the updater's ``'main'`` one when ``None``).
    """

    def __init__(self, attr, rate, init=None, target=None, optimizer=None):
        super().__init__(attr, optimizer)
        if rate < 0:
            raise ValueError(f'ExponentialShift: rate must be non-negative, got {rate}')
        self._rate = rate
        self._init = init
        self._target = target

    def _init_value(self, optimizer):
        if self._init is None:
            self._init = getattr(optimizer, self._attr)

    def _value(self, t):
        value = self._init * self._rate ** t
        return _shift.clip_to_target(value, self._target, self._rate > 1)
