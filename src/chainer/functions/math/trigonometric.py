"""Trigonometric functions and their inverses."""
import chainer
from chainer import backend
from chainer import function_node
from chainer.functions.math import _elementwise
from chainer.utils import type_check


class Sin(function_node.FunctionNode):

    @property
    def label(self):
        return 'sin'

    def check_type_forward(self, in_types):
        _elementwise.check_float(in_types)

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        return backend.get_array_module(x).sin(x),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] * cos(x),


def sin(x):
    """Elementwise sine function.

    .. math:: y_i = \\sin x_i

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float).

    Returns:
        ~chainer.Variable: Output of the same shape and dtype.
    """
    return Sin().apply((x,))[0]


class Cos(function_node.FunctionNode):

    @property
    def label(self):
        return 'cos'

    def check_type_forward(self, in_types):
        _elementwise.check_float(in_types)

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        return backend.get_array_module(x).cos(x),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] * -sin(x),


def cos(x):
    """Elementwise cosine function.

    .. math:: y_i = \\cos x_i

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float).

    Returns:
        ~chainer.Variable: Output of the same shape and dtype.
    """
    return Cos().apply((x,))[0]


class Tan(function_node.FunctionNode):

    @property
    def label(self):
        return 'tan'

    def check_type_forward(self, in_types):
        _elementwise.check_float(in_types)

    def forward(self, inputs):
        x, = inputs
        self.retain_outputs((0,))
        return backend.get_array_module(x).tan(x),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        # tan' = 1 + tan^2, read off the output instead of recomputing cos(x).
        return grad_outputs[0] * (chainer.functions.square(y) + 1),


def tan(x):
    """Elementwise tangent function.

    .. math:: y_i = \\tan x_i

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float).

    Returns:
        ~chainer.Variable: Output of the same shape and dtype.
    """
    return Tan().apply((x,))[0]


class Arcsin(function_node.FunctionNode):

    @property
    def label(self):
        return 'arcsin'

    def check_type_forward(self, in_types):
        _elementwise.check_float(in_types)

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        return backend.get_array_module(x).arcsin(x),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] * chainer.functions.rsqrt(1 - chainer.functions.square(x)),


def arcsin(x):
    """Elementwise inverse sine function.

    .. math:: y_i = \\arcsin x_i

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float, in
            ``[-1, 1]``).

    Returns:
        ~chainer.Variable: Output of the same shape and dtype, in
        ``[-pi/2, pi/2]``.
    """
    return Arcsin().apply((x,))[0]


class Arccos(function_node.FunctionNode):

    @property
    def label(self):
        return 'arccos'

    def check_type_forward(self, in_types):
        _elementwise.check_float(in_types)

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        return backend.get_array_module(x).arccos(x),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] * -chainer.functions.rsqrt(1 - chainer.functions.square(x)),


def arccos(x):
    """Elementwise inverse cosine function.

    .. math:: y_i = \\arccos x_i

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float, in
            ``[-1, 1]``).

    Returns:
        ~chainer.Variable: Output of the same shape and dtype, in ``[0, pi]``.
    """
    return Arccos().apply((x,))[0]


class Arctan(function_node.FunctionNode):

    @property
    def label(self):
        return 'arctan'

    def check_type_forward(self, in_types):
        _elementwise.check_float(in_types)

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        return backend.get_array_module(x).arctan(x),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] / (chainer.functions.square(x) + 1),


def arctan(x):
    """Elementwise inverse tangent function.

    .. math:: y_i = \\arctan x_i

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float).

    Returns:
        ~chainer.Variable: Output of the same shape and dtype, in
        ``(-pi/2, pi/2)``.
    """
    return Arctan().apply((x,))[0]


class Arctan2(function_node.FunctionNode):

    @property
    def label(self):
        return 'arctan2'

    def check_type_forward(self, in_types):
        # Chainer 7.8.1 accepts two float dtypes here (unlike the other binary functions):
        # the result has NumPy's promoted dtype
        type_check._argname(in_types, ('x1', 'x2'))
        a_type, b_type = in_types
        type_check.expect(a_type.dtype.kind == 'f', b_type.dtype.kind == 'f')
        type_check.expect_broadcast_shapes(a_type.shape, b_type.shape)

    def forward(self, inputs):
        x1, x2 = inputs
        self.retain_inputs((0, 1))
        return backend.get_array_module(x1).arctan2(x1, x2),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        x1, x2 = (_elementwise.as_dtype(x, gy.dtype) for x in self.get_retained_inputs())
        square = chainer.functions.square
        # d atan2(x1, x2) = (x2 dx1 - x1 dx2) / (x1^2 + x2^2)
        g = gy / (square(x1) + square(x2))
        ret = []
        for i, x, gx in ((0, x1, g * x2), (1, x2, g * -x1)):
            if i in indexes:
                inp = self.inputs[i]
                ret.append(_elementwise.as_dtype(_elementwise.sum_to(gx, inp.shape), inp.dtype))
        return tuple(ret)


def arctan2(x1, x2):
    """Elementwise arc tangent of ``x1 / x2`` that uses both signs to pick the quadrant.

    .. math:: y_i = \\arctan \\frac{x_{1,i}}{x_{2,i}} \\in (-\\pi, \\pi]

    Args:
        x1 (~chainer.Variable or N-dimensional array): y-coordinates (float).
        x2 (~chainer.Variable or N-dimensional array): x-coordinates, of the
            same dtype and a shape that broadcasts with ``x1``.

    Returns:
        ~chainer.Variable: Angles in radians, of the broadcast shape.
    """
    return Arctan2().apply((x1, x2))[0]
