"""Reporter: collects named observations (losses, accuracies...) during training."""
import contextlib
import copy
import json
import threading
import warnings

import numpy

from chainer import backend
from chainer import configuration
from chainer import serializer as serializer_module
from chainer import variable

_thread_local = threading.local()


def _get_reporters():
    # The stack of reporters entered (``with reporter:``) in this thread.
    try:
        return _thread_local.reporters
    except AttributeError:
        reporters = _thread_local.reporters = []
        return reporters


def _copy_variable(value):
    # A reported Variable keeps its array but, unless keep_graph_on_report is on,
    # not its graph: the observation must not hold the whole graph alive.
    if isinstance(value, variable.Variable):
        value = copy.copy(value)
        value.unchain()
    return value


class Reporter:
    """Object that collects observed values under names.

    An observer (a link, an extension...) is registered under a name with
    :meth:`add_observer`; the values it reports are then stored as
    ``'<name>/<key>'``. Values reported without an observer keep their key.
    ``with reporter:`` makes it the current reporter of the thread, the one that
    :func:`chainer.report` writes to.

    Attributes:
        observation (dict): The values reported so far (in the current scope).
    """

    def __init__(self):
        self._observer_names = {}
        self.observation = {}

    def __enter__(self):
        _get_reporters().append(self)

    def __exit__(self, exc_type, exc_value, traceback):
        _get_reporters().pop()

    @contextlib.contextmanager
    def scope(self, observation):
        """Makes this reporter current and reports into ``observation``.

        Args:
            observation (dict): The dictionary the values go to within the scope.
        """
        old = self.observation
        self.observation = observation
        self.__enter__()
        try:
            yield
        finally:
            self.__exit__(None, None, None)
            self.observation = old

    def add_observer(self, name, observer):
        """Registers ``observer`` under ``name``.

        Args:
            name (str): Prefix of the keys the observer's values get.
            observer: Any object (identified by its ``id``).
        """
        self._observer_names[id(observer)] = name

    def add_observers(self, prefix, observers):
        """Registers several observers; each name is ``prefix + name``.

        Args:
            prefix (str): Common prefix of the names.
            observers: Iterable of ``(name, observer)`` pairs, such as
                ``link.namedlinks()``.
        """
        for name, observer in observers:
            self._observer_names[id(observer)] = prefix + name

    def report(self, values, observer=None):
        """Stores ``values`` (a dict) in :attr:`observation`.

        Args:
            values (dict): Observed values by key.
            observer: A registered observer: the keys get its name as prefix.
        """
        if not configuration.config.keep_graph_on_report:
            values = {k: _copy_variable(v) for k, v in values.items()}
        if observer is not None:
            try:
                prefix = self._observer_names[id(observer)] + '/'
            except KeyError:
                raise KeyError('Given observer is not registered to the reporter.') from None
            values = {prefix + k: v for k, v in values.items()}
        self.observation.update(values)


def get_current_reporter():
    """Returns the reporter most recently entered in this thread.

    Raises:
        IndexError: No reporter is active.
    """
    reporters = _get_reporters()
    if not reporters:
        raise IndexError('get_current_reporter: no reporter is active; use '
                         '"with reporter:" or reporter.scope(...) first')
    return reporters[-1]


def report(values, observer=None):
    """Reports ``values`` to the current reporter (does nothing without one).

    Args:
        values (dict): Observed values by key.
        observer: An observer registered to the current reporter, or ``None``.
    """
    reporters = _get_reporters()
    if reporters:
        reporters[-1].report(values, observer)


@contextlib.contextmanager
def report_scope(observation):
    """Within the scope, the current reporter writes into ``observation``.

    Args:
        observation (dict): The dictionary the values go to.
    """
    current = get_current_reporter()
    old = current.observation
    current.observation = observation
    try:
        yield
    finally:
        current.observation = old


def _widened(value, keep_int=False):
    # NumPy values are summed in float64 (integer weights stay integers), as Chainer
    # 7.8.1 does under NumPy 1.x's promotion rules; Python numbers and device arrays
    # are summed as they are.
    if isinstance(value, (numpy.ndarray, numpy.generic)):
        if keep_int and value.dtype.kind in 'iub':
            return int(value) if value.ndim == 0 else value.astype(numpy.int64)
        return numpy.float64(value) if value.ndim == 0 else value.astype(numpy.float64)
    return value


def _loaded_number(serializer, key, value):
    # Loads a running sum as stored (an int count, or a float one after fractional
    # weights): Chainer writes either, and a fixed destination type would refuse one.
    if isinstance(serializer, serializer_module.Serializer):
        return serializer(key, value)
    loaded = serializer(key, None)
    if loaded is None:  # a dry run
        return value
    if getattr(loaded, 'ndim', 0) == 0 and hasattr(loaded, 'item'):
        return loaded.item() if loaded.dtype.kind in 'iub' else numpy.float64(loaded)
    return loaded


class Summary:
    """Online (weighted) mean and standard deviation of a scalar series."""

    def __init__(self):
        # The types of Chainer 7.8.1's sums, so that files carry the same dtypes.
        self._x = 0.
        self._x2 = 0.
        self._n = 0

    def add(self, value, weight=1):
        """Adds ``value`` with ``weight`` (scalars or 0-dim arrays, on any device)."""
        value = _widened(value)
        weight = _widened(weight, keep_int=True)
        self._x += weight * value
        self._x2 += weight * value * value
        self._n += weight

    def compute_mean(self):
        """Returns the weighted mean of the values added so far."""
        return self._x / self._n

    def make_statistics(self):
        """Returns ``(mean, std)`` of the values added so far."""
        mean = self._x / self._n
        var = self._x2 / self._n - mean * mean
        xp = backend.get_array_module(var)
        return mean, xp.sqrt(var)

    def serialize(self, serializer):
        """Saves or loads the running sums (keys ``_x``, ``_x2``, ``_n``)."""
        try:
            self._x = _loaded_number(serializer, '_x', self._x)
            self._x2 = _loaded_number(serializer, '_x2', self._x2)
            self._n = _loaded_number(serializer, '_n', self._n)
        except KeyError:
            # Files written before the sums were saved hold nothing for us.
            warnings.warn('The previous statistics are not saved.')


def _scalar_or_error(name, w):
    if isinstance(w, variable.Variable):
        w = w.array
    if not numpy.isscalar(w) and getattr(w, 'ndim', -1) != 0:
        raise ValueError(f'DictSummary.add: the weight given to {name!r} must be a scalar '
                         f'or a 0-dim array, got shape {getattr(w, "shape", None)}')
    return w


class DictSummary:
    """A :class:`Summary` per key of the dictionaries added.

    Values that are not scalars (or 0-dim arrays / Variables) are ignored, so a
    whole observation can be added. A value may be a ``(value, weight)`` pair.
    """

    def __init__(self):
        self._summaries = {}

    def add(self, d):
        """Adds each scalar entry of the dict ``d`` to the summary of its key."""
        summaries = self._summaries
        for k, v in d.items():
            w = 1
            if isinstance(v, tuple):
                v, w = v
                w = _scalar_or_error(k, w)
            if isinstance(v, variable.Variable):
                v = v.array
            if numpy.isscalar(v) or getattr(v, 'ndim', -1) == 0:
                summary = summaries.get(k)
                if summary is None:
                    summary = summaries[k] = Summary()
                summary.add(v, weight=w)

    def compute_mean(self):
        """Returns a dict of the mean of each key."""
        return {k: s.compute_mean() for k, s in self._summaries.items()}

    def make_statistics(self):
        """Returns a dict with the mean of each key and its std under ``key + '.std'``."""
        stats = {}
        for k, s in self._summaries.items():
            mean, std = s.make_statistics()
            stats[k] = mean
            stats[k + '.std'] = std
        return stats

    def serialize(self, serializer):
        """Saves or loads the summaries: ``_names`` (JSON list) and ``_summaries/<i>/...``.

        Keys may contain ``/``, so they are stored as a list and the summaries by
        position.
        """
        names = list(self._summaries)
        try:
            stored = serializer('_names', json.dumps(names))
        except KeyError:
            # Files written before the summaries were saved: start afresh.
            warnings.warn('The names of statistics are not saved.')
            self._summaries = {}
            return
        stored_names = json.loads(str(stored))
        if stored_names != names:
            # Loading a different set of keys: the current summaries are replaced.
            self._summaries = {name: Summary() for name in stored_names}
        for i, name in enumerate(stored_names):
            self._summaries[name].serialize(serializer['_summaries'][str(i)])
