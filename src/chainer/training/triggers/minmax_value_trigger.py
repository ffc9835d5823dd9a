"""Triggers that fire when an observed value reaches its best so far."""
import numpy

from chainer import reporter
from chainer.training import util


class BestValueTrigger:
    """Fires when the mean of an observed value over an interval is the best so far.

    Args:
        key (str): Key of the observed value (such as ``'validation/main/loss'``).
        compare: ``compare(best, current)`` returns ``True`` if ``current`` is better.
        trigger: Interval over which the value is averaged and checked.
    """

    def __init__(self, key, compare, trigger=(1, 'epoch')):
        self._key = key
        self._best_value = None
        self._interval_trigger = util._trigger_of(trigger, 'BestValueTrigger')
        self._summary = reporter.DictSummary()
        self._compare = compare

    def __call__(self, trainer):
        observation = trainer.observation
        if self._key in observation:
            self._summary.add({self._key: observation[self._key]})
        if not self._interval_trigger(trainer):
            return False
        stats = self._summary.compute_mean()
        self._summary = reporter.DictSummary()
        if self._key not in stats:
            return False
        value = float(stats[self._key])
        if self._best_value is None or self._compare(self._best_value, value):
            self._best_value = value
            return True
        return False

    def serialize(self, serializer):
        self._interval_trigger.serialize(serializer['interval_trigger'])
        self._summary.serialize(serializer['summary'])
        best = serializer('best_value', self._best_value)
        if isinstance(best, numpy.ndarray):
            best = best.item()
        self._best_value = best


class MaxValueTrigger(BestValueTrigger):
    """Fires when the observed value ``key`` reaches a new maximum (see BestValueTrigger)."""

    def __init__(self, key, trigger=(1, 'epoch')):
        super().__init__(key, lambda best, value: value > best, trigger)


class MinValueTrigger(BestValueTrigger):
    """Fires when the observed value ``key`` reaches a new minimum (see BestValueTrigger)."""

    def __init__(self, key, trigger=(1, 'epoch')):
        super().__init__(key, lambda best, value: value < best, trigger)
