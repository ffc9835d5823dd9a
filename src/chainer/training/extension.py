"""The base of trainer extensions and the ``make_extension`` decorator."""

PRIORITY_WRITER = 300
PRIORITY_EDITOR = 200
PRIORITY_READER = 100


class Extension:
    """Base of trainer extensions: a callable the trainer runs when its trigger fires.

    Attributes:
        trigger: Default trigger (``(1, 'iteration')``), used when
            :meth:`Trainer.extend` is given none.
        priority (int): Order among extensions fired at the same iteration
            (higher first): ``PRIORITY_WRITER`` for extensions that add to
            the observation, ``PRIORITY_EDITOR`` for those that edit it,
            ``PRIORITY_READER`` (default) for those that only read it.
        name (str): Name given by the trainer when registered.
    """

    trigger = 1, 'iteration'
    priority = PRIORITY_READER
    name = None

    @property
    def default_name(self):
        """Name used when none is given: the class name."""
        return type(self).__name__

    def __call__(self, trainer):
        """Runs the extension (subclasses override it).

        Args:
            trainer (~chainer.training.Trainer): The trainer.
        """
        raise NotImplementedError(
            f'{type(self).__name__} is an Extension and must define __call__(trainer)')

    def finalize(self):
        """Called once when training ends (normally or not)."""

    def initialize(self, trainer):
        """Called once before the training loop starts (also on resume)."""

    def on_error(self, trainer, exc, tb):
        """Called when the training loop raised ``exc`` (with traceback ``tb``)."""

    def serialize(self, serializer):
        """Saves or loads the extension's state (nothing by default)."""


_DELETED_ARGS = ('invoke_before_training',)


def _reject_deleted(kwargs, where):
    for key in _DELETED_ARGS:
        if key in kwargs:
            raise ValueError(
                f'{where}: the argument {key!r} was removed; use '
                f'Trainer.extend(..., call_before_training=True) instead')
    if kwargs:
        raise TypeError(f'{where}() got unexpected keyword argument(s) '
                        f'{", ".join(map(repr, kwargs))}')


def make_extension(trigger=None, default_name=None, priority=None, finalizer=None,
                   initializer=None, on_error=None, **kwargs):
    """Decorator that makes a function ``f(trainer)`` an extension.

    It sets the attributes the trainer reads from an extension on the function.

    Args:
        trigger: Default trigger (``(1, 'iteration')`` when ``None``).
        default_name (str): Default name (the function's name when ``None``).
        priority (int): Priority (``PRIORITY_READER`` when ``None``).
        finalizer: Called as ``finalizer()`` when training ends.
        initializer: Called as ``initializer(trainer)`` before training.
        on_error: Called as ``on_error(trainer, exc, tb)`` on failure.

    Returns:
        A decorator.
    """
    _reject_deleted(kwargs, 'make_extension')
    if trigger is None:
        trigger = Extension.trigger
    if priority is None:
        priority = PRIORITY_READER

    def decorator(ext):
        ext.trigger = trigger
        ext.default_name = default_name or ext.__name__
        ext.priority = priority
        ext.finalize = finalizer
        ext.initialize = initializer
        ext.on_error = on_error
        return ext

    return decorator
