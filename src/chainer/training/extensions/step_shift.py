"""Multiplies a hyperparameter by ``gamma`` every ``step`` calls."""
from chainer.training.extensions import _shift


class StepShift(_shift._Shift):
    """Sets ``optimizer.<attr>`` to ``init * gamma ** floor(t / step)``.

    Args:
        attr (str): Name of the optimizer attribute.
        gamma (float): Factor applied every ``step`` calls.
        step (int): Interval of the factor, in calls.
        init (float): Initial value (the attribute's value when ``None``).
        target (float): Value at which the shift stops.
        optimizer: Optimizer to change (the ``'main'`` one when ``None``).
    """

    def __init__(self, attr, gamma, step, init=None, target=None, optimizer=None):
        super().__init__(attr, optimizer)
        if step <= 0:
            raise ValueError(f'StepShift: step must be positive, got {step}')
        self._gamma = gamma
        self._step = step
        self._init = init
        self._target = target

    def _init_value(self, optimizer):
        if self._init is None:
            self._init = getattr(optimizer, self._attr)

    def _value(self, t):
        value = self._init * self._gamma ** (t // self._step)
        return _shift.clip_to_target(value, self._target, self._gamma > 1)
