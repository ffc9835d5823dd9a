"""Decays a hyperparameter as ``init * (1 + gamma * t) ** -power``."""
from chainer.training.extensions import _shift


class InverseShift(_shift._Shift):
    """Sets ``optimizer.<attr>`` to ``init * (1 + gamma * t) ** (-power)``.

    Args:
        attr (str): Name of the optimizer attribute.
        gamma (float): Scale of ``t``.
        power (float): Exponent.
        init (float): Initial value (the attribute's value when ``None``).
        target (float): Value at which the shift stops.
        optimizer: Optimizer to change (the ``'main'`` one when ``None``).
    """

    def __init__(self, attr, gamma, power, init=None, target=None, optimizer=None):
        super().__init__(attr, optimizer)
        if gamma < 0:
            raise ValueError(f'InverseShift: gamma must be non-negative, got {gamma}')
        self._gamma = gamma
        self._power = power
        self._init = init
        self._target = target

    def _init_value(self, optimizer):
        if self._init is None:
            self._init = getattr(optimizer, self._attr)

    def _value(self, t):
        value = self._init * (1 + self._gamma * t) ** (-self._power)
        return _shift.clip_to_target(value, self._target, self._power < 0)
