"""Small helpers shared by the optimizers' modules."""
from chainer import optimizer


def set_given(hyperparam, **values):
    """Sets the hyperparameters whose value is not ``None`` (the others are inherited)."""
    for name, value in values.items():
        if value is not None:
            setattr(hyperparam, name, value)


def defaults(**values):
    """A parentless :class:`~chainer.optimizer.Hyperparameter` holding ``values``."""
    hp = optimizer.Hyperparameter()
    for name, value in values.items():
        setattr(hp, name, value)
    return hp


def zeros_like(param, fill=0):
    """A state array shaped like ``param``'s, on its device."""
    return param.device.xp.full_like(param.array, fill)


class MomentumRule(optimizer.UpdateRule):
    """A rule with a learning rate, a momentum and a velocity ``v`` shaped like the parameter.

    Subclasses set ``_defaults`` and write the update itself.
    """

    is_elementwise = True
    _defaults = None

    def __init__(self, parent_hyperparam=None, lr=None, momentum=None):
        super().__init__(parent_hyperparam or self._defaults)
        set_given(self.hyperparam, lr=lr, momentum=momentum)

    def init_state(self, param):
        self.state['v'] = zeros_like(param)


class MomentumOptimizer(optimizer.GradientMethod):
    """An optimizer whose update rule (``_rule``) takes ``lr`` and ``momentum``."""

    _rule = None

    def __init__(self, lr=0.01, momentum=0.9):
        super().__init__()
        set_given(self.hyperparam, lr=lr, momentum=momentum)

    lr = optimizer.HyperparameterProxy('lr')
    momentum = optimizer.HyperparameterProxy('momentum')

    def create_update_rule(self):
        return self._rule(self.hyperparam)
