"""Array assertions that accept NumPy and CuPy arrays, Variables and scalars."""
import numpy


def _to_numpy(x):
    # Variables (and anything else wrapping an array) expose it as ``.array``; looked up by
    # attribute so that this module does not import chainer.variable.
    array = getattr(x, 'array', None)
    if array is not None and not isinstance(x, numpy.ndarray):
        x = array
    if type(x).__module__.startswith('cupy'):
        x = x.get()
    return numpy.asarray(x)


def _mismatch_report(x, y, atol, rtol):
    lines = [
        'assert_allclose failed:',
        f'  shape: {x.shape} {y.shape}',
        f'  dtype: {x.dtype} {y.dtype}',
    ]
    try:
        bx, by = numpy.broadcast_arrays(x, y)
    except ValueError:
        lines.append('  the shapes cannot be broadcast together')
    else:
        if bx.size and bx.dtype.kind in 'biufc' and by.dtype.kind in 'biufc':
            lines += _error_lines(bx, by, atol, rtol)
    return '\n'.join(lines)


def _error_lines(x, y, atol, rtol):
    with numpy.errstate(all='ignore'):
        xf = x.astype(numpy.complex128 if 'c' in x.dtype.kind + y.dtype.kind else numpy.float64)
        yf = y.astype(xf.dtype)
        abs_err = numpy.abs(xf - yf)
        rel_err = abs_err / numpy.abs(yf)
        tol = atol + rtol * numpy.abs(yf)
        bad = ~numpy.isclose(xf, yf, rtol=rtol, atol=atol, equal_nan=True)
        # Rank mismatches by how far they exceed their tolerance; a NaN against a number
        # (or infinities of opposite sign) counts as infinitely far.
        excess = numpy.where(bad, numpy.nan_to_num(abs_err - tol, nan=numpy.inf), -numpy.inf)
    worst = numpy.unravel_index(numpy.argmax(excess), x.shape)
    i = tuple(int(k) for k in worst)
    return [
        f'  mismatched elements: {int(bad.sum())} / {bad.size}',
        f'  max absolute error: {numpy.nanmax(abs_err)}',
        f'  max relative error: {numpy.nanmax(rel_err)}',
        f'  worst element index i: {i}',
        f'  x[i]: {x[i]}',
        f'  y[i]: {y[i]}',
        f'  absolute error at i: {abs_err[i]}',
        f'  relative error at i: {rel_err[i]}',
        f'  tolerance at i (atol + rtol * |y[i]|): {tol[i]} (atol={atol}, rtol={rtol})',
    ]


def assert_allclose(x, y, atol=1e-5, rtol=1e-4, verbose=True):
    """Asserts that ``x`` and ``y`` are equal elementwise within a tolerance.

    The check is NumPy's: ``|x - y| <= atol + rtol * |y|`` everywhere, with NaNs in the
    same places counted as equal. On failure the message gives both shapes and dtypes,
    the largest absolute and relative errors, the index and values of the element that
    misses its tolerance by the most, and (with ``verbose``) both arrays, summarized
    when large.

    Args:
        x: Actual value: a NumPy or CuPy array, a Variable, or a scalar.
        y: Expected value, of the same kinds.
        atol (float): Absolute tolerance.
        rtol (float): Relative tolerance.
        verbose (bool): Whether NumPy's part of the message includes the values.

    Raises:
        AssertionError: The values (or the shapes) differ.
    """
    x = _to_numpy(x)
    y = _to_numpy(y)
    try:
        numpy.testing.assert_allclose(x, y, rtol=rtol, atol=atol, verbose=verbose)
    except AssertionError as e:
        raise AssertionError(f'{e}\n{_mismatch_report(x, y, atol, rtol)}') from None


def _as_noncontiguous_array(array):
    """Returns a copy of ``array`` that is not C-contiguous (when its shape allows one).

    Tuples, lists and ``None`` are handled item by item, so a whole set of inputs can be
    converted at once. Arrays with no axis longer than 1 are returned as plain copies.
    """
    if array is None:
        return None
    if isinstance(array, (list, tuple)):
        return type(array)(_as_noncontiguous_array(a) for a in array)
    xp = numpy
    if type(array).__module__.startswith('cupy'):
        import cupy
        xp = cupy
    axes = [k for k, n in enumerate(array.shape) if n > 1]
    if not axes:
        return array.copy()
    axis = axes[-1]
    padded = list(array.shape)
    padded[axis] *= 2
    # Every other element along the last long axis: same values, doubled stride.
    view = xp.empty(padded, dtype=array.dtype)[(slice(None),) * axis + (slice(None, None, 2),)]
    view[...] = array
    return view
