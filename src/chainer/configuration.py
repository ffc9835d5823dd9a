"""Process-wide defaults (``global_config``) and per-thread overrides (``config``)."""
import contextlib
import sys
import threading

# Token of the current configuration state: replaced by a fresh object after every write to a
# config object (global or thread-local, any thread). Hot paths that cache config entries per
# thread (``FunctionNode.apply``) tag the cache with the token read *before* the entries and
# trust it only while the token is still the same object. Writers store the value first and
# replace the token second, so a reader racing with a write ends up with an outdated token,
# never with an outdated value under the current token. (A fresh object rather than a counter:
# replacing a list item is atomic, and a token kept in a cache cannot be reused for another.)
_version = [object()]


def _changed():
    _version[0] = object()


class GlobalConfig:
    """Configuration shared by every thread; holds the defaults."""

    def __setattr__(self, name, value):
        super().__setattr__(name, value)
        _changed()

    def __delattr__(self, name):
        super().__delattr__(name)
        _changed()

    def show(self, file=sys.stdout):
        """Prints all entries sorted by name, one ``name  value`` per line."""
        _show(self, vars(self), file)


def _show(cfg, entries, file):
    keys = sorted(k for k in entries if not k.startswith('_'))
    width = max((len(k) for k in keys), default=0) + 1
    for k in keys:
        file.write('{:<{}}{}\n'.format(k, width, getattr(cfg, k)))


class LocalConfig:
    """Thread-local view over a :class:`GlobalConfig`.

    Reading an entry looks in this thread's overrides first and falls back to
    the global one; writing only affects the current thread.
    """

    def __init__(self, global_config):
        super().__setattr__('_global', global_config)
        super().__setattr__('_local', threading.local())

    def __delattr__(self, name):
        delattr(self._local, name)
        _changed()

    def __getattr__(self, name):
        local = self._local.__dict__
        if name in local:
            return local[name]
        return getattr(self._global, name)

    def __setattr__(self, name, value):
        setattr(self._local, name, value)
        _changed()

    def show(self, file=sys.stdout):
        """Prints every entry visible from this thread, sorted by name."""
        entries = dict(vars(self._global))
        entries.update(self._local.__dict__)
        _show(self, entries, file)


global_config = GlobalConfig()
config = LocalConfig(global_config)


def _entries(names):
    """The values of several entries of ``config`` as this thread sees them, in one call:
    hot paths that read several entries (``FunctionNode.apply`` rereading its flags) would
    otherwise pay a ``__getattr__`` call for each."""
    local = config._local.__dict__
    default = global_config.__dict__
    return [local[n] if n in local else default[n] if n in default else getattr(config, n)
            for n in names]


class _ConfigContext(contextlib.ContextDecorator):
    """What :func:`using_config` returns: a reusable context manager and decorator."""

    def __init__(self, config, name, value):
        self.config = config
        self.name = name
        self.value = value
        self._saved = []    # one (was set locally, old value) per active entry

    def __enter__(self):
        config = self.config
        local = config._local.__dict__ if isinstance(config, LocalConfig) else vars(config)
        name = self.name
        self._saved.append((name in local, local.get(name)))
        setattr(config, name, self.value)

    def __exit__(self, *exc_info):
        had, old = self._saved.pop()
        if had:
            setattr(self.config, self.name, old)
        else:
            try:
                delattr(self.config, self.name)
            except AttributeError:
                pass

    def _recreate_cm(self):
        # Each call of a decorated function gets its own context, so that calls from
        # several threads do not share the stack of saved values.
        return _ConfigContext(self.config, self.name, self.value)


def using_config(name, value, config=config):
    """Temporarily sets ``config.<name>`` to ``value`` within a ``with`` block.

    The returned object can be entered several times (also nested) and can
    decorate a function, which then runs with the setting.

    Args:
        name (str): Configuration key.
        value: Value used inside the block.
        config: The configuration object to modify (``chainer.config`` by
            default).
    """
    return _ConfigContext(config, name, value)
