"""Helpers of the training package."""
from chainer.training.triggers import interval_trigger


def _never_fire_trigger(trainer):
    return False


def get_trigger(trigger):
    """Turns a trigger specification into a trigger callable.

    Args:
        trigger: ``None`` (a trigger that never fires), a callable (returned
            as it is) or a ``(period, unit)`` tuple with unit ``'epoch'`` or
            ``'iteration'`` (an :class:`~chainer.training.triggers.IntervalTrigger`).

    Returns:
        A callable ``trigger(trainer) -> bool``.
    """
    if callable(trigger):
        return trigger
    if trigger is None:
        return _never_fire_trigger
    if not isinstance(trigger, (tuple, list)) or len(trigger) != 2:
        raise TypeError(
            f'a trigger must be None, a callable or a (period, unit) pair such as '
            f"(1, 'epoch'), got {trigger!r}")
    return interval_trigger.IntervalTrigger(*trigger)


def _trigger_of(trigger, owner):
    # get_trigger, with errors that name the extension or trigger it is for.
    try:
        return get_trigger(trigger)
    except (TypeError, ValueError) as e:
        raise type(e)(f'invalid trigger for {owner}: {e}') from None
