"""matplotlib for the plot extensions: loaded on first use, drawn with the Agg canvas.

Figures are made with ``matplotlib.figure.Figure`` on an Agg canvas rather than
through ``pyplot``, so no display is needed and the user's own pyplot backend
(a notebook's, say) is left alone.
"""
import os
import warnings

from chainer.serializers import _files

_matplotlib = None
_warned = False


def _load():
    global _matplotlib
    if _matplotlib is None:
        try:
            from matplotlib import figure
            from matplotlib.backends import backend_agg
        except ImportError:
            _matplotlib = False
        else:
            _matplotlib = (figure, backend_agg)
    return _matplotlib or None


def available():
    """Whether matplotlib can be imported."""
    return _load() is not None


def new_figure(**kwargs):
    """Returns a new Agg-backed ``Figure`` (``None`` without matplotlib)."""
    loaded = _load()
    if loaded is None:
        return None
    figure, backend_agg = loaded
    fig = figure.Figure(**kwargs)
    backend_agg.FigureCanvasAgg(fig)
    return fig


def warn_missing(what):
    """Warns once per process that ``what`` draws nothing without matplotlib."""
    global _warned
    if not _warned:
        warnings.warn(f'{what}: matplotlib is not installed, so no plot is drawn; install it '
                      f'(pip install matplotlib, or the "plot" extra of rechainer)')
        _warned = True


def save_figure(fig, path):
    """Saves ``fig`` to ``path`` atomically (the format is taken from the file name)."""
    ext = os.path.splitext(path)[1].lstrip('.') or 'png'
    with _files.atomic_open(path, 'wb') as f:
        fig.savefig(f, format=ext)
