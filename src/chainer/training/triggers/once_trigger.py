"""A trigger that fires once."""


class OnceTrigger:
    """Fires at its first call only (and once again after a resume if asked).

    Args:
        call_on_resume (bool): Fire again at the first call after the trainer
            is resumed from a snapshot.
    """

    def __init__(self, call_on_resume=False):
        self._flag_first = True
        self._flag_resumed = call_on_resume

    @property
    def finished(self):
        return not (self._flag_first or self._flag_resumed)

    def __call__(self, trainer):
        fire = self._flag_first or self._flag_resumed
        self._flag_first = self._flag_resumed = False
        return fire

    def serialize(self, serializer):
        self._flag_first = serializer('_flag_first', self._flag_first)
