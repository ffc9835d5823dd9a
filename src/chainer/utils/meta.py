"""Final methods: a base class can forbid (or discourage) overriding them.

``enable_final()`` gives a base class whose metaclass looks, whenever a
subclass is created, for methods the subclass redefines that an ancestor
marked with ``@final``; it then raises (or warns, for a warning class).
"""
import warnings

# The attribute that @final sets on the method it marks.
_ACTION = '__override_action'


class _EnableFinal(type):
    """Metaclass that enforces ``@final`` when a class is created."""

    def __init__(cls, name, bases, namespace, **kwargs):
        super().__init__(name, bases, namespace, **kwargs)
        for attr in namespace:
            for base in bases:
                marked = getattr(base, attr, None)
                action = getattr(marked, _ACTION, None)
                if action is None:
                    continue
                action, = action
                if issubclass(action, Warning):
                    # stacklevel 2: the class statement that overrides it.
                    warnings.warn(f"Overriding method '{attr}'.", action, stacklevel=2)
                else:
                    raise action(f"method '{attr}' is final.")
                break


def enable_final(base=(), meta_base=()):
    """Returns a base class in which methods can be declared :func:`final`.

    Args:
        base (type or tuple of types): Base classes of the returned class.
        meta_base (type or tuple of types): Metaclasses to combine with the
            one that enforces ``final`` (for example ``abc.ABCMeta``), so that
            subclasses with those metaclasses do not conflict.

    Returns:
        type: A class to inherit from.
    """
    if not isinstance(base, tuple):
        base = (base,)
    if not isinstance(meta_base, tuple):
        meta_base = (meta_base,)
    meta = _EnableFinal
    if meta_base:
        meta = type('base_metaclass', (_EnableFinal,) + meta_base, {})
    return meta('base_class', base or (object,), {})


def final(*args, **kwargs):
    """Declares a method final: subclasses must not override it.

    Use it bare (``@final``: overriding raises :class:`TypeError`) or with an
    action (``@final(action=DeprecationWarning)``): an exception class is
    raised, a warning class is warned. It takes effect in classes derived
    from :func:`enable_final`.

    Args:
        action (type): What overriding the method causes; ``TypeError`` by
            default.
    """
    if args:
        if len(args) != 1 or kwargs or not callable(args[0]):
            # AssertionError, as in Chainer.
            raise AssertionError(
                'final takes the method alone (@final) or keyword options alone '
                f'(@final(action=...)), got {len(args)} positional and {len(kwargs)} keyword '
                'argument(s)')
        return _mark(args[0], TypeError)
    action = kwargs.pop('action', TypeError)
    if kwargs:
        raise TypeError(f'final got unexpected keyword argument(s): {", ".join(kwargs)}')
    return lambda method: _mark(method, action)


def _mark(method, action):
    setattr(method, _ACTION, (action,))
    return method
