"""Gathering a model's parameters into one flat buffer and back.

The communicators exchange all gradients (or all parameters) of a model in one message: the
arrays are concatenated into a flat buffer in a fixed order (sorted parameter names, so every
process agrees), sent, and copied back into the same arrays, which keeps the arrays that
optimizers hold references to.
"""
import contextlib

import numpy

from chainer import backend


def extract_params_set_data(model):
    """The initialized parameters of ``model``, sorted by name."""
    return [p for _, p in sorted(model.namedparams()) if p.array is not None]


def extract_params_set_grad(model, zero_fill):
    """The initialized parameters of ``model`` that take part in a gradient exchange.

    Args:
        model (~chainer.Link): The model.
        zero_fill (bool): Whether parameters without a gradient take part (with zeros).

    Returns:
        list: The parameters, sorted by name.
    """
    return [p for _, p in sorted(model.namedparams())
            if p.array is not None and (zero_fill or p.grad is not None)]


def count_grad_elements(params, zero_fill):
    """The number of gradient elements of ``params`` (a missing gradient counts as zeros)."""
    return sum(p.size for p in params)


def fill_missing_grads(params):
    """Gives every parameter of ``params`` whose gradient is ``None`` a zero gradient."""
    for p in params:
        if p.grad is None:
            p.grad = backend.get_array_module(p.array).zeros_like(p.array)


def pack_params(params, attr_name, buffer, transfer_dtype, zero_fill, stream=None):
    """Concatenates ``getattr(p, attr_name)`` of ``params`` into the flat ``buffer``.

    Args:
        params (list): Parameters, in the agreed order.
        attr_name (str): ``'grad'`` or ``'data'``.
        buffer: Flat array on the parameters' device with at least as many elements.
        transfer_dtype: dtype of ``buffer``; values are cast to it.
        zero_fill (bool): Whether a missing gradient is packed as zeros.
        stream: CuPy stream to run on (``None``: the current one).

    Returns:
        The filled prefix of ``buffer``.
    """
    n = count_grad_elements(params, zero_fill)
    out = buffer[:n]
    if n == 0:
        return out
    if zero_fill and attr_name == 'grad':
        fill_missing_grads(params)
    xp = backend.get_array_module(buffer)
    with _on_stream(stream):
        xp.concatenate([getattr(p, attr_name).reshape(-1) for p in params], out=out,
                       casting='unsafe')
    return out


def unpack_params(params, attr_name, buffer, transfer_dtype, zero_fill, stream=None):
    """Copies the flat ``buffer`` back into ``getattr(p, attr_name)`` of ``params``, in place."""
    xp = backend.get_array_module(buffer)
    offset = 0
    with _on_stream(stream):
        for p in params:
            target = getattr(p, attr_name)
            size = target.size
            xp.copyto(target, buffer[offset:offset + size].reshape(target.shape),
                      casting='unsafe')
            offset += size


def _on_stream(stream):
    return stream if stream is not None else contextlib.nullcontext()


class BufferCache:
    """Flat scratch buffers kept between calls, one per (array module, dtype), grown on demand."""

    def __init__(self):
        self._buffers = {}

    def get(self, xp, dtype, n):
        """A flat array of at least ``n`` elements of ``dtype`` allocated with ``xp``."""
        key = (xp, numpy.dtype(dtype))
        buf = self._buffers.get(key)
        if buf is None or buf.size < n:
            buf = xp.empty(max(n, 1), dtype=dtype)
            self._buffers[key] = buf
        return buf

    def clear(self):
        self._buffers.clear()
