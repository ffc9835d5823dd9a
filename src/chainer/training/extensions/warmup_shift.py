"""Raises a hyperparameter linearly to its value over the first iterations."""
from chainer.training.extensions import _shift


class WarmupShift(_shift._Shift):
    """Moves ``optimizer.<attr>`` from ``warmup_start`` to ``init`` over ``warmup_iter`` calls.

    Args:
        attr (str): Name of the optimizer attribute.
        warmup_start (float): Value at the start.
        warmup_iter (int): Number of calls of the warm-up.
        init (float): Value after the warm-up.
        optimizer: Optimizer to change (the ``'main'`` one when ``None``).
    """

    def __init__(self, attr, warmup_start, warmup_iter, init, optimizer=None):
        super().__init__(attr, optimizer)
        self._warmup_start = warmup_start
        self._warmup_iter = warmup_iter
        self._init = init

    def initialize(self, trainer):
        self._update_value(self._get_optimizer(trainer), self._value(self._t))

    def _value(self, t):
        if t >= self._warmup_iter:
            return self._init
        return self._warmup_start + (self._init - self._warmup_start) * t / self._warmup_iter

    def serialize(self, serializer):
        self._t = serializer('_t', self._t)
