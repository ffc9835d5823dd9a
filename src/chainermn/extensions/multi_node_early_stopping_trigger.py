"""MultiNodeEarlyStoppingTrigger: early stopping on a value averaged over the processes."""
from chainer import reporter
from chainer.training import triggers
from chainermn.extensions.observation_aggregator import ObservationAggregator


class MultiNodeEarlyStoppingTrigger:
    """A stop trigger that ends training on every process at once when a monitored value,
    averaged over the processes, stops improving.

    It is :class:`~chainer.training.triggers.EarlyStoppingTrigger` watching
    ``monitor + suffix``, a key that an :class:`ObservationAggregator` (communicating at
    each ``check_trigger``) fills with the mean of ``monitor`` over the processes: every
    process sees the same value, so they all stop at the same iteration.

    Args:
        comm (~chainermn.CommunicatorBase): The communicator.
        check_trigger: How often the value is checked (and averaged).
        monitor (str): Observed key to watch.
        patience (int): Checks without improvement before stopping (3 when ``None``).
        mode (str): ``'max'``, ``'min'`` or ``'auto'``.
        verbose (bool): Print a line when stopping.
        max_trigger: Stop unconditionally when this trigger fires.
        suffix (str): Appended to ``monitor`` for the key of the averaged value.
    """

    def __init__(self, comm, *, check_trigger=(1, 'epoch'), monitor='main/loss',
                 patience=None, mode='auto', verbose=False, max_trigger=(100, 'epoch'),
                 suffix='_aggregated', **kwargs):
        aggregated = monitor + suffix
        self.actual_trigger = triggers.EarlyStoppingTrigger(
            check_trigger=check_trigger, monitor=aggregated, patience=patience, mode=mode,
            verbose=verbose, max_trigger=max_trigger, **kwargs)
        self.aggregator = ObservationAggregator(comm, monitor, aggregated,
                                                comm_trigger=check_trigger)

    def __call__(self, trainer):
        self.aggregator(trainer)
        return self.actual_trigger(trainer)

    def _stop_condition(self):
        return self.actual_trigger.count >= self.actual_trigger.patience

    def _init_summary(self):
        self.actual_trigger._summary = reporter.DictSummary()

    def get_training_length(self):
        return self.actual_trigger.get_training_length()
