"""Stops the training as soon as a parameter holds NaN or infinity."""
from chainer import backend
from chainer.training import extension


class FailOnNonNumber(extension.Extension):
    """Raises :class:`RuntimeError` when a parameter of an optimizer's target is not finite.

    The message names the optimizer and the parameter.
    """

    def __call__(self, trainer):
        for name, optimizer in trainer.updater.get_all_optimizers().items():
            for path, param in optimizer.target.namedparams():
                array = param.array
                if array is None:
                    continue
                xp = backend.get_array_module(array)
                if not xp.isfinite(array).all():
                    raise RuntimeError(
                        f'Kill the process since parameters in optimizer: {name}, '
                        f'param: {path} have nan or inf')
