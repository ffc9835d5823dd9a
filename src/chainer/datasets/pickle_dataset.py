"""PickleDataset: examples pickled one after another in a file."""
import os
import pickle
import weakref

from chainer.dataset import dataset_mixin


class PickleDatasetWriter:
    """Writes examples, one pickle each, for :class:`PickleDataset`.

    Args:
        writer: A binary file object opened for writing.
        protocol (int): Pickle protocol.
    """

    def __init__(self, writer, protocol=pickle.HIGHEST_PROTOCOL):
        self._writer = writer
        self._protocol = protocol

    def close(self):
        self._writer.close()

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.close()

    def write(self, x):
        """Appends the example ``x``."""
        pickle.dump(x, self._writer, protocol=self._protocol)

    def flush(self):
        self._writer.flush()


def _after_fork_hook(ref):
    # Runs in a forked child: tell the dataset's reader (it may reopen its file).
    dataset = ref()
    if dataset is not None:
        after_fork = getattr(dataset._reader, 'after_fork', None)
        if after_fork is not None:
            after_fork()


class PickleDataset(dataset_mixin.DatasetMixin):
    """Dataset of the examples pickled in a file by :class:`PickleDatasetWriter`.

    The file is scanned once for the position of each example; an example is
    unpickled when it is read. If the reader has an ``after_fork`` method, it is
    called in each forked child process (a file reader reopens its file there,
    so workers do not share one file position).

    Args:
        reader: A binary file object opened for reading (seekable).
    """

    def __init__(self, reader):
        self._reader = reader
        self._positions = []
        reader.seek(0)
        while True:
            position = reader.tell()
            try:
                pickle.load(reader)
            except EOFError:
                break
            self._positions.append(position)
        self._register_fork_hook()

    def _register_fork_hook(self):
        if hasattr(os, 'register_at_fork'):
            ref = weakref.ref(self)
            os.register_at_fork(after_in_child=lambda: _after_fork_hook(ref))

    def __getstate__(self):
        return self.__dict__.copy()

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._register_fork_hook()

    def close(self):
        """Closes the reader."""
        self._reader.close()

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.close()

    def __len__(self):
        return len(self._positions)

    def get_example(self, index):
        self._reader.seek(self._positions[index])
        return pickle.load(self._reader)


class _FileReader:
    # A file opened by path: picklable, and reopened in forked children.

    def __init__(self, path):
        self.path = path
        self._fp = open(path, 'rb')

    def __getstate__(self):
        return {'path': self.path}

    def __setstate__(self, state):
        self.path = state['path']
        self._fp = open(self.path, 'rb')

    def after_fork(self):
        self._fp.close()
        self._fp = open(self.path, 'rb')

    def __getattr__(self, name):
        if name == '_fp':
            raise AttributeError(name)
        return getattr(self._fp, name)


def open_pickle_dataset(path):
    """Opens a :class:`PickleDataset` on the file ``path`` (usable with ``with``)."""
    return PickleDataset(_FileReader(path))


def open_pickle_dataset_writer(path, protocol=pickle.HIGHEST_PROTOCOL):
    """Opens a :class:`PickleDatasetWriter` on the file ``path`` (usable with ``with``)."""
    return PickleDatasetWriter(open(path, 'wb'), protocol)
