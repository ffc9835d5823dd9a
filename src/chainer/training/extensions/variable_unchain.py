"""Cuts the graphs of the observed variables at the end of each iteration."""
from chainer import configuration
from chainer import variable
from chainer.training import extension


class unchain_variables(extension.Extension):  # NOQA: Chainer's (lowercase) name
    """Unchains the observed Variables backward so their graphs can be freed early.

    Only useful when ``chainer.config.keep_graph_on_report`` is ``True``
    (otherwise the reporter already stores copies without graphs): the
    extension fires only if the flag was on when training started. It runs
    after every other extension (priority 0).
    """

    priority = 0

    def __init__(self):
        self._prev_flag = None

    def initialize(self, _):
        self._prev_flag = configuration.config.keep_graph_on_report

    def trigger(self, _):
        return self._prev_flag

    def __call__(self, trainer):
        for value in trainer.observation.values():
            if isinstance(value, variable.Variable):
                value.unchain_backward()
