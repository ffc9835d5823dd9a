"""View the storage of a variable with arbitrary shape, strides and offset.

The storage of an array is the memory of the array it is a view of (its
outermost ``base``), counted in elements of the array's dtype; offsets and
strides below count elements of that storage, not bytes.
"""
from chainer import backend
from chainer import function_node
from chainer.utils import type_check


def _as_ints(values, name):
    try:
        return tuple(int(v) for v in values)
    except TypeError:
        raise TypeError(f'as_strided: {name} must be a sequence of int, got {values!r}') from None


def _data_ptr(a):
    if isinstance(a, backend.numpy.ndarray):
        return a.__array_interface__['data'][0]
    return a.data.ptr  # CuPy: a MemoryPointer


def _get_base_array(array):
    """The array that owns the memory ``array`` views (``array`` itself if it owns it)."""
    array_type = backend.get_array_module(array).ndarray
    base = array
    while True:
        parent = base.base
        # NumPy's stride tricks put a plain holder object with its own ``base``
        # between a view and the array it views.
        while parent is not None and not isinstance(parent, array_type):
            parent = getattr(parent, 'base', None)
        if parent is None:
            return base
        base = parent


def _span(shape, strides):
    """Lowest and highest element index a view reaches, relative to its first element."""
    lo = hi = 0
    for n, s in zip(shape, strides):
        step = (n - 1) * s
        lo += min(step, 0)
        hi += max(step, 0)
    return lo, hi


class TensorGeometry:
    """Shape, strides and storage offset of an array, in elements of its storage.

    Args:
        array (N-dimensional array): The array to describe.
    """

    def __init__(self, array):
        item = array.itemsize
        offset = _data_ptr(array) - _data_ptr(_get_base_array(array))
        if offset % item or any(s % item for s in array.strides):
            raise ValueError('as_strided requires a view aligned to its itemsize '
                             f'({item}), got strides {array.strides} and byte offset {offset}')
        self.shape = tuple(array.shape)
        self.strides = tuple(s // item for s in array.strides)
        self.storage_offset = offset // item
        self.itemsize = item

    @property
    def ndim(self):
        return len(self.shape)


def _storage(array):
    """The storage of ``array`` as a flat array of its dtype, in memory order."""
    base = _get_base_array(array)
    if base.flags.c_contiguous:
        flat = base.reshape(-1)
    elif base.flags.f_contiguous:
        flat = base.reshape(-1, order='F')
    else:
        raise ValueError('as_strided requires the memory owner of its input to be '
                         f'contiguous, got one with strides {base.strides}')
    return flat if flat.dtype == array.dtype else flat.view(array.dtype)


def _check_bounds(shape, strides, storage_offset, size):
    lo, hi = _span(shape, strides)
    lo += storage_offset
    hi += storage_offset
    if 0 in shape:
        lo = hi = storage_offset
    if lo < 0 or hi >= size:
        raise ValueError(
            'Out of buffer: too large index was specified '
            f'(as_strided: the view of x (shape={tuple(shape)}, strides={tuple(strides)}, '
            f'storage_offset={storage_offset}) reaches storage elements {lo}..{hi}, '
            f'but the storage has {size} elements (0..{size - 1}))')


def _stride_array(array, shape, strides, storage_offset):
    """Returns a view of the storage of ``array`` with the given geometry.

    Args:
        array (N-dimensional array): Array whose storage is viewed.
        shape (tuple of int): Shape of the view.
        strides (tuple of int): Steps between neighbours, in storage elements.
        storage_offset (int): Storage index of the view's first element.

    Raises:
        ValueError: When the view would reach outside the storage.
    """
    xp = backend.get_array_module(array)
    flat = _storage(array)
    _check_bounds(shape, strides, storage_offset, flat.size)
    if 0 in shape:
        return xp.empty(shape, array.dtype)
    item = array.itemsize
    return xp.lib.stride_tricks.as_strided(
        flat[storage_offset:], shape, tuple(s * item for s in strides))


def _storage_index(xp, geometry):
    index = xp.arange(geometry.storage_offset,
                      geometry.storage_offset + 1, dtype=xp.int64).reshape(())
    for axis, (n, s) in enumerate(zip(geometry.shape, geometry.strides)):
        steps = xp.arange(n, dtype=xp.int64) * s
        index = index[..., None] + steps
    return index


class AsStrided(function_node.FunctionNode):
    """Views the storage of the input through shape/strides/offset."""

    input_geometry = None

    def __init__(self, shape, strides, storage_offset=None):
        self.shape = _as_ints(shape, 'shape')
        self.strides = _as_ints(strides, 'strides')
        if len(self.shape) != len(self.strides):
            raise ValueError('as_strided requires strides of the same length as shape, got '
                             f'shape={self.shape} and strides={self.strides}')
        if any(n < 0 for n in self.shape):
            raise ValueError(f'as_strided requires a non-negative shape, got {self.shape}')
        self.storage_offset = None if storage_offset is None else int(storage_offset)

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))

    def forward(self, inputs):
        x, = inputs
        self.input_geometry = TensorGeometry(x)
        if self.storage_offset is None:
            self.storage_offset = self.input_geometry.storage_offset
        return _stride_array(x, self.shape, self.strides, self.storage_offset),

    def backward(self, indexes, grad_outputs):
        return AsStridedGrad(self.input_geometry, self.shape, self.strides,
                             self.storage_offset).apply(grad_outputs)


class AsStridedGrad(function_node.FunctionNode):
    """Gradient of :class:`AsStrided` with respect to its input.

    Each output gradient is added into the storage element it was read from;
    a storage element that several input elements share (an overlapping
    input view) hands its gradient out in equal parts to each of them.
    """

    def __init__(self, input_geometry, shape, strides, storage_offset):
        self.input_geometry = input_geometry
        self.shape = shape
        self.strides = strides
        self.storage_offset = storage_offset

    def forward(self, inputs):
        gy, = inputs
        if gy.dtype.kind != 'f':
            raise TypeError('as_strided: only float gradients can be backpropagated, '
                            f'got {gy.dtype}')
        xp = backend.get_array_module(gy)
        geo = self.input_geometry
        out_index = _storage_index(xp, _Geometry(self.shape, self.strides,
                                                 self.storage_offset))
        in_index = _storage_index(xp, geo).ravel()
        size = int(max(out_index.max(initial=-1), in_index.max(initial=-1))) + 1
        # bincount sums repeated positions in float64, which also keeps
        # float16 gradients accurate.
        g_storage = xp.bincount(out_index.ravel(), weights=gy.ravel(), minlength=size)
        shares = xp.bincount(in_index, minlength=size)
        gx = g_storage[in_index] / shares[in_index]
        return gx.astype(gy.dtype, copy=False).reshape(geo.shape),

    def backward(self, indexes, grad_outputs):
        # The forward is linear; its adjoint gathers storage elements again,
        # each input position receiving its share.
        return _AsStridedGradGrad(self).apply(grad_outputs)


class _Geometry:
    def __init__(self, shape, strides, storage_offset):
        self.shape = shape
        self.strides = strides
        self.storage_offset = storage_offset


class _AsStridedGradGrad(function_node.FunctionNode):
    # Adjoint of AsStridedGrad: spread each input-position value over its
    # storage element (divided by the element's share count), then read the
    # output view.
    def __init__(self, grad):
        self.grad = grad

    def forward(self, inputs):
        ggx, = inputs
        xp = backend.get_array_module(ggx)
        g = self.grad
        out_index = _storage_index(xp, _Geometry(g.shape, g.strides, g.storage_offset))
        in_index = _storage_index(xp, g.input_geometry).ravel()
        size = int(max(out_index.max(initial=-1), in_index.max(initial=-1))) + 1
        shares = xp.bincount(in_index, minlength=size)
        storage = xp.bincount(in_index, weights=ggx.ravel() / shares[in_index], minlength=size)
        return storage[out_index].astype(ggx.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        return AsStridedGrad(self.grad.input_geometry, self.grad.shape, self.grad.strides,
                             self.grad.storage_offset).apply(grad_outputs)


def as_strided(x, shape, strides, storage_offset=None):
    """Creates a view of a variable's storage with the given shape, strides and offset.

    The storage is the memory of the array that ``x`` is a view of (``x``'s
    outermost ``base``), so the result can read elements that ``x`` itself
    does not show. Unlike :func:`numpy.lib.stride_tricks.as_strided`,
    ``strides`` and ``storage_offset`` count elements, not bytes. Where the
    view reads an element more than once, the gradients of those reads add
    up; where ``x`` itself shows a storage element several times, each of
    those positions gets an equal share of its gradient. A view that would
    reach outside the storage raises :class:`ValueError`.

    .. warning::

        The output shares memory with ``x``; writing to either changes both.

    Args:
        x (~chainer.Variable or N-dimensional array): Input whose storage is
            viewed.
        shape (tuple of int): Shape of the output.
        strides (tuple of int): Steps (in elements) between neighbours along
            each output axis.
        storage_offset (int): Index (in elements) of the storage element that
            becomes the first output element; ``None`` means where ``x``
            itself starts.

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
