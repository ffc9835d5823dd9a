"""Iterator: the base class of dataset iterators."""


class Iterator:
    """Base class of iterators that yield minibatches (lists of examples).

    Iterators usually expose ``epoch``, ``epoch_detail``, ``previous_epoch_detail``
    and ``is_new_epoch``. ``finalize`` releases resources (workers, threads);
    ``with iterator:`` calls it on exit.
    """

    def __iter__(self):
        return self

    def __next__(self):
        """Returns the next minibatch."""
        raise NotImplementedError

    def next(self):
        """Python 2 style alias of ``__next__``."""
        return self.__next__()

    def finalize(self):
        """Releases what the iterator holds (a no-op by default)."""
        pass

    def __del__(self):
        try:
            self.finalize()
        except Exception:
            pass

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.finalize()

    def serialize(self, serializer):
        """Saves or loads the iterator's state (a no-op by default)."""
        pass
