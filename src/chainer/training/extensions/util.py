"""A text progress bar shared by the ProgressBar extension and the Evaluator."""
import collections
import datetime
import os
import sys
import time


def _is_terminal(out):
    try:
        return bool(out.isatty()) and os.environ.get('TERM') != 'dumb'
    except Exception:
        return False


class ProgressBar:
    """Draws progress lines on a stream.

    On a terminal the lines are redrawn in place (ANSI cursor movements); on
    anything else (a file, a pipe, a notebook log) each update is one plain
    line, so logs stay readable.

    Args:
        bar_length (int): Width of the bar in characters.
        out: Stream to write to (stdout by default).
    """

    def __init__(self, bar_length=None, out=None):
        self._bar_length = 50 if bar_length is None else bar_length
        self._out = sys.stdout if out is None else out
        self._recent_timing = collections.deque([], maxlen=100)
        self._lines_drawn = 0

    def update_speed(self, iteration, epoch_detail):
        """Records the progress and returns ``(iterations/s, epochs/s)`` recently."""
        now = time.time()
        self._recent_timing.append((iteration, epoch_detail, now))
        old_t, old_e, old_sec = self._recent_timing[0]
        span = now - old_sec
        if span <= 0:
            return 0.0, 0.0
        return (iteration - old_t) / span, (epoch_detail - old_e) / span

    def get_lines(self):
        """Returns the lines to draw (subclasses override it)."""
        return []

    def update(self):
        """Draws the current lines."""
        lines = self.get_lines()
        if _is_terminal(self._out):
            self.erase_console()
            for line in lines:
                self._out.write(line + '\n')
            self.move_cursor_up(len(lines))
        else:
            self._out.write(' | '.join(line.strip() for line in lines) + '\n')
        self.flush()

    def close(self):
        """Clears what the bar drew (on a terminal)."""
        if _is_terminal(self._out):
            self.erase_console()
        self.flush()

    def erase_console(self):
        if _is_terminal(self._out):
            self._out.write('\033[J')

    def move_cursor_up(self, n):
        if _is_terminal(self._out):
            self._out.write(f'\033[{n:d}A')

    def flush(self):
        if hasattr(self._out, 'flush'):
            self._out.flush()


def _bar(length, rate):
    rate = min(max(rate, 0.0), 1.0)
    filled = int(length * rate)
    return '#' * filled + '.' * (length - filled)


def _eta(seconds):
    return str(datetime.timedelta(seconds=int(seconds)))
