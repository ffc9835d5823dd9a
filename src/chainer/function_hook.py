"""FunctionHook: callbacks around every function application and its backward."""
import collections
import threading

_thread_local = threading.local()


def get_function_hooks():
    """Returns the ordered dict of function hooks registered in this thread."""
    try:
        return _thread_local.function_hooks
    except AttributeError:
        hooks = _thread_local.function_hooks = collections.OrderedDict()
        return hooks


class FunctionHook:
    """Base class of function hooks.

    A hook is called before and after the forward and backward computation of
    every function application. Register it for the current thread with a
    ``with`` block (``with hook: ...``) or on one function node with
    :meth:`chainer.FunctionNode.add_hook`. Override any of the methods below;
    the defaults do nothing.

    Attributes:
        name (str): Name under which the hook is registered.
    """

    name = 'FunctionHook'

    def __enter__(self):
        hooks = get_function_hooks()
        if self.name in hooks:
            raise KeyError(f'hook {self.name} already exists')
        hooks[self.name] = self
        self.added(None)
        return self

    def __exit__(self, *_):
        self.deleted(None)
        del get_function_hooks()[self.name]

    def added(self, function):
        """Called when the hook is registered (``function`` is None for a global hook)."""
        pass

    def deleted(self, function):
        """Called when the hook is unregistered (``function`` is None for a global hook)."""
        pass

    def forward_preprocess(self, function, in_data):
        """Called before the forward computation of ``function``."""
        pass

    def forward_postprocess(self, function, in_data):
        """Called after the forward computation of ``function``."""
        pass

    def backward_preprocess(self, function, in_data, out_grad):
        """Called before the backward computation of ``function``."""
        pass

    def backward_postprocess(self, function, in_data, out_grad):
        """Called after the backward computation of ``function``."""
        pass
