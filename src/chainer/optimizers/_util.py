"""Small helpers shared by the optimizers' modules."""


def set_given(hyperparam, **values):
    """Sets the hyperparameters whose value is not ``None`` (the others are inherited)."""
    for name, value in values.items():
        if value is not None:
            setattr(hyperparam, name, value)


def defaults(**values):
    """A parentless :class:`~chainer.optimizer.Hyperparameter` holding ``values``."""
    from chainer import optimizer
    hp = optimizer.Hyperparameter()
    for name, value in values.items():
        setattr(hp, name, value)
    return hp


def zeros_like(param, fill=0):
    """A state array shaped like ``param``'s, on its device."""
    return param.device.xp.full_like(param.array, fill)
