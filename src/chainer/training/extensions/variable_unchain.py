"""Cuts the graph of the observed variables at each iteration."""
from chainer import variable
from chainer.training import extension


@extension.make_extension(trigger=(1, 'iteration'), priority=extension.PRIORITY_READER)
def unchain_variables(trainer):
    """Unchains the observed Variables backward, so their graphs can be freed early."""
    for value in trainer.observation.values():
        if isinstance(value, variable.Variable):
            value.unchain_backward()
