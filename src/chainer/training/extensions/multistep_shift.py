"""Multiplies a hyperparameter by ``gamma`` at given steps."""
from chainer.training.extensions import _shift


class MultistepShift(_shift._Shift):
    """Sets ``optimizer.<attr>`` to ``init * gamma ** k`` after the k-th step value.

    Args:
        attr (str): Name of the optimizer attribute.
        gamma (float): Factor applied at each step.
        step_value (list of int): Calls at which the factor is applied.
        init (float): Initial value.
        optimizer: Optimizer to change (the ``'main'`` one when ``None``).
    """

    def __init__(self, attr, gamma, step_value, init, optimizer=None):
        super().__init__(attr, optimizer)
        self._gamma = gamma
        self._step_value = step_value
        self._stepvalue_size = len(step_value)
        self._init = init
        self._current_step = 0

    def initialize(self, trainer):
        self._update_value(self._get_optimizer(trainer), self._value(self._t))

    def _value(self, t):
        while (self._current_step < self._stepvalue_size
               and t >= self._step_value[self._current_step]):
            self._current_step += 1
        return self._init * self._gamma ** self._current_step

    def serialize(self, serializer):
        self._t = serializer('_t', self._t)
        self._current_step = serializer('_current_step', self._current_step)
