"""Evaluates models on a validation set and reports the mean observations."""
import copy
import sys
import warnings

import chainer
from chainer import backend
from chainer import configuration
from chainer import reporter as reporter_module
from chainer.dataset import convert
from chainer.training import extension
from chainer.training.extensions import util
from chainer.utils import argument


class Evaluator(extension.Extension):
    """Runs the target over a whole iterator in test mode and reports the means.

    The target is called on each converted batch with
    ``chainer.config.train = False`` and without building a graph; what it
    reports is averaged over the batches and reported under
    ``<name>/<observer name>/...`` (``validation/main/loss`` by default).

    Args:
        iterator: Iterator over the validation set (or a dict with ``'main'``).
            It is reset (or copied) before each evaluation.
        target: Link to evaluate (or a dict of links with ``'main'``).
        converter: Batch converter.
        device: Device to convert the batches to.
        eval_hook: Called as ``eval_hook(evaluator)`` before each evaluation.
        eval_func: Called on each batch instead of the main target.
        progress_bar (bool): Print the progress of the evaluation.

    Attributes:
        converter, device, eval_hook, eval_func: As given.
        name (str): Prefix of the reported keys (``'validation'``).
    """

    trigger = 1, 'epoch'
    default_name = 'validation'
    priority = extension.PRIORITY_WRITER
    name = None

    def __init__(self, iterator, target, converter=convert.concat_examples, device=None,
                 eval_hook=None, eval_func=None, **kwargs):
        (progress_bar,) = argument.parse_kwargs(kwargs, ('progress_bar', False))
        if device is not None:
            device = backend.get_device(device)
        self._iterators = dict(iterator) if isinstance(iterator, dict) else {'main': iterator}
        for key, it in self._iterators.items():
            if getattr(it, 'repeat', False):
                warnings.warn(
                    f'Evaluator: the iterator {key!r} has repeat=True, so an evaluation would '
                    f'never end; create it with repeat=False')
        if isinstance(target, chainer.Link) or not isinstance(target, dict):
            target = {'main': target}
        self._targets = dict(target)
        self.converter = converter
        self.device = device
        self.eval_hook = eval_hook
        self.eval_func = eval_func
        self._progress_bar = progress_bar

    def get_iterator(self, name):
        """Returns the iterator of the given name."""
        return self._iterators[name]

    def get_all_iterators(self):
        """Returns a dict of all iterators."""
        return dict(self._iterators)

    def get_target(self, name):
        """Returns the target link of the given name."""
        return self._targets[name]

    def get_all_targets(self):
        """Returns a dict of all target links."""
        return dict(self._targets)

    def __call__(self, trainer=None):
        """Evaluates and reports the results (also returned, as a dict)."""
        reporter = reporter_module.Reporter()
        prefix = self.name + '/' if self.name else ''
        for name, target in self._targets.items():
            reporter.add_observer(prefix + name, target)
            if hasattr(target, 'namedlinks'):
                reporter.add_observers(prefix + name, target.namedlinks(skipself=True))
        with reporter:
            with configuration.using_config('train', False):
                result = self.evaluate()
        reporter_module.report(result)
        return result

    def evaluate(self):
        """Runs the evaluation over the whole iterator and returns the mean observations."""
        iterator = self._iterators['main']
        eval_func = self.eval_func or self._targets['main']
        if self.eval_hook:
            self.eval_hook(self)
        if hasattr(iterator, 'reset'):
            iterator.reset()
            it = iterator
        else:
            warnings.warn('Evaluator: the iterator has no reset(), so it is copied before each '
                          'evaluation instead; give it a reset method', DeprecationWarning)
            it = copy.copy(iterator)
        summary = reporter_module.DictSummary()
        pbar = _EvalProgressBar(it) if self._progress_bar else None
        for batch in it:
            observation = {}
            with reporter_module.report_scope(observation):
                in_arrays = convert._call_converter(self.converter, batch, self.device)
                with chainer.no_backprop_mode():
                    if isinstance(in_arrays, tuple):
                        eval_func(*in_arrays)
                    elif isinstance(in_arrays, dict):
                        eval_func(**in_arrays)
                    else:
                        eval_func(in_arrays)
            summary.add(observation)
            if pbar is not None:
                pbar.update()
        if pbar is not None:
            pbar.close()
        return summary.compute_mean()

    def finalize(self):
        for it in self._iterators.values():
            # Evaluators that override evaluate() may hold no iterator (None).
            finalize = getattr(it, 'finalize', None)
            if finalize is not None:
                finalize()


class _EvalProgressBar(util.ProgressBar):

    def __init__(self, iterator):
        super().__init__(out=sys.stdout)
        self._iterator = iterator
        self._count = 0

    def update(self):
        self._count += 1
        super().update()

    def get_lines(self):
        size = len(getattr(self._iterator, 'dataset', ())) or 1
        batch = getattr(self._iterator, 'batch_size', 1)
        rate = min(self._count * batch / size, 1.0)
        return [f'validation [{util._bar(self._bar_length, rate)}] {rate:7.2%}']
