"""Exponential and logarithms."""
import numpy

from chainer import backend
from chainer import function_node
from chainer.functions.math import _elementwise


class Exp(function_node.FunctionNode):

    @property
    def label(self):
        return 'exp'

    def check_type_forward(self, in_types):
        _elementwise.check_float(in_types, named=False)

    def forward(self, x):
        self.retain_outputs((0,))
        xp = backend.get_array_module(*x)
        return xp.exp(x[0]),

    def backward(self, indexes, gy):
        y = self.get_retained_outputs()[0]
        return y * gy[0],


def exp(x):
    """Natural exponential ``e ** x`` of each element.

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float).

    Returns:
        ~chainer.Variable: ``e ** x``.
    """
    return Exp().apply((x,))[0]


class Log(function_node.FunctionNode):

    @property
    def label(self):
        return 'log'

    def check_type_forward(self, in_types):
        _elementwise.check_float(in_types)

    def forward(self, x):
        self.retain_inputs((0,))
        xp = backend.get_array_module(*x)
        return xp.log(x[0]),

    def backward(self, indexes, gy):
        x = self.get_retained_inputs()[0]
        return gy[0] / x,


def log(x):
    """Elementwise natural logarithm.

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float).

    Returns:
        ~chainer.Variable: ``log(x)``.
    """
    return Log().apply((x,))[0]


class Log2(function_node.FunctionNode):

    @property
    def label(self):
        return 'log2'

    def check_type_forward(self, in_types):
        _elementwise.check_float(in_types)

    def forward(self, x):
        self.retain_inputs((0,))
        xp = backend.get_array_module(*x)
        return xp.log2(x[0]),

    def backward(self, indexes, gy):
        x = self.get_retained_inputs()[0]
        return gy[0] / x * x.dtype.type(1 / numpy.log(2)),


def log2(x):
    """Elementwise base-2 logarithm.

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float).

    Returns:
        ~chainer.Variable: ``log2(x)``.
    """
    return Log2().apply((x,))[0]


class Log10(function_node.FunctionNode):

    @property
    def label(self):
        return 'log10'

    def check_type_forward(self, in_types):
        _elementwise.check_float(in_types)

    def forward(self, x):
        self.retain_inputs((0,))
        xp = backend.get_array_module(*x)
        return xp.log10(x[0]),

    def backward(self, indexes, gy):
        x = self.get_retained_inputs()[0]
        return gy[0] / x * x.dtype.type(1 / numpy.log(10)),


def log10(x):
    """Elementwise base-10 logarithm.

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float).

    Returns:
        ~chainer.Variable: ``log10(x)``.
    """
    return Log10().apply((x,))[0]
