"""Moving examples' arrays from worker processes through one shared buffer.

The buffer (a ``multiprocessing.RawArray``: anonymous memory, inherited by the
forked workers, gone with the last process that maps it -- nothing to leak)
holds ``n_slots`` batch slots of ``batch_size`` example regions of
``shared_mem`` bytes. A worker copies the arrays of example ``k`` of a batch
into region ``k`` of the batch's slot and sends back placeholders; the main
process copies them out. Arrays that do not fit go through the pipe as usual.
"""
import multiprocessing

import numpy

_ALIGN = 64


class _Placeholder:
    # An array left in the shared buffer.
    __slots__ = ('offset', 'shape', 'dtype')

    def __init__(self, offset, shape, dtype):
        self.offset = offset
        self.shape = shape
        self.dtype = dtype

    def __reduce__(self):
        return _Placeholder, (self.offset, self.shape, self.dtype)


def allocate(n_bytes):
    """A buffer of ``n_bytes`` shared with processes forked afterwards."""
    return multiprocessing.RawArray('b', n_bytes)


def as_bytes(buffer):
    return numpy.frombuffer(buffer, numpy.uint8)


def pack(example, view, start, end):
    """Moves the arrays of ``example`` into ``view[start:end]`` where they fit.

    Returns:
        ``(example with placeholders, next free offset)``.
    """
    if isinstance(example, numpy.ndarray):
        if example.dtype.hasobject or example.dtype.fields is not None:
            return example, start
        offset = -(-start // _ALIGN) * _ALIGN
        if offset + example.nbytes > end:
            return example, start
        flat = numpy.ascontiguousarray(example).reshape(-1).view(numpy.uint8)
        view[offset:offset + example.nbytes] = flat
        return _Placeholder(offset, example.shape, example.dtype.str), offset + example.nbytes
    if isinstance(example, (tuple, list)):
        items = []
        for item in example:
            item, start = pack(item, view, start, end)
            items.append(item)
        return (tuple(items) if isinstance(example, tuple) else items), start
    if isinstance(example, dict):
        items = {}
        for key, item in example.items():
            items[key], start = pack(item, view, start, end)
        return items, start
    return example, start


def unpack(example, view):
    """Replaces placeholders by copies of the arrays in the buffer."""
    if isinstance(example, _Placeholder):
        dtype = numpy.dtype(example.dtype)
        n = int(numpy.prod(example.shape, dtype=numpy.int64)) * dtype.itemsize
        return view[example.offset:example.offset + n].view(dtype).reshape(
            example.shape).copy()
    if isinstance(example, tuple):
        return tuple(unpack(item, view) for item in example)
    if isinstance(example, list):
        return [unpack(item, view) for item in example]
    if isinstance(example, dict):
        return {key: unpack(item, view) for key, item in example.items()}
    return example
