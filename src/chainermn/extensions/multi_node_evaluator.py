"""Evaluators whose result is combined over all processes."""
import copy
import itertools

import numpy

import chainer
from chainer import backend
from chainer.dataset import convert
from chainer.training import extension
from chainer.utils import argument


def _mean_over_processes(comm, local):
    # Each key is averaged over the processes that report it, so that a process whose shard
    # of the data is empty (and reports nothing) neither crashes nor drags the mean to zero.
    local = {k: float(v) for k, v in local.items()}
    gathered = comm.gather_obj(local)
    mean = None
    if comm.rank == 0:
        keys = sorted({k for d in gathered for k in d})
        mean = {k: numpy.float64(numpy.mean([d[k] for d in gathered if k in d]))
                for k in keys}
    return comm.bcast_obj(mean)


def _has_no_data(evaluator):
    get_all = getattr(evaluator, 'get_all_iterators', None)
    if get_all is None:
        return False
    datasets = [getattr(it, 'dataset', None) for it in get_all().values()]
    return bool(datasets) and all(d is not None and len(d) == 0 for d in datasets)


def create_multi_node_evaluator(actual_evaluator, communicator):
    """Makes an evaluator report the mean of its results over all processes.

    Each process evaluates its own part of the data (for instance its
    :func:`~chainermn.scatter_dataset` shard); each value of the result is then averaged over
    the processes, and every process gets the same result. The evaluator is changed in place
    and returned.

    Args:
        actual_evaluator (~chainer.training.extensions.Evaluator): The evaluator.
        communicator (~chainermn.CommunicatorBase): The communicator.

    Returns:
        The same evaluator.
    """
    actual_evaluator._mn_original_evaluate = actual_evaluator.evaluate
    actual_evaluator._mn_communicator = communicator

    def evaluate():
        if _has_no_data(actual_evaluator):
            local = {}  # an empty shard: nothing to report (and iterating it would fail)
        else:
            local = actual_evaluator._mn_original_evaluate()
        return _mean_over_processes(actual_evaluator._mn_communicator, local)

    actual_evaluator.evaluate = evaluate
    return actual_evaluator


class GenericMultiNodeEvaluator(extension.Extension):
    """An evaluator that computes something on each process and combines it on one.

    Subclass it and override :meth:`calc_local`, which computes a result from one batch of
    this process's data (it runs without building a graph), and :meth:`aggregate`, which
    combines every result of every process on ``root``. Calling the extension evaluates the
    whole iterator (reset first), gathers the results on ``root`` and returns what
    ``aggregate`` returns there (``None`` on the other processes). Every process calls it
    together; a process whose iterator is empty just contributes no results.

    Args:
        comm (~chainermn.CommunicatorBase): The communicator.
        iterator: Iterator over this process's evaluation data (``repeat=False``).
        target (~chainer.Link): The model (``get_target('main')``).
        device: Device the batches are sent to.
        converter: Batch converter (:func:`~chainer.dataset.concat_examples`).
        root (int): Rank that aggregates.
        progress_hook (callable): Called with each batch, after it is evaluated.
    """

    trigger = 1, 'epoch'
    default_name = 'validation'
    priority = extension.PRIORITY_WRITER
    name = None

    def __init__(self, comm, iterator, target, device=None, converter=convert.concat_examples,
                 root=0, **kwargs):
        progress_hook, = argument.parse_kwargs(kwargs, ('progress_hook', None))
        self.comm = comm
        self.iterator = iterator
        self._targets = {'main': target}
        self.converter = converter
        self.device = None if device is None else backend.get_device(device)
        self.root = root
        self._progress_hook = progress_hook

    def get_target(self, name):
        """Returns the target link of the given name (``'main'``)."""
        return self._targets[name]

    def calc_local(self, *args, **kwargs):
        """Computes a result from one converted batch (positional arguments for a tuple
        batch, keywords for a dict batch). Override it.

        Returns:
            Any picklable result.
        """
        raise NotImplementedError(f'{type(self).__name__} must override calc_local')

    def aggregate(self, results):
        """Combines the results of every process (on ``root``). Override it.

        Args:
            results (list): Every result of every process, batch by batch: the first batch
                of each process (by rank), then the second ones, and so on.

        Returns:
            The result of the evaluation (the default returns ``results``).
        """
        return results

    def __call__(self, trainer):
        local = self._evaluate_local(self.iterator)
        gathered = self.comm.gather_obj(local, root=self.root)
        if self.comm.rank != self.root:
            return None
        # Batch by batch, across the processes (a process with fewer batches drops out).
        results = [r for batch in itertools.zip_longest(*gathered, fillvalue=_NONE)
                   for r in batch if r is not _NONE]
        return self.aggregate(results)

    def _evaluate_local(self, iterator):
        dataset = getattr(iterator, 'dataset', None)
        if dataset is not None and len(dataset) == 0:
            return []   # an empty share of the data (iterating it would fail)
        if hasattr(iterator, 'reset'):
            iterator.reset()
            it = iterator
        else:
            it = copy.copy(iterator)
        return [self._evaluate_local_single(batch) for batch in it]

    def _evaluate_local_single(self, batch):
        in_arrays = convert._call_converter(self.converter, batch, self.device)
        with chainer.no_backprop_mode():
            if isinstance(in_arrays, tuple):
                result = self.calc_local(*in_arrays)
            elif isinstance(in_arrays, dict):
                result = self.calc_local(**in_arrays)
            else:
                result = self.calc_local(in_arrays)
        if self._progress_hook is not None:
            self._progress_hook(batch)
        return result


_NONE = object()
