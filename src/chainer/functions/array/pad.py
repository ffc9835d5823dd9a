"""Pad a variable at the edges of each axis."""
import numpy

from chainer import backend
from chainer import function_node
from chainer.utils import type_check

# Modes in which every padded element is a copy of some input element, so the
# gradient is a scatter-add of the output gradient through that index map.
_GATHER_MODES = ('edge', 'reflect', 'symmetric', 'wrap')


class Pad(function_node.FunctionNode):
    """Pads the input with :func:`numpy.pad` (or :func:`cupy.pad`) semantics."""

    def __init__(self, pad_width, mode, **keywords):
        self.pad_width = pad_width
        self.mode = mode
        self.keywords = keywords

    @property
    def pad_bw(self):
        """The widths as Chainer keeps them: an array, a single width given twice."""
        widths = numpy.asarray(self.pad_width)
        return numpy.repeat(widths, 2) if widths.size == 1 else widths

    def check_type_forward(self, in_types):
        # numpy.pad / cupy.pad validate pad_width and the keywords themselves.
        type_check._argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        self._in_shape = x.shape
        return xp.pad(x, self.pad_width, mode=self.mode, **self.keywords),

    def _widths(self):
        # (before, after) widths per axis, as numpy.pad broadcasts them.
        widths = numpy.broadcast_to(numpy.asarray(self.pad_width, dtype=numpy.int64),
                                    (len(self._in_shape), 2))
        return widths

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        widths = self._widths()
        if self.mode in ('constant', 'empty'):
            # Padded elements do not depend on x: the gradient is the centre.
            from chainer.functions.array import get_item as _get_item

            index = tuple(slice(int(b), int(b) + n)
                          for (b, _), n in zip(widths, self._in_shape))
            return _get_item.get_item(gy, index),
        if self.mode in _GATHER_MODES and self.keywords.get('reflect_type', 'even') == 'even':
            return PadGrad(self).apply(grad_outputs)
        raise NotImplementedError(
            f'pad: the gradient of mode {self.mode!r} (keywords {self.keywords}) is not '
            f'supported; use one of constant, empty, {", ".join(_GATHER_MODES)}')


class PadGrad(function_node.FunctionNode):
    """Scatter-adds the output gradient of a copying pad mode back onto the input."""

    def __init__(self, pad):
        self.pad = pad

    def forward(self, inputs):
        gy, = inputs
        xp = backend.get_array_module(gy)
        p = self.pad
        shape = p._in_shape
        size = 1
        for n in shape:
            size *= n
        # Pad the index of each input element the same way: the result says
        # which input element each output element copies.
        index = xp.pad(xp.arange(size).reshape(shape), p.pad_width, mode=p.mode,
                       **p.keywords)
        gx = xp.bincount(index.ravel(), weights=gy.ravel(), minlength=size)
        return gx.astype(gy.dtype, copy=False).reshape(shape),

    def backward(self, indexes, grad_outputs):
        p = self.pad
        return Pad(p.pad_width, p.mode, **p.keywords).apply(grad_outputs)


def pad(x, pad_width, mode, **keywords):
    """Pads a variable at the edges of each axis.

    Args:
        x (~chainer.Variable or N-dimensional array): Float input.
        pad_width (int or array-like): Widths to add before and after each
            axis, in :func:`numpy.pad`'s format: ``((before_1, after_1), ...)``,
            one ``(before, after)`` pair for all axes, or one int for all.
        mode (str): How to fill the new elements, passed to
            :func:`numpy.pad` or :func:`cupy.pad`. With ``'constant'``, they
            are ``constant_values``. Gradients are supported for
            ``'constant'``, ``'empty'``, ``'edge'``, ``'reflect'``,
            ``'symmetric'`` and ``'wrap'``.
        constant_values (int or array-like): Values for the ``'constant'``
            mode (0 by default).

    Returns:
        ~chainer.Variable: The padded variable.

    .. admonition:: Example

        >>> x = np.array([1, 2], np.float32)
        >>> F.pad(x, 1, 'constant').array
        array([0., 1., 2., 0.], dtype=float32)
        >>> F.pad(x, (0, 2), 'constant', constant_values=9).array
        array([1., 2., 9., 9.], dtype=float32)
    """
    return Pad(pad_width, mode, **keywords).apply((x,))[0]
