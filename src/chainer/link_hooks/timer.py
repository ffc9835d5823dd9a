"""TimerHook: how long each link's forward takes."""
import sys
import time

import numpy

from chainer.function_hooks import _report
from chainer.function_hooks import timer as _function_timer
from chainer import link_hook


class TimerHook(link_hook.LinkHook):
    """Link hook that measures the time spent in each link's forward.

    Times are taken with :func:`time.perf_counter` on the CPU and with CUDA
    events for links on a GPU. A link called inside another (a Chain's
    children) is recorded too; :meth:`total_time` counts only the outermost
    calls.

    .. admonition:: Example

        >>> from chainer.link_hooks import TimerHook
        >>> hook = TimerHook()
        >>> with hook:
        ...     y = L.Linear(3, 2)(np.ones((1, 3), np.float32))
        >>> hook.print_report()  # doctest: +SKIP
        LinkName  ElapsedTime  Occurrence
          Linear     41.20us           1

    Attributes:
        call_history (list): ``(link class name, seconds)`` for every timed
            call, in the order they finished.
        table (dict): Seconds per unit name accepted by :meth:`print_report`.
    """

    name = 'TimerHook'
    table = {'sec': 1, 'ms': 10 ** 3, 'us': 10 ** 6, 'ns': 10 ** 9}

    def __init__(self):
        self.call_history = []
        self._stack = _report.CallStack()
        self._total_time = 0.0

    def _preprocess(self, link):
        xp = link.xp
        if xp is numpy:
            self._stack.push(link, (None, time.perf_counter()))
        else:
            start, stop = xp.cuda.Event(), xp.cuda.Event()
            start.record()
            self._stack.push(link, (stop, start))

    def _postprocess(self, link):
        record, outermost = self._stack.pop(link)
        if record is None:
            return
        stop, start = record
        if stop is None:
            elapsed = time.perf_counter() - start
        else:
            import cupy
            stop.record()
            stop.synchronize()
            elapsed = cupy.cuda.get_elapsed_time(start, stop) / 1000   # ms -> s
        self.call_history.append((type(link).__name__, elapsed))
        if outermost:
            self._total_time += elapsed

    def forward_preprocess(self, args):
        self._preprocess(args.link)

    def forward_postprocess(self, args):
        self._postprocess(args.link)

    # The same bookkeeping as the function hook's, keyed by link class name.
    total_time = _function_timer.TimerHook.total_time
    summary = _function_timer.TimerHook.summary

    def print_report(self, unit='auto', file=sys.stdout):
        """Prints a table of time and number of calls per link class.

        Args:
            unit (str): ``'sec'``, ``'ms'``, ``'us'`` or ``'ns'``; ``'auto'``
                picks one unit for the table, ``'auto_foreach'`` one per row.
            file: Text stream to write to.
        """
        summary = self.summary()
        times = _report.format_values([e['elapsed_time'] for e in summary.values()], unit,
                                      _function_timer._TIME_UNITS)
        rows = [[name, t, str(e['occurrence'])] for (name, e), t in zip(summary.items(), times)]
        _report.print_table(['LinkName', 'ElapsedTime', 'Occurrence'], rows, file)
