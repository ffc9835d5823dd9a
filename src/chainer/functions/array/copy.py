"""Copy a variable to another device, differentiably."""
from chainer import backend
from chainer.backends import cuda
from chainer import function_node
from chainer.functions import _checks
from chainer.utils import type_check


class Copy(function_node.FunctionNode):
    """Copies the input to ``out_device``; the gradient travels back to ``in_device``."""

    def __init__(self, in_device, out_device):
        self._in_device = in_device
        self._out_device = out_device

    # Chainer's attribute name for the destination.
    out_device = property(lambda self: self._out_device)

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))

    def forward(self, inputs):
        x, = inputs
        y = self._out_device.send(x)
        # The result must never alias the input, even on the same device.
        return (x.copy() if y is x else y),

    def backward(self, indexes, grad_outputs):
        return Copy(self._out_device, self._in_device).apply(grad_outputs)


def copy(x, dst):
    """Copies a variable to the specified device.

    The copy is part of the graph: the gradient is sent back to the device of
    ``x``. On the same device, the result is a fresh copy.

    Args:
        x (~chainer.Variable or N-dimensional array): Input.
        dst: Destination device specifier: a :class:`~chainer.backend.Device`,
            a string such as ``'@numpy'`` or ``'@cupy:0'``, an int (a
            negative one for the CPU, ``n >= 0`` for GPU ``n``), or the legacy
            :data:`chainer.backends.cuda.DummyDevice` (the CPU).

    Returns:
        ~chainer.Variable: The copy on the destination device.

    .. admonition:: Example

        >>> x = np.arange(3, dtype=np.float32)
        >>> y = F.copy(x, -1)
        >>> y.array
        array([0., 1., 2.], dtype=float32)
        >>> y.array is x
        False
    """
    _checks.refuse_none('copy', 'x', x)
    array = x.array if hasattr(x, 'array') else x
    in_device = backend.get_device_from_array(array)
    if isinstance(dst, cuda.DummyDeviceType):
        # The legacy CUDA API's "no GPU"; only copy accepts it as a device, as in Chainer.
        out_device = backend.CpuDevice()
    else:
        out_device = backend.get_device(dst)
    return Copy(in_device, out_device).apply((x,))[0]
