"""matplotlib for the plot extensions: loaded on first use, with the Agg backend."""
import warnings

_matplotlib = None
_warned = False


def get_pyplot():
    """Returns ``matplotlib.pyplot`` (Agg backend), or ``None`` if matplotlib is missing."""
    global _matplotlib
    if _matplotlib is None:
        try:
            import matplotlib
            if matplotlib.get_backend().lower() != 'agg':
                matplotlib.use('Agg')
            import matplotlib.pyplot as plt
        except ImportError:
            _matplotlib = False
        else:
            _matplotlib = plt
    return _matplotlib or None


def available():
    return get_pyplot() is not None


def warn_missing(what):
    """Warns once per process that ``what`` draws nothing without matplotlib."""
    global _warned
    if not _warned:
        warnings.warn(f'{what}: matplotlib is not installed, so no plot is drawn; install it '
                      f'(pip install matplotlib, or the "plot" extra of rechainer)')
        _warned = True


def save_figure(fig, path):
    """Saves ``fig`` to ``path`` atomically (the format is taken from the name)."""
    import os
    from chainer.serializers import _files
    ext = os.path.splitext(path)[1].lstrip('.') or 'png'
    with _files.atomic_open(path, 'wb') as f:
        fig.savefig(f, format=ext)
