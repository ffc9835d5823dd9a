"""Progress bookkeeping shared by the interval and schedule triggers."""
import warnings


def check_unit(unit, where):
    if unit not in ('epoch', 'iteration'):
        raise ValueError(
            f"{where}: Trigger unit must be either 'epoch' or 'iteration', got {unit!r}")


class _ProgressTrigger:
    # Remembers the progress at its previous call, so that a trigger called
    # only now and then still sees every boundary crossed since (and, once
    # serialized, continues exactly where it was after a resume). -1 means
    # "unknown" (a file written without these keys): the updater's own
    # previous progress is used then.

    unit = 'iteration'
    _previous_iteration = 0
    _previous_epoch_detail = 0.0

    def _step(self, trainer):
        """Returns ``(previous, current)`` progress in the trigger's unit."""
        updater = trainer.updater
        if self.unit == 'epoch':
            current = updater.epoch_detail
            previous = self._previous_epoch_detail
            if previous < 0:
                previous = updater.previous_epoch_detail
                if previous is None:
                    previous = 0.0
        else:
            current = updater.iteration
            previous = self._previous_iteration
            if previous < 0:
                previous = current - 1
        self._previous_iteration = updater.iteration
        self._previous_epoch_detail = updater.epoch_detail
        return previous, current

    def serialize(self, serializer):
        try:
            self._previous_iteration = serializer(
                'previous_iteration', self._previous_iteration)
        except KeyError:
            warnings.warn(
                f'{type(self).__name__}: the file holds no previous_iteration (it was '
                f'written by an old version); the updater\'s progress is used instead')
            self._previous_iteration = -1
        try:
            self._previous_epoch_detail = serializer(
                'previous_epoch_detail', self._previous_epoch_detail)
        except KeyError:
            warnings.warn(
                f'{type(self).__name__}: the file holds no previous_epoch_detail (it was '
                f'written by an old version); the updater\'s progress is used instead')
            self._previous_epoch_detail = -1.
