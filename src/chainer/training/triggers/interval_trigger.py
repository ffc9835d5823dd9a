"""A trigger that fires every ``period`` iterations or epochs."""
import math

from chainer.training.triggers import _progress


class IntervalTrigger(_progress._ProgressTrigger):
    """Fires each time the training crosses a multiple of ``period``.

    It compares the progress with the one at its previous call, so a boundary
    is never missed when the trigger is not called at every iteration.

    Args:
        period (int or float): Length of the interval (a float is allowed
            for epochs, such as ``0.5``).
        unit (str): ``'iteration'`` or ``'epoch'``.
    """

    def __init__(self, period, unit):
        _progress.check_unit(unit, 'IntervalTrigger')
        self.period = period
        self.unit = unit
        self._previous_iteration = 0
        self._previous_epoch_detail = 0.0
        self.count = 0

    def __call__(self, trainer):
        """Returns ``True`` if a multiple of the period was crossed since the last call."""
        previous, current = self._step(trainer)
        count = math.floor(current / self.period)
        self.count = count
        return count != math.floor(previous / self.period)

    def get_training_length(self):
        """Returns ``(period, unit)``, the length of a training this trigger stops."""
        return self.period, self.unit

    def __str__(self):
        return f'{type(self).__name__}({self.period}, {self.unit!r})'
