"""The trainer: runs the updater in a loop and the extensions on their triggers."""
import os
import sys
import time
import traceback

from chainer import reporter as reporter_module
from chainer import serializer as serializer_module
from chainer.training import extension as extension_module
from chainer.training import util
from chainer.utils import _random_state

_get_time = time.perf_counter


class _ExtensionEntry:

    def __init__(self, extension, priority, trigger, call_before_training):
        self.extension = extension
        self.trigger = trigger
        self.priority = priority
        self.call_before_training = call_before_training


class Trainer:
    """The standard training loop.

    Each iteration calls ``updater.update()`` and then, in order of priority,
    every extension whose trigger fires; values reported during the iteration
    are collected in :attr:`observation`. The loop ends when ``stop_trigger``
    fires.

    Args:
        updater (~chainer.training.Updater): Updater of the models.
        stop_trigger: Trigger that ends the training (``(period, unit)``,
            a callable, or ``None`` for never).
        out (str): Output folder of the extensions (snapshots, logs...).
        extensions (list): Extensions to register at once.

    Attributes:
        updater: The updater.
        stop_trigger: The stop trigger.
        out (str): The output folder.
        observation (dict): Values reported in the current iteration.
        reporter (~chainer.Reporter): Reporter with the optimizers' targets
            registered under the optimizers' names.
    """

    def __init__(self, updater, stop_trigger=None, out='result', extensions=None):
        self.updater = updater
        self.stop_trigger = util.get_trigger(stop_trigger)
        self.observation = {}
        self.out = out
        self.reporter = reporter = reporter_module.Reporter()
        for name, optimizer in updater.get_all_optimizers().items():
            reporter.add_observer(name, optimizer.target)
            reporter.add_observers(name, optimizer.target.namedlinks(skipself=True))
        self._done = False
        self._extensions = {}
        self._start_at = None
        self._snapshot_elapsed_time = 0.0
        self._final_elapsed_time = None
        updater.connect_trainer(self)
        for ext in extensions or ():
            self.extend(ext)

    @property
    def is_before_training(self):
        """``True`` while no iteration has run."""
        return self.updater.iteration == 0

    @property
    def elapsed_time(self):
        """Seconds of training so far, including the time before a resume."""
        if self._done:
            return self._final_elapsed_time
        if self._start_at is None:
            raise RuntimeError('training has not been started yet')
        return _get_time() - self._start_at + self._snapshot_elapsed_time

    def extend(self, extension, name=None, trigger=None, priority=None, *,
               call_before_training=False, **kwargs):
        """Registers an extension.

        Args:
            extension: An :class:`~chainer.training.Extension` or a callable
                ``f(trainer)`` (see :func:`~chainer.training.make_extension`).
            name (str): Name of the extension; defaults to its ``name``,
                ``default_name`` or ``__name__``. A name already taken gets a
                ``_1``, ``_2``... suffix.
            trigger: When to run it; defaults to the extension's ``trigger``.
            priority (int): Defaults to the extension's ``priority``.
            call_before_training (bool): Also run it once before the loop.
        """
        extension_module._reject_deleted(kwargs, 'Trainer.extend')
        if name is None:
            name = getattr(extension, 'name', None)
        if name is None:
            name = getattr(extension, 'default_name', None)
        if name is None:
            name = getattr(extension, '__name__', None)
        if name is None:
            raise TypeError(f'Trainer.extend: the extension {extension!r} has no name; '
                            f'pass name=...')
        if name == 'training':
            raise ValueError('Trainer.extend: "training" cannot be an extension name')
        if trigger is None:
            trigger = getattr(extension, 'trigger', extension_module.Extension.trigger)
        # A bad trigger is reported here, naming the extension, rather than as an
        # obscure error in the middle of training.
        trigger = util._trigger_of(trigger, f'the extension {name!r} (Trainer.extend)')
        if priority is None:
            priority = getattr(extension, 'priority', extension_module.PRIORITY_READER)

        unique, ordinal = name, 0
        while unique in self._extensions:
            ordinal += 1
            unique = f'{name}_{ordinal}'
        try:
            extension.name = unique
        except AttributeError:
            pass  # a bound method or a builtin cannot carry its name
        self._extensions[unique] = _ExtensionEntry(
            extension, priority, trigger, call_before_training)

    def get_extension(self, name):
        """Returns the extension registered under ``name``."""
        entry = self._extensions.get(name)
        if entry is None:
            raise ValueError(f'extension {name} not found (registered: '
                             f'{", ".join(self._extensions) or "none"})')
        return entry.extension

    def _sorted_extensions(self):
        # Higher priority first; sorted() is stable, so registration order
        # breaks ties.
        return sorted(self._extensions.items(), key=lambda item: item[1].priority,
                      reverse=True)

    def run(self, show_loop_exception_msg=True):
        """Runs the training loop until the stop trigger fires.

        Args:
            show_loop_exception_msg (bool): Print the exception and its
                traceback to stderr when the loop fails (it is re-raised
                either way, after each extension's ``on_error``).
        """
        if self._done:
            raise RuntimeError('cannot run training loop multiple times')
        os.makedirs(self.out, exist_ok=True)
        extensions = self._sorted_extensions()

        # Extensions may load a snapshot here (snapshot(autoload=True)), which
        # sets _snapshot_elapsed_time: start the clock after them.
        # Autoloading snapshots go first so that the other extensions initialize
        # from the resumed state (a shift sets the resumed learning rate).
        # Extensions whose trigger has finished (a spent OnceTrigger) are skipped.
        for _, entry in sorted(extensions, key=lambda item: not getattr(
                item[1].extension, '_initialize_first', False)):
            initialize = getattr(entry.extension, 'initialize', None)
            if initialize is not None and not getattr(entry.trigger, 'finished', False):
                initialize(self)
        self._start_at = _get_time()

        update = self.updater.update
        reporter = self.reporter
        stop_trigger = self.stop_trigger
        try:
            with reporter.scope(self.observation):
                for _, entry in extensions:
                    if entry.call_before_training:
                        entry.extension(self)
            while not stop_trigger(self):
                self.observation = {}
                with reporter.scope(self.observation):
                    update()
                    for _, entry in extensions:
                        if entry.trigger(self):
                            entry.extension(self)
        except Exception as e:
            self._on_error(extensions, e, show_loop_exception_msg)
            raise
        finally:
            for _, entry in extensions:
                finalize = getattr(entry.extension, 'finalize', None)
                if finalize is not None:
                    finalize()
            self.updater.finalize()
        self._final_elapsed_time = self.elapsed_time
        self._done = True

    def _on_error(self, extensions, exc, show_message):
        tb = sys.exc_info()[2]
        err = sys.stderr
        if show_message:
            err.write(f'Exception in main training loop: {exc}\n')
            err.write('Traceback (most recent call last):\n')
            traceback.print_tb(tb, file=err)
            err.write('Will finalize trainer extensions and updater before '
                      'reraising the exception.\n')
        for name, entry in extensions:
            handler = getattr(entry.extension, 'on_error', None)
            if handler is None:
                continue
            try:
                handler(self, exc, tb)
            except Exception as handler_exc:
                err.write(f'Exception in the on_error handler of {name!r}: '
                          f'{type(handler_exc).__name__}: {handler_exc}\n')
                traceback.print_exc(file=err)

    def serialize(self, serializer):
        """Saves or loads the state of the updater, the extensions and the triggers.

        Keys: ``updater/...``, ``stop_trigger/...``, ``extensions/<name>/...``,
        ``extension_triggers/<name>/...`` and ``_snapshot_elapsed_time``, as in Chainer
        7.8.1, and ``_random_state/...``: the state of NumPy's global generator, which a
        load restores (files without it leave the generator alone).
        """
        self.updater.serialize(serializer['updater'])
        if hasattr(self.stop_trigger, 'serialize'):
            self.stop_trigger.serialize(serializer['stop_trigger'])
        s_ext = serializer['extensions']
        s_trig = serializer['extension_triggers']
        for name, entry in self._extensions.items():
            if hasattr(entry.extension, 'serialize'):
                entry.extension.serialize(s_ext[name])
            if hasattr(entry.trigger, 'serialize'):
                entry.trigger.serialize(s_trig[name])
        # NumPy's global generator (dropout, shuffling...), so that a resumed run draws
        # what an uninterrupted one would; Chainer 7.8.1 saves no random state.
        _random_state.serialize_child(serializer, '_random_state',
                                      _random_state.global_generator())
        if isinstance(serializer, serializer_module.Serializer):
            elapsed = self.elapsed_time if (self._done or self._start_at is not None) \
                else self._snapshot_elapsed_time
            serializer('_snapshot_elapsed_time', float(elapsed))
        else:
            try:
                self._snapshot_elapsed_time = float(
                    serializer('_snapshot_elapsed_time', 0.0))
            except KeyError:
                self._snapshot_elapsed_time = 0.0
