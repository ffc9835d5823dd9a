"""Initializer of (semi-)orthogonal matrices."""
import numpy

from chainer import backend
from chainer import initializer
from chainer.initializers import _random

# mode -> (refuse more inputs than outputs, refuse more outputs than inputs)
_MODES = {
    'auto': (False, False),
    'projection': (False, True),
    'embedding': (True, False),
    'basis': (True, True),
}


class Orthogonal(initializer.Initializer):
    """Fills a weight with a scaled (semi-)orthogonal matrix.

    The array is read as a matrix of ``shape[0]`` rows (outputs) and
    ``prod(shape[1:])`` columns (inputs). Its rows are orthonormal when there are
    fewer outputs than inputs, its columns otherwise; then it is multiplied by
    ``scale``. The matrix is the Q factor of a standard normal matrix (with the
    signs that make it uniformly distributed).

    Args:
        scale (float): Multiplier of the orthogonal matrix.
        dtype: Data type of the arrays it makes.
        mode (str): Which shapes are accepted: ``'auto'`` (any), ``'projection'``
            (no more outputs than inputs), ``'embedding'`` (no more inputs than
            outputs) or ``'basis'`` (as many of both).
        rng (numpy.random.RandomState): Generator to draw from.
    """

    def __init__(self, scale=1.1, dtype=None, mode='auto', **kwargs):
        if mode not in _MODES:
            raise ValueError(f'Invalid mode: {mode!r}. Choose from '
                             + ', '.join(repr(m) for m in _MODES) + '.')
        self.scale = scale
        self.mode = mode
        self.rng = _random.parse_rng(kwargs)
        super().__init__(dtype)

    def __call__(self, array):
        self._check_dtype(array)
        rng = numpy.random if self.rng is None else self.rng
        if array.ndim == 0:
            # A 1x1 orthogonal matrix is +1 or -1.
            array[...] = self.scale * (2 * int(rng.randint(2)) - 1)
            return
        if array.size == 0:
            raise ValueError(f'Orthogonal: the array to be initialized must be non-empty, '
                             f'got shape {array.shape}')
        out_dim = array.shape[0]
        in_dim = array.size // out_dim
        no_wide, no_tall = _MODES[self.mode]
        if (in_dim > out_dim and no_wide) or (in_dim < out_dim and no_tall):
            raise ValueError(
                f'Cannot make orthogonal {self.mode}. shape = {array.shape}, interpreted as '
                f'{in_dim}-dim input and {out_dim}-dim output.')
        wide = in_dim > out_dim
        a = rng.normal(size=(out_dim, in_dim))
        if wide:
            a = a.T
        q, r = numpy.linalg.qr(a)
        # Signs from R's diagonal make Q Haar-distributed instead of biased by the QR routine.
        q *= numpy.copysign(self.scale, numpy.diag(r))
        if wide:
            q = q.T
        backend.copyto(array, q.reshape(array.shape).astype(array.dtype, copy=False))
