"""DaliIterator: NVIDIA DALI pipelines (not supported by rechainer)."""
from chainer.dataset import iterator


class DaliIterator(iterator.Iterator):
    """Iterator over an NVIDIA DALI pipeline: not supported by rechainer.

    Raises:
        RuntimeError: Always. Read the data with a dataset and
            :class:`~chainer.iterators.MultiprocessIterator` instead.
    """

    def __init__(self, pipeline, repeat=True):
        raise RuntimeError(
            'DaliIterator is not supported by rechainer (NVIDIA DALI pipelines are not '
            'integrated); wrap the data in a dataset and use '
            'chainer.iterators.MultiprocessIterator or SerialIterator instead')

    def finalize(self):
        pass
