"""Zoneout (Krueger et al., 2017)."""
from chainer import backend
from chainer import configuration
from chainer import function_node
from chainer.functions.noise import dropout as _dropout
from chainer.functions.normalization import batch_normalization as _bn
from chainer.utils import argument
from chainer.utils import type_check


class Zoneout(function_node.FunctionNode):
    """Keeps each element of the previous state ``h`` with probability ``zoneout_ratio``,
    taking the new state ``x`` elsewhere."""

    def __init__(self, zoneout_ratio):
        self.zoneout_ratio = zoneout_ratio

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('h', 'x'))
        h_type, x_type = in_types
        type_check.expect(h_type.dtype.kind == 'f', x_type.dtype.kind == 'f',
                          h_type.shape == x_type.shape)

    def forward(self, inputs):
        h, x = inputs
        xp = backend.get_array_module(h)
        self.flag_h = xp.random.random_sample(h.shape) < self.zoneout_ratio
        self.flag_x = ~self.flag_h
        return xp.where(self.flag_h, h, x),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        ret = []
        for i, flag in ((0, self.flag_h), (1, self.flag_x)):
            if i in indexes:
                g = _dropout.DropoutGrad(flag).apply((gy,))[0]
                # h and x may differ in dtype (the output has the wider one).
                ret.append(_bn.as_dtype(g, self.inputs[i].dtype))
        return ret


def zoneout(h, x, ratio=.5, **kwargs):
    """Zoneout: keeps some units of a recurrent state unchanged, in training only.

    With ``config.train`` true, each element of the output is ``h`` (the
    previous state) with probability ``ratio`` and ``x`` (the new state)
    otherwise; outside training the output is ``x``.

    Args:
        h (~chainer.Variable or N-dimensional array): Previous state (float).
        x (~chainer.Variable or N-dimensional array): New state, of the shape
            of ``h``.
        ratio (float): Probability of keeping the previous state.

    Returns:
        ~chainer.Variable: Output of the shape of ``x`` (``x`` itself outside
        training).

    .. admonition:: Example

        >>> h, x = np.zeros(3, np.float32), np.ones(3, np.float32)
        >>> F.zoneout(h, x, ratio=0.).array
        array([1., 1., 1.], dtype=float32)
    """
    argument.parse_kwargs(
        kwargs, train='train argument is not supported anymore. Use chainer.using_config')
    if configuration.config.train:
        return Zoneout(ratio).apply((h, x))[0]
    return x
