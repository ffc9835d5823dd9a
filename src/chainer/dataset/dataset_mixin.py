"""DatasetMixin: indexing (ints, slices, index lists) on top of ``get_example``."""
import numpy


class DatasetMixin:
    """Base of datasets that define ``__len__`` and ``get_example(i)``.

    ``dataset[i]`` returns ``get_example(i)``; ``dataset[slice]`` and
    ``dataset[list_or_array_of_indices]`` return lists of examples.
    """

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self.get_example(i) for i in range(*index.indices(len(self)))]
        if isinstance(index, (list, numpy.ndarray)):
            return [self.get_example(i) for i in index]
        return self.get_example(index)

    def __len__(self):
        """Returns the number of examples."""
        raise NotImplementedError

    def get_example(self, i):
        """Returns the ``i``-th example (subclasses implement this)."""
        raise NotImplementedError
