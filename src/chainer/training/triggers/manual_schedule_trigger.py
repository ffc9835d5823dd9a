"""A trigger that fires at given iterations or epochs."""
from chainer.training.triggers import _progress


class ManualScheduleTrigger(_progress._ProgressTrigger):
    """Fires when the training reaches (or crosses) one of ``points``.

    Args:
        points (int, float or list of them): Where to fire.
        unit (str): ``'iteration'`` or ``'epoch'``.

    Attributes:
        finished (bool): ``True`` once the last point has been passed.
    """

    def __init__(self, points, unit):
        _progress.check_unit(unit, 'ManualScheduleTrigger')
        self.points = points if isinstance(points, list) else [points]
        self.unit = unit
        self.finished = False
        self._previous_iteration = 0
        self._previous_epoch_detail = 0.0

    def __call__(self, trainer):
        """Returns ``True`` if a point lies in (previous call, now]."""
        previous, current = self._step(trainer)
        fire = any(previous < p <= current for p in self.points)
        if current >= max(self.points):
            self.finished = True
        return fire

    def get_training_length(self):
        return max(self.points), self.unit

    def serialize(self, serializer):
        super().serialize(serializer)
        self.finished = serializer('finished', self.finished)
