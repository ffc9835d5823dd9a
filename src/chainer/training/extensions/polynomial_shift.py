"""Decays a hyperparameter polynomially to zero over ``max_count`` calls."""
from chainer.training.extensions import _shift


class PolynomialShift(_shift._Shift):
    """Sets ``optimizer.<attr>`` to ``init * (1 - t / max_count) ** rate``.

    Args:
        attr (str): Name of the optimizer attribute.
        rate (float): Exponent of the polynomial.
        max_count (int): Number of calls after which the decay factor is 0.
        init (float): Initial value (the attribute's value when ``None``).
        target (float): Value at which the shift stops.
        optimizer: Optimizer to change (the ``'main'`` one when ``None``).
    """

    invoke_before_training = True  # the old flag, kept as Chainer 7 has it

    def __init__(self, attr, rate, max_count, init=None, target=None, optimizer=None):
        super().__init__(attr, optimizer)
        self._rate = rate
        self._max_count = max_count
        self._init = init
        self._target = target

    def _init_value(self, optimizer):
        if self._init is None:
            self._init = getattr(optimizer, self._attr)

    def _value(self, t):
        decay = max(1 - t / self._max_count, 0)
        if decay == 0 and self._rate < 0:
            # (0 ** negative) would divide by zero: the value grows without
            # bound, so it ends at the target, if any.
            return self._target if self._target is not None else float('inf') * self._init
        value = self._init * decay ** self._rate
        return _shift.clip_to_target(value, self._target, self._rate < 0)
