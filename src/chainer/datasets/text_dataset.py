"""TextDataset: the lines of one or several text files."""
import io

from chainer.dataset import dataset_mixin


class TextDataset(dataset_mixin.DatasetMixin):
    """Dataset whose examples are lines of text files (newline kept).

    With several files the examples are tuples of their lines at the same
    position; the files must have the same number of lines.

    Args:
        paths (str or list of str): The file(s).
        encoding, errors, newline: As for :func:`io.open`.
        filter_func (callable): Keeps only the examples for which
            ``filter_func(*lines)`` is true.
    """

    def __init__(self, paths, encoding=None, errors=None, newline=None, filter_func=None):
        self._single = isinstance(paths, str)
        if self._single:
            paths = paths,
        columns = []
        for path in paths:
            with io.open(path, encoding=encoding, errors=errors, newline=newline) as f:
                columns.append(f.readlines())
        for path, lines in zip(paths, columns):
            if len(lines) != len(columns[0]):
                raise ValueError(
                    f'number of lines in files does not match: {paths[0]} has '
                    f'{len(columns[0])}, {path} has {len(lines)}')
        rows = list(zip(*columns))
        if filter_func is not None:
            rows = [row for row in rows if filter_func(*row)]
        self._rows = rows
        self._paths = paths

    def __len__(self):
        return len(self._rows)

    def get_example(self, idx):
        row = self._rows[idx]
        return row[0] if self._single else row

    def close(self):
        """Releases the files (a no-op here: the lines are read at construction, as in
        Chainer's default, so no file stays open)."""
