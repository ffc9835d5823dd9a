"""Shared pieces of the profiling hooks: call nesting, unit choice, table printing."""
import sys


def choose_unit(value, units):
    """Returns the largest ``(name, scale)`` in ``units`` that keeps ``value`` >= 1.

    ``units`` is ordered from the largest scale to the smallest; the smallest
    is used for values below all of them (zero included).
    """
    for name, scale in units:
        if abs(value) >= scale:
            return name, scale
    return units[-1]


def format_values(values, unit, units):
    """Formats ``values`` (in base units) as strings like ``'1.24sec'``.

    Args:
        values (list of float): Quantities in the base unit (seconds, bytes).
        unit (str): A unit name from ``units``, ``'auto'`` (one unit chosen
            from the largest value) or ``'auto_foreach'`` (one unit per value).
        units (list): ``(name, scale)`` pairs from the largest scale down.
    """
    table = dict(units)
    if unit == 'auto_foreach':
        chosen = [choose_unit(v, units) for v in values]
    elif unit == 'auto':
        chosen = [choose_unit(max(values, default=0), units)] * len(values)
    elif unit in table:
        chosen = [(unit, table[unit])] * len(values)
    else:
        names = ', '.join(repr(n) for n, _ in units)
        raise ValueError(f"unit must be one of {names}, 'auto' or 'auto_foreach', "
                         f'got {unit!r}')
    return [f'{v / scale:.2f}{name}' for v, (name, scale) in zip(values, chosen)]


def print_table(header, rows, file):
    """Prints rows of strings as right-aligned columns under ``header``."""
    widths = [max(len(r[i]) for r in [header] + rows) for i in range(len(header))]
    for row in [header] + rows:
        file.write('  '.join(cell.rjust(w) for cell, w in zip(row, widths)) + '\n')


class CallStack:
    """Start records of the hooked calls in progress, innermost last.

    Functions can run inside other functions (``F.forget``, backward passes
    written with functions), so the profiling hooks nest their measurements
    and add only the outermost ones to their totals. A call whose forward
    raised never gets its postprocess; each record therefore remembers the
    Python frame that invoked the hook (``FunctionNode.apply`` or the backprop
    loop), and a record whose frame is no longer running is dropped when the
    next call starts.
    """

    def __init__(self):
        self.items = []     # (function, frame of the hook's caller, record)

    def push(self, function, record):
        # Frames: 0 push, 1 the hook's helper, 2 the hook method, 3 its caller.
        caller = sys._getframe(3)
        items = self.items
        if items:
            live = set()
            frame = caller
            while frame is not None:
                live.add(id(frame))
                frame = frame.f_back
            while items and id(items[-1][1]) not in live:
                items.pop()
        items.append((function, caller, record))

    def pop(self, function):
        """Returns the start record of ``function`` and whether it was the outermost call.

        The record is ``None`` when this hook never saw the call start (it was
        registered while the call was running).
        """
        items = self.items
        for i in range(len(items) - 1, -1, -1):
            if items[i][0] is function:
                record = items[i][2]
                del items[i:]
                return record, not items
        return None, False
