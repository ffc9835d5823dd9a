"""Shows the progress of the training: bars, speed and the estimated time left."""
import sys

from chainer.training import extension
from chainer.training.extensions import util


class ProgressBar(extension.Extension):
    """Prints the training progress every ``update_interval`` iterations.

    It shows the fraction of the whole training and of the current epoch,
    the iteration and epoch counts, the speed (iterations per second) and the
    estimated time to finish. On a terminal it redraws in place; otherwise
    it prints one line per update.

    Args:
        training_length (tuple): ``(length, unit)`` of the training; read from
            the stop trigger's ``get_training_length()`` when ``None``.
        update_interval (int): Iterations between updates.
        bar_length (int): Width of the bars.
        out: Stream to print to.
    """

    trigger = 1, 'iteration'

    def __init__(self, training_length=None, update_interval=100, bar_length=50,
                 out=sys.stdout):
        self._training_length = training_length
        self._update_interval = update_interval
        self._bar_length = bar_length
        self._out = out
        self._status_template = None
        self._pbar = _TrainingProgressBar(self, bar_length, out)
        self._recent_timing = self._pbar._recent_timing

    def __call__(self, trainer):
        if self._training_length is None:
            get_length = getattr(trainer.stop_trigger, 'get_training_length', None)
            if get_length is None:
                raise TypeError(
                    'ProgressBar: the stop trigger has no get_training_length(); pass '
                    "training_length=(length, unit), such as (20, 'epoch')")
            self._training_length = get_length()
        iteration = trainer.updater.iteration
        if iteration % self._update_interval == 0:
            self._pbar.trainer = trainer
            self._pbar.update()

    def finalize(self):
        self._pbar.close()


class _TrainingProgressBar(util.ProgressBar):

    trainer = None

    def __init__(self, ext, bar_length, out):
        super().__init__(bar_length, out)
        self._ext = ext

    def get_lines(self):
        trainer = self.trainer
        updater = trainer.updater
        length, unit = self._ext._training_length
        iteration, epoch_detail = updater.iteration, updater.epoch_detail
        done = iteration if unit == 'iteration' else epoch_detail
        rate = done / length
        lines = [f'     total [{util._bar(self._bar_length, rate)}] {rate:7.2%}']
        epoch_rate = epoch_detail - updater.epoch
        lines.append(f'this epoch [{util._bar(self._bar_length, epoch_rate)}] '
                     f'{epoch_rate:7.2%}')
        lines.append(f'{iteration:10} iter, {updater.epoch} epoch / {length} {unit}s')
        speed_t, speed_e = self.update_speed(iteration, epoch_detail)
        speed = speed_t if unit == 'iteration' else speed_e
        if speed > 0:
            eta = util._eta((length - done) / speed)
            lines.append(f'{speed_t:10.5g} iters/sec. Estimated time to finish: {eta}.')
        else:
            lines.append(f'{speed_t:10.5g} iters/sec. Estimated time to finish: unknown.')
        return lines
