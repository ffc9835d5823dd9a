"""Collects the observations and writes their means to a JSON log."""
import contextlib
import json
import os

from chainer import reporter
from chainer.serializers import _files
from chainer.training import extension
from chainer.training import util
from chainer.training.extensions import snapshot_writers
from chainer.utils import argument


class LogReport(extension.Extension):
    """Averages the observed values over an interval and appends them to a log.

    Each entry of the log holds the means of the values observed since the
    previous entry, plus ``epoch``, ``iteration`` and ``elapsed_time``. The
    log is written as a JSON list to ``<trainer.out>/<filename>`` at each
    entry; the file is replaced atomically (temporary file, fsync, rename),
    so it is always a complete JSON document.

    Args:
        keys (list of str): Observed keys to log (all when ``None``).
        trigger: When to add an entry (``(1, 'epoch')``).
        postprocess: Called with each new entry (a dict) before it is stored.
        filename (str): Name of the log file (``'log'``; it may use
            ``{iteration}``-style fields of the entry). ``None`` is the default;
            the old keyword ``log_name`` is also accepted, and a ``None``
            there writes no file.
    """

    def __init__(self, keys=None, trigger=(1, 'epoch'), postprocess=None, filename=None,
                 **kwargs):
        (log_name,) = argument.parse_kwargs(kwargs, ('log_name', 'log'))
        if filename is None:
            filename = log_name
        self._keys = keys
        self._trigger = util._trigger_of(trigger, 'LogReport')
        self._postprocess = postprocess
        self._log_name = filename
        self._log = []
        self._init_summary()

    def initialize(self, trainer):
        # Temporaries of a write that was killed are ours to remove.
        if self._log_name is not None and os.path.isdir(trainer.out):
            prefix = os.path.basename(self._log_name.split('{')[0])
            for name in os.listdir(trainer.out):
                if snapshot_writers.is_temporary_of(name, prefix):
                    with contextlib.suppress(OSError):
                        os.remove(os.path.join(trainer.out, name))

    def __call__(self, trainer):
        observation = trainer.observation
        if self._keys is None:
            self._summary.add(observation)
        else:
            self._summary.add({k: observation[k] for k in self._keys if k in observation})
        # Called before training (call_before_training=True), it logs what was observed then
        # (an evaluation of the untrained model) as an entry of its own, as Chainer 7 does.
        if not (self._trigger(trainer) or trainer.is_before_training):
            return
        entry = {k: float(v) for k, v in self._summary.compute_mean().items()}
        updater = trainer.updater
        entry['epoch'] = updater.epoch
        entry['iteration'] = updater.iteration
        entry['elapsed_time'] = trainer.elapsed_time
        if self._postprocess is not None:
            self._postprocess(entry)
        self._log.append(entry)
        if self._log_name is not None:
            path = os.path.join(trainer.out, self._log_name.format(**entry))
            with _files.atomic_open(path, 'w') as f:
                json.dump(self._log, f, indent=4)
        self._init_summary()

    @property
    def log(self):
        """The list of entries so far (dicts)."""
        return self._log

    def _init_summary(self):
        self._summary = reporter.DictSummary()

    def serialize(self, serializer):
        if hasattr(self._trigger, 'serialize'):
            self._trigger.serialize(serializer['_trigger'])
        self._summary.serialize(serializer['_summary'])
        log = serializer('_log', json.dumps(self._log))
        self._log = json.loads(str(log))
