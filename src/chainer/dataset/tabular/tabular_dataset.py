"""TabularDataset: the base class of column-oriented datasets."""
import numpy

from chainer.dataset import dataset_mixin


def _as_array(column):
    return numpy.asarray(column) if isinstance(column, list) else column


class TabularDataset(dataset_mixin.DatasetMixin):
    """A dataset of examples made of named columns.

    Subclasses define ``__len__``, :attr:`keys`, :attr:`mode` and
    :meth:`get_examples`. An example is a tuple (``mode`` is ``tuple``), a dict
    (``mode`` is ``dict``) or, for a single column, the value itself (``mode`` is
    ``None``). Views such as :attr:`slice`, :meth:`concat`, :meth:`join` and
    :meth:`transform` read the underlying data lazily.
    """

    def __len__(self):
        raise NotImplementedError

    @property
    def keys(self):
        """The names of the columns (a tuple of str)."""
        raise NotImplementedError

    @property
    def mode(self):
        """``tuple``, ``dict`` or ``None`` (one column): the type of an example."""
        raise NotImplementedError

    def get_examples(self, indices, key_indices):
        """Returns the selected rows of the selected columns.

        Args:
            indices: A slice, a list of int indices, or ``None`` for all rows.
            key_indices (tuple of int): Columns to return, or ``None`` for all.

        Returns:
            tuple: One list or array per selected column.
        """
        raise NotImplementedError

    @property
    def slice(self):
        """Helper for views: ``dataset.slice[indices]``, ``dataset.slice[indices, keys]``.

        ``indices`` is a slice or a list of ints or booleans; ``keys`` is a key
        (the view has one column, mode ``None``) or a tuple of keys, by name or
        position.
        """
        from chainer.dataset.tabular import _slice
        return _slice._SliceHelper(self)

    def fetch(self):
        """Returns all the data: a tuple or dict of columns, or the single column."""
        examples = self.get_examples(None, None)
        if self.mode is tuple:
            return examples
        if self.mode is dict:
            return dict(zip(self.keys, examples))
        return examples[0]

    def convert(self, data):
        """Converts data from :meth:`fetch` for a model: each column to an array.

        Args:
            data (tuple or dict): Data from :meth:`fetch`.

        Returns:
            The same structure with each list turned into an ndarray.
        """
        if isinstance(data, tuple):
            return tuple(_as_array(d) for d in data)
        if isinstance(data, dict):
            return {k: _as_array(v) for k, v in data.items()}
        return _as_array(data)

    def astuple(self):
        """Returns a view whose examples are tuples."""
        from chainer.dataset.tabular import _asmode
        return _asmode._Astuple(self)

    def asdict(self):
        """Returns a view whose examples are dicts."""
        from chainer.dataset.tabular import _asmode
        return _asmode._Asdict(self)

    def concat(self, *datasets):
        """Returns the rows of this dataset followed by those of ``datasets``.

        All datasets must have the same keys in the same order.
        """
        from chainer.dataset.tabular import _concat
        return _concat._Concat(self, *datasets)

    def join(self, *datasets):
        """Returns the columns of this dataset followed by those of ``datasets``.

        All datasets must have the same length and distinct keys.
        """
        from chainer.dataset.tabular import _join
        return _join._Join(self, *datasets)

    def transform(self, keys, transform):
        """Returns a view whose examples are ``transform(example)``.

        Args:
            keys: The key (one column) or tuple of keys of the output.
            transform: Called with an example unpacked (``*example`` for tuples,
                ``**example`` for dicts); returns a value, a tuple or a dict.
        """
        from chainer.dataset.tabular import _transform
        return _transform._Transform(self, keys, transform)

    def transform_batch(self, keys, transform_batch):
        """Like :meth:`transform`, but ``transform_batch`` gets whole columns."""
        from chainer.dataset.tabular import _transform
        return _transform._TransformBatch(self, keys, transform_batch)

    def with_converter(self, converter):
        """Returns a view whose :meth:`convert` is ``converter`` (called unpacked)."""
        from chainer.dataset.tabular import _with_converter
        return _with_converter._WithConverter(self, converter)

    def get_example(self, i):
        example = tuple(col[0] for col in self.get_examples([i], None))
        if self.mode is tuple:
            return example
        if self.mode is dict:
            return dict(zip(self.keys, example))
        return example[0]

    def __iter__(self):
        n = len(self)
        chunk = 1024
        for start in range(0, n, chunk):
            columns = self.get_examples(slice(start, min(start + chunk, n)), None)
            for row in zip(*columns):
                if self.mode is tuple:
                    yield row
                elif self.mode is dict:
                    yield dict(zip(self.keys, row))
                else:
                    yield row[0]
