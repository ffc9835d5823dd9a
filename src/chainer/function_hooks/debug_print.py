"""PrintHook: prints what goes into every function, forward and backward."""
import sys
import warnings

from chainer import backend
from chainer import function_hook
from chainer import variable


def _describe_data(array):
    # An input that backward does not keep is reported as Chainer does.
    if array is None:
        return '(removed)'
    return variable.Variable(array).debug_print()


def _describe_grad(grad):
    if grad is None:
        # (as Chainer: the description of an empty variable)
        return variable.Variable().debug_print()
    # debug_print reports gradients of a variable: give it one holding ``grad``.
    xp = backend.get_array_module(grad)
    v = variable.Variable(xp.zeros_like(grad))
    v.grad = grad
    return v.debug_print()


class PrintHook(function_hook.FunctionHook):
    """Function hook that prints the inputs of every function it sees.

    Just before a function's forward runs, the hook prints its label and a
    summary of each input array (shape, dtype, mean and standard deviation,
    as :meth:`chainer.Variable.debug_print`); before its backward, it prints
    the inputs again and the gradients of the outputs. One ``with`` block
    thus traces a whole model, forward and backward, without print calls
    scattered through it.

    Args:
        sep: Ignored; deprecated since Chainer 4 (a warning is given).
        end (str): Text written after each report.
        file: Text stream to write to (``sys.stdout`` when ``None``).
        flush (bool): Flush ``file`` after each report.

    .. admonition:: Example

        >>> from chainer import function_hooks
        >>> w = chainer.Variable(np.arange(6, dtype=np.float32).reshape(2, 3))
        >>> with function_hooks.PrintHook():
        ...     loss = F.sum(F.relu(w - 2))
        ...     loss.backward()  # doctest: +SKIP
    """

    name = 'PrintHook'

    def __init__(self, sep=None, end='\n', file=None, flush=True):
        if sep is not None:
            warnings.warn('the sep argument of PrintHook is deprecated and ignored',
                          DeprecationWarning, stacklevel=2)
        self.sep = sep
        self.end = end
        self.file = file
        self.flush = flush

    def _print(self, function, in_data, out_grad=None):
        parts = [f'function\t{function.label}', 'input data']
        parts.extend(_describe_data(d) for d in in_data)
        if out_grad is not None:
            parts.append('output gradient')
            parts.extend(_describe_grad(g) for g in out_grad)
        file = sys.stdout if self.file is None else self.file
        print('\n'.join(parts), end=self.end, file=file)
        if self.flush:
            file.flush()

    def forward_preprocess(self, function, in_data):
        self._print(function, in_data)

    def backward_preprocess(self, function, in_data, out_grad):
        self._print(function, in_data, out_grad)
