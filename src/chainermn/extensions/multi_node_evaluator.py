"""Evaluators whose result is averaged over all processes."""
import numpy


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
