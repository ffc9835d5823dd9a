"""What the stateful recurrent links share: their state variables move, reset
and are set the same way."""
import chainer
from chainer import variable


class StateMixin:
    """Mixin for a link holding recurrent states in the attributes ``_STATES``.

    The states are Variables (or ``None`` before the first step); they move with
    the link (``to_device``, ``to_cpu``...), unlike ordinary attributes.
    """

    _STATES = ('h',)

    def reset_state(self):
        """Forgets the states: the next step starts from zeros."""
        for name in self._STATES:
            setattr(self, name, None)

    def _set_states(self, **states):
        for name, value in states.items():
            if not isinstance(value, variable.Variable):
                raise TypeError(f'{type(self).__name__}.set_state requires {name} to be a '
                                f'chainer.Variable, got {type(value).__name__}')
            value.to_device(self.device)
            setattr(self, name, value)

    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        for name in self._STATES:
            value = getattr(self, name, None)
            if value is not None:
                visitor.visit_variable(value)


def zeros_state(link, batch, dtype):
    """A zero state ``(batch, link.state_size)`` on the link's device."""
    xp = link.xp
    with chainer.using_device(link.device):
        return variable.Variable(xp.zeros((batch, link.state_size), dtype=dtype))
