"""Plots percentiles, mean and std of parameters (or their gradients) over time."""
import os

import numpy

from chainer import backend
from chainer import link as link_module
from chainer import serializer as serializer_module
from chainer import variable
from chainer.training import _state
from chainer.training import extension
from chainer.training import util
from chainer.training.extensions import _plot
from chainer.utils import argument


def _flatten(targets):
    if isinstance(targets, link_module.Link):
        return [p for _, p in sorted(targets.namedparams())]
    if isinstance(targets, variable.Variable):
        return [targets]
    out = []
    for t in targets:
        out.extend(_flatten(t))
    return out


class VariableStatisticsPlot(extension.Extension):
    """Plots statistics of variables (the parameters of links) at each interval.

    At each trigger the values of all target variables (and/or their
    gradients) are sampled (at most ``max_sample_size``), and their
    percentiles, mean and standard deviation are added to the plot saved as
    ``<trainer.out>/<filename>`` (``'statistics.png'``). Needs matplotlib
    (one warning without it).

    Args:
        targets: A link, a variable, or a list of them.
        max_sample_size (int): Largest number of values sampled per statistic.
        report_data (bool): Plot the values.
        report_grad (bool): Plot the gradients.
        plot_mean (bool): Plot the mean.
        plot_std (bool): Plot mean +- std.
        percentile_sigmas (tuple): Percentiles to draw (as bands).
        trigger: When to add a point (``(1, 'epoch')``).
        filename (str): Image file name; ``file_name`` is the old keyword.
        figsize (tuple): Size of the figure.
        marker (str): Marker of the mean line.
        grid (bool): Draw a grid.
    """

    def __init__(self, targets, max_sample_size=1000, report_data=True, report_grad=True,
                 plot_mean=True, plot_std=True,
                 percentile_sigmas=(0, 0.13, 2.28, 15.87, 50, 84.13, 97.72, 99.87, 100),
                 trigger=(1, 'epoch'), filename=None, figsize=None, marker=None, grid=True,
                 **kwargs):
        (file_name,) = argument.parse_kwargs(kwargs, ('file_name', 'statistics.png'))
        if filename is None:
            filename = file_name
        self._vars = _flatten(targets)
        if not self._vars:
            raise ValueError('VariableStatisticsPlot: need at least one variable to plot')
        self._keys = [k for k, on in (('data', report_data), ('grad', report_grad)) if on]
        if not self._keys:
            raise ValueError('VariableStatisticsPlot: report_data or report_grad must be True')
        self._max_sample_size = max_sample_size
        self._plot_mean = plot_mean
        self._plot_std = plot_std
        self._percentile_sigmas = percentile_sigmas
        self._trigger = util._trigger_of(trigger, 'VariableStatisticsPlot')
        self._file_name = filename
        self._figsize = figsize
        self._marker = marker
        self._grid = grid
        self._samples = {k: [] for k in self._keys}
        self._xs = []
        if not _plot.available():
            _plot.warn_missing('VariableStatisticsPlot')

    def __call__(self, trainer):
        if not self._trigger(trainer):
            return
        self._xs.append(trainer.updater.iteration)
        for key in self._keys:
            arrays = [getattr(v, 'array' if key == 'data' else 'grad') for v in self._vars]
            arrays = [backend.CpuDevice().send(a).ravel() for a in arrays if a is not None]
            values = numpy.concatenate(arrays) if arrays else numpy.zeros(0)
            if values.size > self._max_sample_size:
                idx = numpy.linspace(0, values.size - 1, self._max_sample_size).astype(int)
                values = values[idx]
            self._samples[key].append(self._statistics(values))
        kwargs = {} if self._figsize is None else {'figsize': self._figsize}
        fig = _plot.new_figure(**kwargs)
        if fig is None:
            return
        self._draw_figure(fig)
        _plot.save_figure(fig, os.path.join(trainer.out, self._file_name))

    def serialize(self, serializer):
        """Saves or loads the trigger's progress (``_trigger/...``) and the statistics
        plotted so far (``_xs`` and ``_samples/<data|grad>``), so that a resumed run
        draws the whole curve; Chainer 7.8.1 saves neither. Files without them load."""
        _state.serialize_optional(serializer, '_trigger', self._trigger)
        n_stats = len(self._percentile_sigmas) + 2
        if isinstance(serializer, serializer_module.Serializer):
            serializer('_xs', numpy.asarray(self._xs, numpy.int64))
            for key in self._keys:
                samples = self._samples[key]
                serializer('_samples/' + key, numpy.asarray(samples, numpy.float64).reshape(
                    len(samples), n_stats))
            return
        try:
            xs = serializer('_xs', None)
            samples = {key: serializer('_samples/' + key, None) for key in self._keys}
        except KeyError:  # Chainer's files: the plot starts anew
            return
        if xs is None:  # a dry run
            return
        self._xs = [int(x) for x in numpy.asarray(xs).ravel()]
        self._samples = {key: [row for row in numpy.asarray(value, numpy.float64).reshape(
            -1, n_stats)] for key, value in samples.items()}

    @staticmethod
    def available():
        """Whether matplotlib is installed (plots are drawn only then)."""
        if not _plot.available():
            _plot.warn_missing('VariableStatisticsPlot')
            return False
        return True

    def save_plot_using_module(self, file_path, plt):
        """Draws the statistics so far with the pyplot module ``plt`` into ``file_path``."""
        kwargs = {} if self._figsize is None else {'figsize': self._figsize}
        fig = plt.figure(**kwargs)
        try:
            self._draw_figure(fig)
            fig.savefig(file_path)
        finally:
            plt.close(fig)

    def _draw_figure(self, fig):
        axes = fig.subplots(1, len(self._keys), squeeze=False)
        for ax, key in zip(axes[0], self._keys):
            self._draw(ax, key)
        fig.tight_layout()

    def _statistics(self, values):
        if values.size == 0:
            n = len(self._percentile_sigmas)
            return numpy.full(n + 2, numpy.nan)
        pct = numpy.percentile(values, self._percentile_sigmas)
        return numpy.concatenate([pct, [values.mean(), values.std()]])

    def _draw(self, ax, key):
        stats = numpy.asarray(self._samples[key])
        xs = self._xs
        n = len(self._percentile_sigmas)
        for i in range(n // 2):
            ax.fill_between(xs, stats[:, i], stats[:, n - 1 - i], alpha=0.15, color='C0',
                            linewidth=0)
        if n % 2:
            ax.plot(xs, stats[:, n // 2], color='C0', alpha=0.6)
        mean, std = stats[:, n], stats[:, n + 1]
        if self._plot_mean:
            ax.plot(xs, mean, color='C1', marker=self._marker, label='mean')
        if self._plot_std:
            ax.plot(xs, mean - std, color='C2', linestyle='--', label='mean \u00b1 std')
            ax.plot(xs, mean + std, color='C2', linestyle='--')
        ax.set_title(key)
        ax.set_xlabel('iteration')
        ax.grid(self._grid)
        if self._plot_mean or self._plot_std:
            ax.legend(loc='best')
