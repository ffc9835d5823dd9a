"""CupyMemoryProfileHook: GPU memory taken from CuPy's pool by each function."""
import collections
import sys

from chainer import function_hook
from chainer.backends import cuda
from chainer.function_hooks import _report

_BYTE_UNITS = [(name, float(1024 ** i)) for i, name in reversed(list(enumerate(
    ['B', 'KB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB'])))]


class CupyMemoryProfileHook(function_hook.FunctionHook):
    """Function hook that measures the memory each function takes from CuPy's pool.

    For every forward and backward call the hook records how many bytes of
    the default CuPy memory pool came into use during the call (*used
    bytes*) and how many bytes the pool had to newly acquire from the device
    for it (*acquired bytes*). Functions running inside other functions are
    recorded too; the totals count only the outermost calls. It needs CuPy:
    constructing it without CuPy raises :class:`RuntimeError`.

    .. admonition:: Example

        >>> from chainer.function_hooks import CupyMemoryProfileHook
        >>> hook = CupyMemoryProfileHook()  # doctest: +SKIP
        >>> with hook:  # doctest: +SKIP
        ...     loss = model(x_gpu, t_gpu)
        ...     loss.backward()
        >>> hook.print_report()  # doctest: +SKIP
         FunctionName  UsedBytes  AcquiredBytes  Occurrence
               Linear    12.00MB         4.00MB           4
                 ReLU     2.00MB         0.00B            2
                  ...

    Attributes:
        call_history (list): ``(function label, used bytes, acquired bytes)``
            for every call, in the order they finished.
    """

    name = 'CupyMemoryProfileHook'

    def __init__(self):
        cuda.check_cuda_available()
        self.call_history = []
        self._memory_pool = cuda.cupy.get_default_memory_pool()
        self._stack = _report.CallStack()
        self._total_used_bytes = 0
        self._total_acquired_bytes = 0

    def added(self, function=None):
        """Called when the hook is registered (nothing to prepare)."""

    def deleted(self, function=None):
        """Called when the hook is unregistered (nothing to release)."""

    def _preprocess(self, function):
        pool = self._memory_pool
        self._stack.push(function, (pool.used_bytes(), pool.total_bytes()))

    def _postprocess(self, function):
        record, outermost = self._stack.pop(function)
        if record is None:
            return
        pool = self._memory_pool
        used = pool.used_bytes() - record[0]
        acquired = pool.total_bytes() - record[1]
        self.call_history.append((function.label, used, acquired))
        if outermost:
            self._total_used_bytes += used
            self._total_acquired_bytes += acquired

    def forward_preprocess(self, function, in_data):
        self._preprocess(function)

    def forward_postprocess(self, function, in_data):
        self._postprocess(function)

    def backward_preprocess(self, function, in_data, out_grad):
        self._preprocess(function)

    def backward_postprocess(self, function, in_data, out_grad):
        self._postprocess(function)

    def total_used_bytes(self):
        """Returns the bytes taken from the pool by the outermost calls, in total."""
        return self._total_used_bytes

    def total_acquired_bytes(self):
        """Returns the bytes the pool acquired from the device for the outermost calls."""
        return self._total_acquired_bytes

    def summary(self):
        """Returns memory use and number of calls per function label.

        Returns:
            collections.OrderedDict: ``{label: {'used_bytes': int,
            'acquired_bytes': int, 'occurrence': int}}``.
        """
        out = collections.OrderedDict()
        for label, used, acquired in self.call_history:
            entry = out.get(label)
            if entry is None:
                out[label] = {'used_bytes': used, 'acquired_bytes': acquired, 'occurrence': 1}
            else:
                entry['used_bytes'] += used
                entry['acquired_bytes'] += acquired
                entry['occurrence'] += 1
        return out

    def print_report(self, unit='auto', file=None):
        """Prints a table of memory use and number of calls per function.

        Args:
            unit (str): ``'B'``, ``'KB'``, ``'MB'``, ``'GB'``, ``'TB'``,
                ``'PB'``, ``'EB'`` or ``'ZB'`` (powers of 1024); ``'auto'``
                picks one unit per column from its largest value,
                ``'auto_foreach'`` one per cell.
            file: Text stream to write to (``sys.stdout`` when ``None``).
        """
        file = sys.stdout if file is None else file
        summary = self.summary()
        used = _report.format_values(
            [e['used_bytes'] for e in summary.values()], unit, _BYTE_UNITS)
        acquired = _report.format_values(
            [e['acquired_bytes'] for e in summary.values()], unit, _BYTE_UNITS)
        rows = [[label, u, a, str(e['occurrence'])]
                for (label, e), u, a in zip(summary.items(), used, acquired)]
        _report.print_table(['FunctionName', 'UsedBytes', 'AcquiredBytes', 'Occurrence'],
                            rows, file)
