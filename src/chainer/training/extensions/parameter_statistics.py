"""Reports statistics of the parameters and gradients of links."""
import numpy

from chainer import backend
from chainer import reporter
from chainer.training import _state
from chainer.training import extension
from chainer.training import util


def _percentiles(x):
    xp = backend.get_array_module(x)
    sigmas = (0.13, 2.28, 15.87, 50, 84.13, 97.72, 99.87)
    return xp.percentile(x, sigmas)


class ParameterStatistics(extension.Extension):
    """Reports statistics of the parameters (``data``) and gradients (``grad``) of links.

    The keys are ``[<prefix>/]<link name><param path>/<data|grad>/<statistic>``
    (a statistic returning an array is reported element by element as
    ``<statistic>/<i>``).

    Args:
        links: A link or a list of links.
        statistics: Dict of ``name: function(array)``; ``'default'`` for
            :attr:`default_statistics` (mean, std, min, max, zeros,
            percentile), ``None`` for none (see :meth:`register_statistics`).
        report_params (bool): Report statistics of the parameters.
        report_grads (bool): Report statistics of the gradients.
        prefix (str): Prefix of the keys.
        trigger: When to report (``(1, 'epoch')``).
        skip_nan_params (bool): Report NaN (without computing) for arrays
            holding NaN.
    """

    default_name = 'parameter_statistics'
    report_key_template = '{prefix}{link_name}{param_name}/{attr_name}/{function_name}'
    priority = extension.PRIORITY_WRITER

    default_statistics = {
        'mean': lambda x: backend.get_array_module(x).mean(x),
        'std': lambda x: backend.get_array_module(x).std(x),
        'min': lambda x: backend.get_array_module(x).min(x),
        'max': lambda x: backend.get_array_module(x).max(x),
        'zeros': lambda x: backend.get_array_module(x).count_nonzero(x == 0),
        'percentile': _percentiles,
    }

    def __init__(self, links, statistics='default', report_params=True, report_grads=True,
                 prefix=None, trigger=(1, 'epoch'), skip_nan_params=False):
        if not isinstance(links, (list, tuple)):
            links = links,
        self._links = links
        if statistics is None:
            statistics = {}
        elif statistics == 'default':
            statistics = self.default_statistics
        self._statistics = dict(statistics)
        attrs = []
        if report_params:
            attrs.append('data')
        if report_grads:
            attrs.append('grad')
        self._attrs = attrs
        self._prefix = prefix
        self._trigger = util._trigger_of(trigger, 'ParameterStatistics')
        self._summary = reporter.DictSummary()
        self._skip_nan_params = skip_nan_params

    def __call__(self, trainer):
        """Adds the current statistics to the summary and reports the means when triggered."""
        stats = {}
        for link in self._links:
            link_name = getattr(link, 'name', 'None')
            for param_name, param in link.namedparams():
                for attr in self._attrs:
                    array = getattr(param, attr)
                    if array is None:
                        continue  # a gradient not computed yet
                    array = array.ravel()
                    if self._skip_nan_params and bool(
                            backend.get_array_module(array).isnan(array).any()):
                        values = {name: numpy.nan for name in self._statistics}
                    else:
                        values = {name: f(array) for name, f in self._statistics.items()}
                    for name, value in values.items():
                        key = self.report_key_template.format(
                            prefix=self._prefix + '/' if self._prefix else '',
                            link_name=link_name, param_name=param_name, attr_name=attr,
                            function_name=name)
                        self._add(stats, key, value)
        self._summary.add(stats)
        if self._trigger(trainer):
            reporter.report(self._summary.compute_mean())
            self._summary = reporter.DictSummary()

    def _add(self, stats, key, value):
        if getattr(value, 'ndim', 0) > 0 and getattr(value, 'size', 1) > 0:
            for i, v in enumerate(value):
                stats[f'{key}/{i}'] = v
        else:
            stats[key] = value

    def serialize(self, serializer):
        """Saves or loads the trigger's progress (``_trigger/...``) and the statistics
        gathered since the last report (``_summary/...``), so that a resumed run reports
        the same means; Chainer 7.8.1 saves neither. Files without them load."""
        _state.serialize_optional(serializer, '_trigger', self._trigger)
        _state.serialize_optional(serializer, '_summary', self._summary)

    def register_statistics(self, name, function):
        """Adds a statistic ``function(array) -> scalar or array`` under ``name``."""
        self._statistics[name] = function
