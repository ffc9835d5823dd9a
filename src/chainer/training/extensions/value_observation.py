"""Extensions that put a value (such as the learning rate) into the observation."""
from chainer.training import extension


def observe_value(observation_key, target_func):
    """Returns an extension that reports ``target_func(trainer)`` as ``observation_key``.

    Args:
        observation_key (str): Key of the value in the observation.
        target_func: ``target_func(trainer)`` returns the value.

    Returns:
        The extension (trigger ``(1, 'epoch')``, priority ``PRIORITY_WRITER``).
    """

    @extension.make_extension(trigger=(1, 'epoch'), priority=extension.PRIORITY_WRITER)
    def _observe_value(trainer):
        trainer.observation[observation_key] = target_func(trainer)

    return _observe_value


def observe_lr(optimizer_name='main', observation_key='lr'):
    """Returns an extension that reports the learning rate of an optimizer.

    Args:
        optimizer_name (str): Name of the optimizer in the updater.
        observation_key (str): Key of the value in the observation.
    """
    return observe_value(
        observation_key, lambda trainer: trainer.updater.get_optimizer(optimizer_name).lr)
