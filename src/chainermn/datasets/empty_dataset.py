"""A dataset of empty examples, for processes that only need the length of one."""


def create_empty_dataset(dataset):
    """Returns a dataset of ``len(dataset)`` empty tuples.

    Model-parallel processes that take their inputs from other processes still iterate over
    a dataset to stay in step; this one carries no data.

    Args:
        dataset: Any object with ``len()``.

    Returns:
        list: ``[()] * len(dataset)``.
    """
    return [()] * len(dataset)
