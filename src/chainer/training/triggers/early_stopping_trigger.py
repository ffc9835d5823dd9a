"""A stop trigger that ends training when a monitored value stops improving."""
import operator
import warnings

from chainer import reporter
from chainer.training import util
from chainer.utils import argument


class EarlyStoppingTrigger:
    """Stops training when ``monitor`` has not improved for ``patience`` checks.

    Args:
        check_trigger: How often the monitored value is checked (its mean
            over the interval is used).
        monitor (str): Observed key to watch.
        patience (int): Number of checks without improvement before stopping
            (3 when ``None``).
        mode (str): ``'max'``, ``'min'`` or ``'auto'`` (``'max'`` when the key
            contains ``'accuracy'``, ``'min'`` otherwise).
        verbose (bool): Print a line when stopping.
        max_trigger: Stop unconditionally when this trigger fires.
    """

    def __init__(self, check_trigger=(1, 'epoch'), monitor='main/loss', patience=None,
                 mode='auto', verbose=False, max_trigger=(100, 'epoch'), **kwargs):
        (patients,) = argument.parse_kwargs(kwargs, ('patients', None))
        if patience is None:
            patience = 3 if patients is None else patients
        self.count = 0
        self.patience = patience
        self.monitor = monitor
        self.verbose = verbose
        self.already_warning = False
        where = 'EarlyStoppingTrigger ({})'
        self._max_trigger = util._trigger_of(max_trigger, where.format('max_trigger'))
        self._interval_trigger = util._trigger_of(check_trigger, where.format('check_trigger'))
        self._summary = reporter.DictSummary()
        if mode == 'max' or (mode != 'min' and 'accuracy' in monitor):
            self._compare, self.best = operator.gt, float('-inf')
        else:
            self._compare, self.best = operator.lt, float('inf')

    def __call__(self, trainer):
        observation = trainer.observation
        if self.monitor in observation:
            self._summary.add({self.monitor: observation[self.monitor]})
        if self._max_trigger(trainer):
            return True
        if not self._interval_trigger(trainer):
            return False
        if self.monitor not in observation:
            if not self.already_warning:
                warnings.warn(f'EarlyStoppingTrigger: {self.monitor!r} is not in the '
                              f'observation; the trigger cannot stop the training early')
                self.already_warning = True
            return False
        value = float(self._summary.compute_mean()[self.monitor])
        self._summary = reporter.DictSummary()
        if self._compare(value, self.best):
            self.best = value
            self.count = 0
        else:
            self.count += 1
        if self.count >= self.patience:
            if self.verbose:
                print(f'Epoch {trainer.updater.epoch}: early stopping')
            return True
        return False

    def get_training_length(self):
        return self._max_trigger.get_training_length()
