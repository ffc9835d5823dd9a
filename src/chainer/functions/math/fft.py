"""One-dimensional discrete Fourier transforms over the last axis, on (real, imag) pairs."""
from chainer import backend
from chainer import function_node
from chainer.functions import _checks
from chainer.utils import type_check


class FFT(function_node.FunctionNode):
    """FFT (``method='fft'``) or inverse FFT (``method='ifft'``) over the last axis."""

    def __init__(self, method):
        if method not in ('fft', 'ifft'):
            raise ValueError(f"FFT method must be 'fft' or 'ifft', got {method!r}")
        self._method = method

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('real', 'imag'))
        r_type, i_type = in_types
        type_check.expect(
            r_type.dtype.kind == 'f',
            r_type.ndim > 0,
            r_type.shape == i_type.shape,
            r_type.dtype == i_type.dtype,
        )

    def forward(self, inputs):
        real, imag = inputs
        xp = backend.get_array_module(real, imag)
        y = getattr(xp.fft, self._method)(real + 1j * imag)
        dtype = real.dtype
        return y.real.astype(dtype), y.imag.astype(dtype)

    def backward(self, indexes, grad_outputs):
        # NOTE: y = W x with W_kj = exp(-2 pi i kj / n) (times 1/n and
        # conjugated for the inverse). For a real loss the gradient with
        # respect to (re x, im x) is the (re, im) pair of W^H g, with g =
        # gr + i gi: that is n * ifft(g) for fft and fft(g) / n for ifft.
        gr, gi = grad_outputs
        xp = backend.get_array_module(*[g.array for g in grad_outputs if g is not None])
        if gr is None:
            gr = xp.zeros_like(gi.array)
        if gi is None:
            gi = xp.zeros_like(gr.array)
        n = gr.shape[-1]
        if self._method == 'fft':
            gxr, gxi = FFT('ifft').apply((gr, gi))
            scale = n
        else:
            gxr, gxi = FFT('fft').apply((gr, gi))
            scale = 1.0 / n
        return gxr * scale, gxi * scale


def _parts(func, x):
    # (real, imag): TypeError naming the function for anything else
    if not isinstance(x, (tuple, list)) or len(x) != 2:
        raise _checks.not_an_array(func, 'x', x, 'a tuple (real, imag) of two Variables or '
                                                 'N-dimensional arrays')
    return x


def fft(x):
    """One-dimensional fast Fourier transform over the last axis.

    Args:
        x (tuple): ``(real, imag)``, two Variables or N-dimensional arrays of
            the same shape and float dtype holding the real and imaginary parts
            of the input.

    Returns:
        tuple: ``(real, imag)`` Variables holding the parts of the result.

    .. admonition:: Example

        >>> re = np.array([1, 2], np.float32)
        >>> im = np.array([0, 1], np.float32)
        >>> yr, yi = F.fft((re, im))
        >>> yr.array, yi.array
        (array([ 3., -1.], dtype=float32), array([ 1., -1.], dtype=float32))
    """
    real, imag = _parts('fft', x)
    return FFT('fft').apply((real, imag))


def ifft(x):
    """One-dimensional inverse fast Fourier transform over the last axis.

    Args:
        x (tuple): ``(real, imag)``, two Variables or N-dimensional arrays of
            the same shape and float dtype holding the real and imaginary parts
            of the input.

    Returns:
        tuple: ``(real, imag)`` Variables holding the parts of the result.
    """
    real, imag = _parts('ifft', x)
    return FFT('ifft').apply((real, imag))
