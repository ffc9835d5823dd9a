"""Reports the ratio of two accumulated observations (a micro average)."""
from chainer.training import _state
from chainer.training import extension
from chainer.training import util


class MicroAverage(extension.Extension):
    """Reports ``sum(numerator) / sum(denominator)`` over each interval.

    Useful for accuracies of batches of different sizes: report the number
    of correct answers and the batch size, and get the exact accuracy of
    the interval as ``result_key``.

    Args:
        numerator_key (str): Observed key of the numerators.
        denominator_key (str): Observed key of the denominators.
        result_key (str): Key under which the ratio is written into the observation.
        trigger: Length of the interval (``(1, 'epoch')``).
    """

    priority = extension.PRIORITY_EDITOR

    def __init__(self, numerator_key, denominator_key, result_key, trigger=(1, 'epoch')):
        self._trigger = util._trigger_of(trigger, 'MicroAverage')
        self._numerator_key = numerator_key
        self._denominator_key = denominator_key
        self._result_key = result_key
        self._numerator = 0
        self._denominator = 0

    def __call__(self, trainer):
        observation = trainer.observation
        if not (self._numerator_key in observation and self._denominator_key in observation):
            return
        self._numerator += observation[self._numerator_key]
        self._denominator += observation[self._denominator_key]
        if self._trigger(trainer):
            observation[self._result_key] = self._numerator / self._denominator
            self._numerator = 0
            self._denominator = 0

    def serialize(self, serializer):
        self._numerator = _state.number(serializer, '_numerator', self._numerator)
        self._denominator = _state.number(serializer, '_denominator', self._denominator)
        # The trigger's progress is rechainer's addition (optional when loading).
        _state.serialize_optional(serializer, '_trigger', self._trigger)
