"""Helpers to compute float16 data in float32."""
import functools

import numpy

_float16 = numpy.dtype(numpy.float16)
_float32 = numpy.dtype(numpy.float32)


def _fp16_mixed_precision_helper(fn):
    """Decorates ``forward(self, inputs)`` to compute float16 inputs in float32.

    float16 inputs are cast to float32 before the call. The float32 outputs
    are cast back to float16 unless an input was float32 or float64 (then
    float32 is what the caller works in); other outputs are left alone.
    ``None`` entries pass through.

    Returns:
        The wrapped method; it returns a tuple.
    """
    @functools.wraps(fn)
    def wrapper(self, in_data):
        to_half = True
        cast = []
        for x in in_data:
            dtype = getattr(x, 'dtype', None)
            if dtype == _float16:
                x = x.astype(_float32)
            elif dtype is not None and dtype.kind == 'f':
                to_half = False
            cast.append(x)
        out_data = fn(self, tuple(cast))
        if not to_half:
            return out_data
        return tuple(_half_if_single(y) for y in out_data)
    return wrapper


def _half_if_single(y):
    if getattr(y, 'dtype', None) == _float32:
        return y.astype(_float16)
    return y
