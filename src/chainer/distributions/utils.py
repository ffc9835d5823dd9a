"""Helper functions shared by the distributions."""
from chainer import backend
from chainer import function_node
from chainer import utils


class ModifiedXLogX(function_node.FunctionNode):
    """``x * log(x)`` continued by its limit ``0`` at ``x = 0``.

    Args:
        logx (:ref:`ndarray` or None): ``log(x)`` when the caller already has it
            (saves computing it again); ``None`` to compute it here.
    """

    def __init__(self, logx):
        self._logx = logx

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        xp = backend.get_array_module(x)
        zero = x == 0
        logx = self._logx
        # log(x) is taken (or overwritten) as 0 where x is 0, so that 0 * log(0) is not NaN.
        logx = xp.log(xp.where(zero, 1, x)) if logx is None else xp.where(zero, 0, logx)
        return utils.force_array(x * logx, x.dtype),

    def backward(self, indexes, grad_outputs):
        from chainer import functions as F
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        # NOTE: d(x log x)/dx = log x + 1 diverges at 0; like the value, the
        # gradient is taken as 0 there (the points are where probabilities vanish).
        zero = x.array == 0
        xp = backend.get_array_module(zero)
        safe_x = F.where(zero, xp.ones_like(x.array), x)
        dx = F.where(zero, xp.zeros_like(x.array), F.log(safe_x) + 1)
        return gy * dx,


def _modified_xlogx(x):
    """Computes ``x * log(x)`` with ``0 * log(0) = 0`` (see :class:`ModifiedXLogX`)."""
    return ModifiedXLogX(None).apply((x,))[0]
