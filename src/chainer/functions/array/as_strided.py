"""View the storage of a variable with arbitrary shape, strides and offset."""
import importlib

from chainer import backend
from chainer import function_node
from chainer.utils import type_check


def _as_ints(values, name):
    try:
        return tuple(int(v) for v in values)
    except TypeError:
        raise TypeError(f'{name} must be a sequence of int, got {values!r}') from None


def _strided_view(flat, shape, strides, offset):
    # strides and offset count elements; NumPy and CuPy count bytes.
    xp = backend.get_array_module(flat)
    as_strided = importlib.import_module(f'{xp.__name__}.lib.stride_tricks').as_strided
    item = flat.itemsize
    return as_strided(flat[offset:], shape, tuple(s * item for s in strides))


class AsStrided(function_node.FunctionNode):
    """Views the C-ordered storage of the input through shape/strides/offset."""

    def __init__(self, shape, strides, storage_offset=None):
        self.shape = _as_ints(shape, 'shape')
        self.strides = _as_ints(strides, 'strides')
        if len(self.shape) != len(self.strides):
            raise ValueError('as_strided requires len(shape) == len(strides), got '
                             f'{len(self.shape)} and {len(self.strides)}')
        if any(n < 0 for n in self.shape):
            raise ValueError(f'as_strided requires a non-negative shape, got {self.shape}')
        self.storage_offset = 0 if storage_offset is None else int(storage_offset)

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))

    def _check_bounds(self, size):
        # Refuse views that would read outside the storage (as_strided itself
        # would happily read arbitrary memory).
        if 0 in self.shape:
            lo = hi = self.storage_offset
            ok = 0 <= lo <= size
        else:
            lo = hi = self.storage_offset
            for n, s in zip(self.shape, self.strides):
                step = (n - 1) * s
                lo += min(step, 0)
                hi += max(step, 0)
            ok = 0 <= lo and hi < size
        if not ok:
            raise ValueError(
                f'as_strided view (shape={self.shape}, strides={self.strides}, '
                f'storage_offset={self.storage_offset}) reaches elements {lo}..{hi} '
                f'outside the storage of {size} elements')

    def forward(self, inputs):
        x, = inputs
        self._in_shape = x.shape
        self._check_bounds(x.size)
        # The input's own view (strides, offset) is ignored: only its
        # elements in C order, as a flat storage, matter. (A 1-D strided view
        # would reshape to itself, hence the explicit contiguous copy.)
        xp = backend.get_array_module(x)
        flat = xp.ascontiguousarray(x).reshape(-1)
        return _strided_view(flat, self.shape, self.strides, self.storage_offset),

    def backward(self, indexes, grad_outputs):
        return AsStridedGrad(self._in_shape, self.shape, self.strides,
                             self.storage_offset).apply(grad_outputs)


class AsStridedGrad(function_node.FunctionNode):
    """Adds each output gradient into the storage element it was read from."""

    def __init__(self, in_shape, shape, strides, storage_offset):
        self.in_shape = in_shape
        self.shape = shape
        self.strides = strides
        self.storage_offset = storage_offset

    def forward(self, inputs):
        gy, = inputs
        xp = backend.get_array_module(gy)
        size = 1
        for n in self.in_shape:
            size *= n
        index = _strided_view(xp.arange(size), self.shape, self.strides, self.storage_offset)
        # bincount sums repeated (overlapping) positions in float64, which also
        # keeps float16 gradients accurate.
        gx = xp.bincount(index.ravel(), weights=gy.ravel(), minlength=size)
        return gx.astype(gy.dtype, copy=False).reshape(self.in_shape),

    def backward(self, indexes, grad_outputs):
        return AsStrided(self.shape, self.strides, self.storage_offset).apply(grad_outputs)


def as_strided(x, shape, strides, storage_offset=None):
    """Creates a view of a variable's storage with the given shape, strides and offset.

    The storage is the elements of ``x`` in C order; how ``x`` itself is laid
    out (its own strides) is ignored. Unlike
    :func:`numpy.lib.stride_tricks.as_strided`, ``strides`` and
    ``storage_offset`` count elements, not bytes. Where the view reads an
    element more than once, the gradients of those reads add up. A view that
    would reach outside the storage raises :class:`ValueError`.

    .. warning::

        The output may share memory with ``x``; writing to either changes
        both.

    Args:
        x (~chainer.Variable or N-dimensional array): Input whose elements
            form the storage.
        shape (tuple of int): Shape of the output.
        strides (tuple of int): Steps (in elements) between neighbours along
            each output axis.
        storage_offset (int): Index (in elements) of the storage element that
            becomes the first output element; ``None`` means 0.

    Returns:
        ~chainer.Variable: The strided view.

    .. admonition:: Example

        >>> x = np.arange(4, dtype=np.float32)
        >>> F.as_strided(x, (3, 2), (1, 1), 0).array
        array([[0., 1.],
               [1., 2.],
               [2., 3.]], dtype=float32)
    """
    return AsStrided(shape, strides, storage_offset).apply((x,))[0]
