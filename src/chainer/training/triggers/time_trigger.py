"""A trigger that fires every ``period`` seconds of training."""


class TimeTrigger:
    """Fires each time ``trainer.elapsed_time`` passes a multiple of ``period``.

    Args:
        period (float): Interval in seconds.
    """

    def __init__(self, period):
        self._period = period
        self._next_time = period

    def __call__(self, trainer):
        if trainer.elapsed_time < self._next_time:
            return False
        self._next_time += self._period
        return True

    def serialize(self, serializer):
        self._next_time = serializer('next_time', self._next_time)
