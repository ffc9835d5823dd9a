"""ObservationAggregator: an observed value averaged over the processes and over time."""
import numpy

from chainer import backend
from chainer.training import extension
from chainer.training import trigger as trigger_module
from chainer import variable


def _average_2d(xs):
    """The mean of every value of ``xs``, a list (one per process) of lists of values."""
    values = [x for history in xs for x in history]
    return sum(values) / len(values)


def _to_host(value):
    # Values cross processes by pickle, in host memory; Variables as their arrays.
    if isinstance(value, variable.Variable):
        value = value.array
    if hasattr(value, 'device') and not hasattr(value, '__array_interface__'):
        value = backend.CpuDevice().send(value)
    return value


class ObservationAggregator(extension.Extension):
    """Puts into the observation a value averaged over the processes (and iterations).

    Each iteration it records this process's ``trainer.observation[original_key]`` (when
    present); when ``comm_trigger`` fires, every process's records since the last time are
    gathered, ``aggregator`` (the mean of all of them by default) turns them into one value
    on rank 0, and every process stores that value as
    ``trainer.observation[aggregated_key]``, where reporters (LogReport...) see it. Give it
    a priority between the extensions that write the observation and those that read it
    (the default, ``PRIORITY_EDITOR``, does that for the usual ones).

    Args:
        comm (~chainermn.CommunicatorBase): The communicator.
        original_key (str): The observed key (``'main/loss'``).
        aggregated_key (str): Key of the result (default: ``original_key``, replaced).
        comm_trigger: How often to communicate (``(1, 'iteration')``).
        aggregator (callable): ``aggregator(xs) -> value``, where ``xs`` holds one list of
            records per process; the default averages them all.
    """

    trigger = 1, 'iteration'
    priority = extension.PRIORITY_EDITOR
    name = None

    def __init__(self, comm, original_key, aggregated_key=None, *,
                 comm_trigger=(1, 'iteration'), aggregator=None):
        self.comm = comm
        self.original_key = original_key
        self.aggregated_key = original_key if aggregated_key is None else aggregated_key
        self.comm_trigger = trigger_module.get_trigger(comm_trigger)
        self.observation_history = []
        self.aggregator = _average_2d if aggregator is None else aggregator

    def __call__(self, trainer):
        summary = self.compute_summary(trainer)
        if summary is not None:
            trainer.observation[self.aggregated_key] = summary

    def compute_summary(self, trainer):
        """Records this iteration's value; when ``comm_trigger`` fires, returns the value
        aggregated over the processes (``None`` otherwise, or when no process has a record).
        Every process calls it together."""
        observation = trainer.observation
        if self.original_key in observation:
            value = observation[self.original_key]
            self.observation_history.append(_to_host(value))
            self._as_variable = isinstance(value, variable.Variable)
        if not self.comm_trigger(trainer):
            return None
        gathered = self.comm.gather_obj((self.observation_history,
                                         getattr(self, '_as_variable', False)))
        self.observation_history = []
        result = None
        if gathered is not None:
            histories = [h for h, _ in gathered]
            if any(histories):
                result = self.aggregator(histories)
                if any(v for _, v in gathered) and not isinstance(result, variable.Variable):
                    result = variable.Variable(numpy.asarray(result))
        return self.comm.bcast_obj(result)
