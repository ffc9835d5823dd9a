"""Plots observed values against the iteration or epoch into an image file."""
import json
import os

from chainer import reporter
from chainer.training import _state
from chainer.training import extension
from chainer.training import util
from chainer.training.extensions import _plot
from chainer.utils import argument


class PlotReport(extension.Extension):
    """Plots the means of observed values over each interval and saves the figure.

    The image (``<trainer.out>/<filename>``; its format follows the file
    name, such as ``loss.png``) is rewritten atomically at each interval.
    It needs matplotlib (the ``plot`` extra). Figures are drawn on an Agg
    canvas, so no display is needed and pyplot's backend is left alone.
    Without matplotlib a single warning is given and nothing is drawn.

    Args:
        y_keys (str or list of str): Observed keys to plot.
        x_key (str): ``'iteration'`` or ``'epoch'``.
        trigger: Length of the averaging interval (``(1, 'epoch')``).
        postprocess: Called as ``postprocess(figure, axes, summary)`` before saving.
        filename (str): Image file name (``'plot.png'``); ``file_name`` is
            the old keyword.
        marker (str): Marker of the points (``'x'``).
        grid (bool): Draw a grid.
    """

    def __init__(self, y_keys, x_key='iteration', trigger=(1, 'epoch'), postprocess=None,
                 filename=None, marker='x', grid=True, **kwargs):
        (file_name,) = argument.parse_kwargs(kwargs, ('file_name', 'plot.png'))
        if filename is None:
            filename = file_name
        if not isinstance(y_keys, (list, tuple)):
            y_keys = y_keys,
        self._x_key = x_key
        self._y_keys = y_keys
        self._trigger = util._trigger_of(trigger, 'PlotReport')
        self._file_name = filename
        self._marker = marker
        self._grid = grid
        self._postprocess = postprocess
        self._summary = reporter.DictSummary()
        self._data = {k: [] for k in y_keys}
        if not _plot.available():
            _plot.warn_missing('PlotReport')

    @staticmethod
    def available():
        """Whether matplotlib is installed (plots are drawn only then)."""
        if not _plot.available():
            _plot.warn_missing('PlotReport')
            return False
        return True

    def __call__(self, trainer):
        observation = trainer.observation
        self._summary.add({k: observation[k] for k in self._y_keys if k in observation})
        if not self._trigger(trainer):
            return
        stats = self._summary.compute_mean()
        self._summary = reporter.DictSummary()
        updater = trainer.updater
        x = updater.iteration if self._x_key == 'iteration' else updater.epoch_detail \
            if self._x_key == 'epoch_detail' else getattr(updater, self._x_key, None)
        if x is None:
            raise ValueError(f"PlotReport: x_key must be 'iteration' or 'epoch', got "
                             f'{self._x_key!r}')
        for k in self._y_keys:
            if k in stats:
                self._data[k].append((x, float(stats[k])))
        fig = _plot.new_figure()
        if fig is None:
            return
        ax = fig.add_subplot()
        for k in self._y_keys:
            points = self._data[k]
            if points:
                xs, ys = zip(*points)
                ax.plot(xs, ys, marker=self._marker, label=k)
        if any(self._data.values()):
            ax.legend(loc='best')
        ax.set_xlabel(self._x_key)
        ax.grid(self._grid)
        if self._postprocess is not None:
            self._postprocess(fig, ax, stats)
        _plot.save_figure(fig, os.path.join(trainer.out, self._file_name))

    def serialize(self, serializer):
        # Chainer's key holds the plotted points; the trigger and the running
        # summary are rechainer's additions (optional when loading).
        data = serializer(f'_plot_{self._file_name}', json.dumps(self._data))
        self._data = {k: [tuple(p) for p in v] for k, v in json.loads(str(data)).items()}
        _state.serialize_optional(serializer, '_trigger', self._trigger)
        _state.serialize_optional(serializer, '_summary', self._summary)
