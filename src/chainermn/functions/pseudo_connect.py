"""pseudo_connect: makes variables depend on a delegate variable, so that backward reaches it."""
import chainer
from chainer import backend
from chainer import function_node
from chainermn.functions import _delegate


class PseudoConnect(function_node.FunctionNode):
    """Passes ``inputs[1:]`` through unchanged; the delegate ``inputs[0]`` gets zeros.

    The outputs depend on the delegate in the graph only, so that backpropagating from them
    also runs the backward of whatever created the delegate (a send, a gather).
    """

    def forward(self, inputs):
        delegate = inputs[0]
        self._delegate_spec = delegate.shape, delegate.dtype, backend.get_array_module(delegate)
        return tuple(inputs[1:])

    def backward(self, target_input_indexes, grad_outputs):
        shape, dtype, xp = self._delegate_spec
        return tuple([_delegate.zeros_like(shape, dtype, xp) if i == 0 else grad_outputs[i - 1]
                      for i in target_input_indexes])


def pseudo_connect(delegate_variable, *actual_variables):
    """Connects variables to a delegate variable in the computational graph.

    The values of ``actual_variables`` are returned unchanged, as new variables whose backward
    also reaches ``delegate_variable``. Use it when a process both sends (and so holds a
    delegate variable from :func:`~chainermn.functions.send`) and computes a loss: the loss's
    backward must also run the send's backward, which receives the gradient coming back.

    Args:
        delegate_variable (~chainer.Variable): The delegate variable (``None``: a fresh empty
            one, which connects nothing).
        actual_variables (~chainer.Variable or N-dimensional array): The variables to pass on.

    Returns:
        tuple of ~chainer.Variable: The actual variables, connected to the delegate.
    """
    chainer.utils.experimental('chainermn.functions.pseudo_connect')
    if delegate_variable is None:
        xp = backend.get_array_module(*actual_variables) if actual_variables else None
        delegate_variable = _delegate.new() if xp is None else _delegate.new(xp)
    if not actual_variables:
        return ()
    return PseudoConnect().apply((delegate_variable,) + tuple(actual_variables))
