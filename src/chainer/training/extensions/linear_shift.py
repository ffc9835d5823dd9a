"""Moves a hyperparameter linearly between two values."""
from chainer.training.extensions import _shift


class LinearShift(_shift._Shift):
    """Moves ``optimizer.<attr>`` linearly from ``v1`` to ``v2`` between calls ``t1`` and ``t2``.

    Args:
        attr (str): Name of the optimizer attribute.
        value_range (tuple): ``(v1, v2)``.
        time_range (tuple): ``(t1, t2)``: the value is ``v1`` up to call ``t1``
            and ``v2`` from call ``t2``.
        optimizer: Optimizer to change (the ``'main'`` one when ``None``).
    """

    def __init__(self, attr, value_range, time_range, optimizer=None):
        super().__init__(attr, optimizer)
        self._value_range = value_range
        self._time_range = time_range

    def _value(self, t):
        t1, t2 = self._time_range
        v1, v2 = self._value_range
        if t <= t1:
            return v1
        if t >= t2:
            return v2
        rate = (t - t1) / (t2 - t1)
        return v1 + rate * (v2 - v1)
