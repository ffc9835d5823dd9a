"""Randomized leaky rectified linear unit."""
import chainer
from chainer import backend
from chainer import function_node
from chainer.functions.activation import _grad_util
from chainer.utils import type_check


class RReLU(function_node.FunctionNode):
    """Leaky rectifier whose negative slopes are drawn from ``U(lower, upper)``.

    In training mode each element gets its own random slope (or the slopes in
    ``r`` when given); in test mode every slope is ``(lower + upper) / 2``,
    whether ``r`` is given or not (as in Chainer).
    """

    def __init__(self, lower=1. / 8, upper=1. / 3, r=None):
        if not 0.0 <= lower < 1.0:
            raise ValueError(f'lower must be in the range [0, 1), got {lower}')
        if not 0.0 <= upper < 1.0:
            raise ValueError(f'upper must be in the range [0, 1), got {upper}')
        if not lower < upper:
            raise ValueError(f'lower must be less than upper, got lower={lower}, '
                             f'upper={upper}')
        self.lower = lower
        self.upper = upper
        self.r = r

    def check_type_forward(self, in_types):
        # (unnamed: Chainer's messages say in_types[i] for this function)
        type_check.expect(in_types.size() == 1)
        x_type, = in_types
        type_check.expect(x_type.dtype.kind == 'f')
        if self.r is not None:
            r = type_check.make_variable(self.r, 'r')
            type_check.expect(x_type.dtype == r.dtype, x_type.shape == r.shape)

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        if not chainer.config.train:
            self.r = xp.full(x.shape, (self.lower + self.upper) / 2, x.dtype)
        elif self.r is None:
            self.r = xp.random.uniform(self.lower, self.upper, x.shape).astype(x.dtype)
        elif not isinstance(self.r, type(x)):
            raise TypeError(f'r must live on the same device as x: got {type(self.r).__name__} '
                            f'for an input of type {type(x).__name__}')
        self._coef = xp.where(x >= 0, x.dtype.type(1), self.r)
        return x * self._coef,

    def backward(self, indexes, grad_outputs):
        return _grad_util.ScaleGrad(self._coef).apply(grad_outputs)


def rrelu(x, l=1. / 8, u=1. / 3, *, r=None, return_r=False):  # NOQA: E741 (Chainer's name)
    """RReLU: a leaky rectifier whose negative slopes are drawn at random in training.

    .. math:: f(x) = \\max(x, r x), \\quad r \\sim U(l, u)

    In training mode (``chainer.config.train``) a slope ``r`` is drawn for
    every element; in test mode the mean slope ``(l + u) / 2`` is used. See
    Xu et al., *Empirical Evaluation of Rectified Activations in Convolutional
    Network* (https://arxiv.org/abs/1505.00853).

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float).
        l (float): Lower bound of the slope distribution, in ``[0, 1)``.
        u (float): Upper bound of the slope distribution, in ``(l, 1)``.
        r (N-dimensional array or None): Slopes to use in training mode
            instead of random ones (same shape, dtype and device as ``x``).
            Pass the ``r`` returned by an earlier call to reuse it. Test mode
            ignores it and uses the mean slope.
        return_r (bool): If ``True``, also return the slopes used.

    Returns:
        ~chainer.Variable or tuple: The output, or ``(output, r)`` when
        ``return_r`` is ``True``.

    .. admonition:: Example

        >>> x = np.array([[-1., 2.]], np.float32)
        >>> with chainer.using_config('train', False):
        ...     F.rrelu(x, l=0.1, u=0.3).array
        array([[-0.2,  2. ]], dtype=float32)
    """
    func = RReLU(l, u, r)
    y, = func.apply((x,))
    if return_r:
        return y, func.r
    return y
