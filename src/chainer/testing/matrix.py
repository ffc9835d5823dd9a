"""``generate_matrix``: random test matrices with prescribed singular values."""
import numpy


def _broadcast_to(array, shape):
    # Part of the module's surface in Chainer: test code broadcasts expected values with it.
    return numpy.broadcast_to(array, shape)


def _random_orthonormal(rows, cols, batch, complex_):
    # Q of the QR decomposition of a Gaussian matrix has orthonormal columns.
    a = numpy.random.standard_normal(batch + (rows, cols))
    if complex_:
        a = a + 1j * numpy.random.standard_normal(batch + (rows, cols))
    q, _ = numpy.linalg.qr(a)
    return q


def generate_matrix(shape, dtype=float, **kwargs):
    """Returns a random matrix (or a stack of them) with the given singular values.

    Useful to test linear-algebra functions on inputs whose conditioning is known.

    Args:
        shape (tuple of int): ``(..., m, n)``; at least two dimensions.
        dtype: A float or complex dtype.
        singular_values (array-like, keyword only, required): Non-negative real values
            broadcastable to ``shape[:-2] + (min(m, n),)``.

    Returns:
        numpy.ndarray: ``x`` of that shape and dtype whose singular values are the given
        ones (in some order).
    """
    if 'singular_values' not in kwargs:
        raise TypeError('generate_matrix requires the keyword argument singular_values')
    singular_values = kwargs.pop('singular_values')
    if kwargs:
        raise TypeError(
            f'generate_matrix got unexpected keyword argument(s) {", ".join(sorted(kwargs))}')
    shape = tuple(shape)
    if len(shape) < 2:
        raise ValueError(f'generate_matrix requires a shape of at least 2 dimensions, '
                         f'got {shape}')
    dtype = numpy.dtype(dtype)
    if dtype.kind not in 'fc':
        raise TypeError(f'generate_matrix requires a float or complex dtype, got {dtype}')
    singular_values = numpy.asarray(singular_values)
    if singular_values.dtype.kind not in 'biuf':
        raise TypeError(f'generate_matrix requires real singular_values, got dtype '
                        f'{singular_values.dtype}')
    if (singular_values < 0).any():
        raise ValueError('generate_matrix requires non-negative singular_values')
    *batch, m, n = shape
    batch = tuple(batch)
    k = min(m, n)
    try:
        s = numpy.broadcast_to(singular_values, batch + (k,))
    except ValueError:
        raise ValueError(
            f'generate_matrix: singular_values of shape {singular_values.shape} do not '
            f'broadcast to {batch + (k,)}, the singular values of matrices of shape '
            f'{shape}') from None
    if 0 in shape:
        return numpy.empty(shape, dtype)
    u = _random_orthonormal(m, k, batch, dtype.kind == 'c')
    vh = numpy.swapaxes(_random_orthonormal(n, k, batch, dtype.kind == 'c'), -1, -2).conj()
    x = numpy.matmul(u * s[..., None, :], vh)
    return x.astype(dtype, copy=False)
