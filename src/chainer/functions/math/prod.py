"""Product of array elements over axes."""
import chainer
from chainer import backend
from chainer.functions.math import sum as _sum


class Prod(_sum._Reduction):
    """Product of array elements over the given axes."""

    _func = 'prod'

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        xp = backend.get_array_module(x)
        return xp.asarray(x.prod(axis=self.axis, keepdims=self.keepdims)),

    def backward(self, indexes, grad_outputs):
        F = chainer.functions
        x, = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        shape = x.shape
        kshape = _sum._keepdims_shape(shape, self.axis)
        gy = F.broadcast_to(_sum._expand_reduced(grad_outputs[0], shape, self.axis,
                                                 self.keepdims), shape)
        yb = F.broadcast_to(F.reshape(y, kshape), shape)
        xa = x.array
        zero = xa == 0
        if not zero.any():
            # d(prod x)/dx_i is the product of the other elements: y / x_i.
            return gy * yb / x,
        # NOTE: with zeros y / x_i is unusable. In a group without zeros it is
        # still right. In a group with one zero only that element has a nonzero
        # gradient: the product of the others, i.e. the product of the group
        # with the zero replaced by a constant one. With two or more zeros
        # every gradient is zero. Masks are constants, so the result stays
        # differentiable (second derivatives are exact except in groups that
        # hold two or more zeros).
        dtype = xa.dtype
        nonzero = (~zero).astype(dtype)
        n_zero = zero.sum(axis=self.axis, keepdims=True)
        single = (zero & (n_zero == 1)).astype(dtype)
        others = prod(x * (1 - single) + single, self.axis, keepdims=True)
        others = F.broadcast_to(F.reshape(others, kshape), shape)
        safe_x = x + zero.astype(dtype)
        return gy * (yb / safe_x * nonzero + others * single),


def prod(x, axis=None, keepdims=False):
    """Product of array elements over the given axes.

    Args:
        x (~chainer.Variable or N-dimensional array): Elements to multiply
            (float).
        axis (None, int or tuple of int): Axes to reduce; ``None`` reduces all.
        keepdims (bool): Keep the reduced axes with length one.

    Returns:
        ~chainer.Variable: The product.

    .. admonition:: Example

        >>> x = np.array([[1, 2], [3, 4]], np.float32)
        >>> F.prod(x, axis=0).array
        array([3., 8.], dtype=float32)
    """
    return Prod(axis, keepdims).apply((x,))[0]
