"""CUDA elementwise kernels for N-dimensional im2col and col2im, generated per ``ndim``.

:meth:`Im2colNDKernel.generate` and :meth:`Col2imNDKernel.generate` return the
``(in_params, out_params, operation, name)`` of a ``cupy.ElementwiseKernel``
for ``ndim`` spatial axes, built once per ``ndim`` (memoized). The index
arithmetic is the one :mod:`chainer.utils.conv_nd` does with strided arrays:
column entry ``(n, c, k_1..k_N, o_1..o_N)`` reads the input at
``o_i * s_i - p_i + k_i * d_i`` (zero outside), and col2im sums, for each input
element, every column entry that reads it. Generating the code needs no GPU.
"""
from chainer.backends import cuda


def _names(prefix, ndim):
    return [f'{prefix}_{i}' for i in range(ndim)]


def _int_params(ndim, *prefixes):
    return ', '.join(f'int32 {name}' for p in prefixes for name in _names(p, ndim))


def _unravel(index, sizes, names):
    # C statements that split `index` into the indices `names` of a row-major array of `sizes`.
    lines = [f'int rest = {index};']
    for size, name in zip(reversed(sizes), reversed(names)):
        lines.append(f'int {name} = rest % {size}; rest /= {size};')
    return lines


class Im2colNDKernel:
    """Generator of the N-d im2col kernel: ``raw T img`` and sizes in, ``T col`` out."""

    @staticmethod
    def _generate(ndim):
        ds, outs, ks = _names('d', ndim), _names('out', ndim), _names('k', ndim)
        ss, ps, dis = _names('s', ndim), _names('p', ndim), _names('di', ndim)
        in_params = 'raw T img, ' + _int_params(ndim, 'd', 'out', 'k', 's', 'p', 'di')
        out_params = 'T col'
        # col has shape (n, c, k_0..k_{N-1}, out_0..out_{N-1}); `i` enumerates it.
        kidx, oidx = _names('kx', ndim), _names('ox', ndim)
        lines = _unravel('i', ks + outs, kidx + oidx)
        lines.append('int nc = rest;')  # n * channels + c
        lines.append('bool inside = true;')
        lines.append('int offset = nc;')
        for d, o, k, s, p, di in zip(ds, oidx, kidx, ss, ps, dis):
            lines.append(f'int in_{o} = {o} * {s} - {p} + {k} * {di};')
            lines.append(f'inside = inside && 0 <= in_{o} && in_{o} < {d};')
            lines.append(f'offset = offset * {d} + in_{o};')
        lines.append('col = inside ? img[offset] : (T)0;')
        return in_params, out_params, '\n'.join(lines), f'im2col_{ndim}d'

    @staticmethod
    @cuda.memoize()
    def generate(ndim):
        """Returns ``(in_params, out_params, operation, name)`` for ``ndim`` axes."""
        return Im2colNDKernel._generate(ndim)


class Col2imNDKernel:
    """Generator of the N-d col2im kernel: ``raw T col`` and sizes in, ``T img`` out."""

    @staticmethod
    def _generate(ndim):
        ds, outs, ks = _names('d', ndim), _names('out', ndim), _names('k', ndim)
        ss, ps, dis = _names('s', ndim), _names('p', ndim), _names('di', ndim)
        in_params = 'raw T col, ' + _int_params(ndim, 'd', 'out', 'k', 's', 'p', 'di')
        out_params = 'T img'
        # img has shape (n, c, d_0..d_{N-1}); `i` enumerates it.
        xidx = _names('x', ndim)
        lines = _unravel('i', ds, xidx)
        lines.append('int nc = rest;')
        lines.append('T value = 0;')
        depth = 0
        for j, (x, k, s, p, di, out) in enumerate(zip(xidx, ks, ss, ps, dis, outs)):
            pad = '  ' * depth
            lines.append(f'{pad}for (int kx_{j} = 0; kx_{j} < {k}; ++kx_{j}) {{')
            lines.append(f'{pad}  int t_{j} = {x} + {p} - kx_{j} * {di};')
            lines.append(f'{pad}  if (t_{j} < 0 || t_{j} % {s} != 0) continue;')
            lines.append(f'{pad}  int ox_{j} = t_{j} / {s};')
            lines.append(f'{pad}  if (ox_{j} >= {out}) continue;')
            depth += 1
        pad = '  ' * depth
        index = 'nc'
        for j, k in enumerate(ks):
            index = f'({index}) * {k} + kx_{j}'
        for j, out in enumerate(outs):
            index = f'({index}) * {out} + ox_{j}'
        lines.append(f'{pad}value += col[{index}];')
        for level in range(depth - 1, -1, -1):
            lines.append('  ' * level + '}')
        lines.append('img = value;')
        return in_params, out_params, '\n'.join(lines), f'col2im_{ndim}d'

    @staticmethod
    @cuda.memoize()
    def generate(ndim):
        """Returns ``(in_params, out_params, operation, name)`` for ``ndim`` axes."""
        return Col2imNDKernel._generate(ndim)
