"""TimerHook: how long each function's forward and backward take."""
import collections
import sys
import time

import numpy

from chainer import backend
from chainer import function_hook
from chainer.function_hooks import _report

_TIME_UNITS = [('sec', 1.0), ('ms', 1e-3), ('us', 1e-6), ('ns', 1e-9)]


def _array_module(arrays):
    return backend.get_array_module(*[a for a in arrays if a is not None])


class TimerHook(function_hook.FunctionHook):
    """Function hook that measures the time spent in each function.

    Forward and backward computations are both timed: on the CPU with
    :func:`time.perf_counter`, on the GPU with CUDA events recorded on the
    current stream (the hook waits for the end event, so timing a GPU run
    serialises it). A function that runs other functions (``F.forget``, a
    ``backward`` written with functions) is timed as a whole and its inner
    functions are recorded too; :meth:`total_time` counts only the outermost
    calls so nothing is counted twice.

    .. admonition:: Example

        >>> from chainer.function_hooks import TimerHook
        >>> hook = TimerHook()
        >>> with hook:
        ...     y = F.sum(F.tanh(chainer.Variable(np.ones(3, np.float32))))
        ...     y.backward()
        >>> hook.print_report()  # doctest: +SKIP
        FunctionName  ElapsedTime  Occurrence
                Tanh      14.30us           2
                 Sum       9.20us           2
                 ...

    Attributes:
        call_history (list): ``(function label, seconds)`` for every timed
            call, forward and backward, in the order they finished.
    """

    name = 'TimerHook'

    def __init__(self):
        self.call_history = []
        self._stack = _report.CallStack()
        self._total_time = 0.0

    def _preprocess(self, function, xp):
        if xp is numpy:
            self._stack.push(function, (None, time.perf_counter()))
        else:
            start = xp.cuda.Event()
            stop = xp.cuda.Event()
            start.record()
            self._stack.push(function, (stop, start))

    def _postprocess(self, function):
        record, outermost = self._stack.pop(function)
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
        self.call_history.append((function.label, elapsed))
        if outermost:
            self._total_time += elapsed

    def forward_preprocess(self, function, in_data):
        self._preprocess(function, _array_module(in_data))

    def forward_postprocess(self, function, in_data):
        self._postprocess(function)

    def backward_preprocess(self, function, in_data, out_grad):
        self._preprocess(function, _array_module(in_data + out_grad))

    def backward_postprocess(self, function, in_data, out_grad):
        self._postprocess(function)

    def total_time(self):
        """Returns the total time in seconds spent in the outermost timed calls."""
        return self._total_time

    def summary(self):
        """Returns the time and number of calls per function label.

        Returns:
            collections.OrderedDict: ``{label: {'elapsed_time': seconds,
            'occurrence': count}}``, in the order the labels were first seen.
        """
        out = collections.OrderedDict()
        for label, elapsed in self.call_history:
            entry = out.get(label)
            if entry is None:
                out[label] = {'elapsed_time': elapsed, 'occurrence': 1}
            else:
                entry['elapsed_time'] += elapsed
                entry['occurrence'] += 1
        return out

    def print_report(self, unit='auto', file=None):
        """Prints a table of time and number of calls per function.

        Args:
            unit (str): ``'sec'``, ``'ms'``, ``'us'`` or ``'ns'``; ``'auto'``
                picks one unit for the table from the largest time,
                ``'auto_foreach'`` picks a unit for each row.
            file: Text stream to write to (``sys.stdout`` when ``None``).
        """
        file = sys.stdout if file is None else file
        summary = self.summary()
        times = _report.format_values(
            [e['elapsed_time'] for e in summary.values()], unit, _TIME_UNITS)
        rows = [[label, t, str(e['occurrence'])]
                for (label, e), t in zip(summary.items(), times)]
        _report.print_table(['FunctionName', 'ElapsedTime', 'Occurrence'], rows, file)
