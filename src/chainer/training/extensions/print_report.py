"""Prints the entries of a LogReport as a table."""
import os
import sys

from chainer.training import extension
from chainer.training.extensions import log_report as log_report_module


class PrintReport(extension.Extension):
    """Prints the new entries of a :class:`LogReport` as table rows.

    Args:
        entries (list of str): Keys of the columns.
        log_report (str or LogReport): The name of a log report registered in
            the trainer, or a LogReport of its own, which this extension calls
            at every iteration (and saves with itself).
        out: Stream to print to.
    """

    def __init__(self, entries, log_report='LogReport', out=sys.stdout):
        self._entries = entries
        self._log_report = log_report
        self._log_len = 0
        self._out = out
        widths = [max(10, len(e)) for e in entries]
        self._header = '  '.join(f'{e:<{w}}' for e, w in zip(entries, widths)) + '\n'
        self._templates = [(e, f'{{:<{w}g}}  ', ' ' * (w + 2)) for e, w in zip(entries, widths)]

    def __call__(self, trainer):
        out = self._out
        if self._header:
            out.write(self._header)
            self._header = None
        log_report = self._log_report
        if isinstance(log_report, str):
            log_report = trainer.get_extension(log_report)
        elif isinstance(log_report, log_report_module.LogReport):
            # A LogReport of its own (not registered with the trainer) is fed here.
            log_report(trainer)
        elif not hasattr(log_report, 'log'):
            raise TypeError(f'PrintReport: log_report must be a LogReport or its name, got '
                            f'{type(log_report).__name__}')
        log = log_report.log
        while len(log) > self._log_len:
            # \033[J clears what a progress bar drew below the cursor.
            if _is_terminal(out):
                out.write('\033[J')
            self._print(log[self._log_len])
            self._log_len += 1
        if hasattr(out, 'flush'):
            out.flush()

    def _print(self, observation):
        cells = []
        for key, template, empty in self._templates:
            if key in observation:
                value = observation[key]
                try:
                    cells.append(template.format(value))
                except (TypeError, ValueError):
                    cells.append(template.replace('g', '').format(str(value)))
            else:
                cells.append(empty)
        self._out.write(''.join(cells) + '\n')

    def serialize(self, serializer):
        if isinstance(self._log_report, log_report_module.LogReport):
            self._log_report.serialize(serializer['_log_report'])


def _is_terminal(out):
    isatty = getattr(out, 'isatty', None)
    try:
        return bool(isatty()) and os.environ.get('TERM') != 'dumb'
    except Exception:
        return False
