"""Dropout (Srivastava et al., 2014)."""
import numpy

from chainer import backend
from chainer import configuration
from chainer import function_node
from chainer import variable
from chainer.utils import argument
from chainer.utils import type_check


def _check_mask_shape(mask, x_shape, func):
    try:
        ok = numpy.broadcast_shapes(mask.shape, x_shape) == tuple(x_shape)
    except ValueError:
        ok = False
    if not ok:
        raise ValueError(f'{func}: mask must have (or broadcast to) the shape of x '
                         f'{tuple(x_shape)}, got {mask.shape}')


class Dropout(function_node.FunctionNode):
    """Zeroes each element with probability ``dropout_ratio`` and scales the rest up.

    ``mask`` (the factor each element is multiplied by: 0 or
    ``1 / (1 - dropout_ratio)``) is drawn in forward unless given.
    """

    def __init__(self, dropout_ratio, mask=None, return_mask=False):
        if not 0.0 <= dropout_ratio < 1.0:
            raise ValueError(f'dropout: dropout_ratio must be in the range [0, 1), '
                             f'got {dropout_ratio}')
        self.dropout_ratio = dropout_ratio
        self.mask = mask
        self.return_mask = return_mask

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        x, = inputs
        if self.mask is None:
            xp = backend.get_array_module(x)
            scale = x.dtype.type(1. / (1 - self.dropout_ratio))
            keep = xp.random.random_sample(x.shape) >= self.dropout_ratio
            self.mask = keep * scale
        else:
            _check_mask_shape(self.mask, x.shape, 'dropout')
        return (x * self.mask).astype(x.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        return DropoutGrad(self.mask).apply(grad_outputs)


class DropoutGrad(function_node.FunctionNode):
    """Multiplies by a fixed mask: the gradient of dropout, and its own gradient."""

    def __init__(self, mask):
        self.mask = mask

    def forward(self, inputs):
        gy, = inputs
        return (gy * self.mask).astype(gy.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        return DropoutGrad(self.mask).apply(grad_outputs)


def dropout(x, ratio=.5, **kwargs):
    """Drops elements of ``x`` at random, in training only.

    With ``config.train`` true, each element is zeroed with probability
    ``ratio`` and the others are multiplied by ``1 / (1 - ratio)``, so the
    expected value is unchanged. Otherwise ``x`` is returned unchanged.

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float).
        ratio (float): Probability of dropping an element, in ``[0, 1)``.
        mask (N-dimensional array): Factors to multiply ``x`` by instead of
            random ones (shape of ``x``); used in training only.
        return_mask (bool): Also return the mask used (None outside training).

    Returns:
        ~chainer.Variable or tuple: The output, and the mask when
        ``return_mask`` is true.

    .. admonition:: Example

        >>> x = np.ones((2, 3), np.float32)
        >>> with chainer.using_config('train', False):
        ...     F.dropout(x).array
        array([[1., 1., 1.],
               [1., 1., 1.]], dtype=float32)
        >>> mask = np.array([[0., 2., 2.], [2., 0., 0.]], np.float32)
        >>> F.dropout(x, mask=mask).array
        array([[0., 2., 2.],
               [2., 0., 0.]], dtype=float32)
    """
    mask, return_mask = argument.parse_kwargs(
        kwargs, ('mask', None), ('return_mask', False),
        train='train argument is not supported anymore. Use chainer.using_config')
    if configuration.config.train:
        node = Dropout(ratio, mask, return_mask)
        y = node.apply((x,))[0]
        mask = node.mask
    else:
        y = variable.as_variable(x)
        mask = None
    return (y, mask) if return_mask else y
