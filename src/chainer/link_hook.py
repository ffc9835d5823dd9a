"""LinkHook: code that runs around every call of a link."""
import chainer

# How many `with hook:` blocks are open, in all threads together. Link.__call__ reads it to
# skip the (thread-local) hook lookup entirely while no hook is active anywhere.
_n_global_hooks = [0]


class _CallbackArgs:
    # Base of the objects handed to forward_preprocess / forward_postprocess.

    _fields = ()

    def __repr__(self):
        body = ' '.join(f'{k}={getattr(self, k)}' for k in self._fields)
        return f'<{type(self).__module__}.{type(self).__name__} {body}>'

    __str__ = __repr__


class _ForwardPreprocessCallbackArgs(_CallbackArgs):
    """What :meth:`LinkHook.forward_preprocess` receives.

    Attributes:
        link (~chainer.Link): The link being called.
        forward_name (str): Name of the method called (``'forward'``).
        args (tuple): Positional arguments of the call.
        kwargs (dict): Keyword arguments of the call.
    """

    _fields = ('link', 'forward_name', 'args', 'kwargs')

    def __init__(self, link, forward_name, args, kwargs):
        self.link = link
        self.forward_name = forward_name
        self.args = args
        self.kwargs = kwargs


class _ForwardPostprocessCallbackArgs(_CallbackArgs):
    """What :meth:`LinkHook.forward_postprocess` receives.

    Attributes:
        link (~chainer.Link): The link being called.
        forward_name (str): Name of the method called (``'forward'``).
        args (tuple): Positional arguments of the call.
        kwargs (dict): Keyword arguments of the call.
        out: What the method returned.
    """

    _fields = ('link', 'forward_name', 'args', 'kwargs', 'out')

    def __init__(self, link, forward_name, args, kwargs, out):
        self.link = link
        self.forward_name = forward_name
        self.args = args
        self.kwargs = kwargs
        self.out = out


class LinkHook:
    """Base class of link hooks.

    A hook registered on a link (:meth:`~chainer.Link.add_hook`) runs around
    each call of that link; a hook used as a context manager
    (``with hook:``) runs around each call of every link in this thread.
    Subclasses override the callbacks they need:

    - :meth:`added` / :meth:`deleted` when registered and unregistered
      (``link`` is ``None`` for the context-manager form);
    - :meth:`forward_preprocess` / :meth:`forward_postprocess` before and
      after the link's ``forward``.

    Attributes:
        name (str): Key under which the hook is registered (class-level
            default ``'LinkHook'``).
    """

    name = 'LinkHook'

    def __enter__(self):
        hooks = chainer._get_link_hooks()
        if self.name in hooks:
            raise KeyError(f'hook {self.name} already exists')
        hooks[self.name] = self
        _n_global_hooks[0] += 1
        self.added(None)
        return self

    def __exit__(self, *_):
        hooks = chainer._get_link_hooks()
        hooks[self.name].deleted(None)
        del hooks[self.name]
        _n_global_hooks[0] -= 1

    def added(self, link):
        """Called when the hook is registered (``link`` is ``None`` for ``with hook:``)."""

    def deleted(self, link):
        """Called when the hook is unregistered (``link`` is ``None`` for ``with hook:``)."""

    def forward_preprocess(self, args):
        """Called before the link's forward with a callback-args object
        (``link``, ``forward_name``, ``args``, ``kwargs``)."""

    def forward_postprocess(self, args):
        """Called after the link's forward; ``args`` also carries ``out``."""
