"""What the convolution test modules share: direct loop references and a FunctionTestCase base.

The references loop over every output (or input) position and kernel tap, so they are slow but
obviously right; keep the sizes small.
"""
import itertools

import numpy

from chainer import testing


def conv_outsize(size, k, s, p, cover_all, d):
    span = (k - 1) * d + 1
    if cover_all:
        return -(-(size + 2 * p - span) // s) + 1     # rounded up
    return (size + 2 * p - span) // s + 1


def _per_axis(value, ndim):
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * ndim


def convolution(x, W, b, stride=1, pad=0, cover_all=False, dilate=1, groups=1):
    """``y[n, o, q] = b[o] + sum over taps t and the group's channels of W[o, c, t] x[n, c, s q
    + d t - p]``, by loops over output positions and taps."""
    n, c = x.shape[:2]
    out_c, ksize = W.shape[0], W.shape[2:]
    nd = len(ksize)
    stride, pad, dilate = (_per_axis(v, nd) for v in (stride, pad, dilate))
    outs = tuple(conv_outsize(*args, cover_all, d)
                 for *args, d in zip(x.shape[2:], ksize, stride, pad, dilate))
    cg, og = c // groups, out_c // groups
    y = numpy.zeros((n, out_c) + outs)
    for q in itertools.product(*map(range, outs)):
        for t in itertools.product(*map(range, ksize)):
            pos = tuple(qi * s - p + ti * d
                        for qi, ti, s, p, d in zip(q, t, stride, pad, dilate))
            if not all(0 <= i < size for i, size in zip(pos, x.shape[2:])):
                continue
            for g in range(groups):
                xs = x[(slice(None), slice(g * cg, (g + 1) * cg)) + pos]      # (n, cg)
                ws = W[(slice(g * og, (g + 1) * og), slice(None)) + t]      # (og, cg)
                y[(slice(None), slice(g * og, (g + 1) * og)) + q] += xs @ ws.T
    if b is not None:
        y += b.reshape((out_c,) + (1,) * nd)
    return y


def deconvolution(x, W, b, stride=1, pad=0, outsize=None, dilate=1, groups=1):
    """Each input element adds ``x[n, c, q] W[c, o, t]`` to output position ``s q + d t - p``,
    by loops over input positions and taps."""
    n, in_c = x.shape[:2]
    ksize = W.shape[2:]
    nd = len(ksize)
    stride, pad, dilate = (_per_axis(v, nd) for v in (stride, pad, dilate))
    if outsize is None:
        outsize = tuple(s * (size - 1) + (k - 1) * d + 1 - 2 * p
                        for size, k, s, p, d in zip(x.shape[2:], ksize, stride, pad, dilate))
    ig, og = in_c // groups, W.shape[1]
    y = numpy.zeros((n, og * groups) + tuple(outsize))
    for q in itertools.product(*map(range, x.shape[2:])):
        for t in itertools.product(*map(range, ksize)):
            pos = tuple(qi * s - p + ti * d
                        for qi, ti, s, p, d in zip(q, t, stride, pad, dilate))
            if not all(0 <= i < size for i, size in zip(pos, outsize)):
                continue
            for g in range(groups):
                xs = x[(slice(None), slice(g * ig, (g + 1) * ig)) + q]      # (n, ig)
                ws = W[(slice(g * ig, (g + 1) * ig), slice(None)) + t]      # (ig, og)
                y[(slice(None), slice(g * og, (g + 1) * og)) + pos] += xs @ ws
    if b is not None:
        y += b.reshape((og * groups,) + (1,) * nd)
    return y


def parameterize(cases, dtypes=(numpy.float16, numpy.float32, numpy.float64)):
    """Runs a ConvTestCase over ``cases`` (dicts) x dtypes x with/without bias, on NumPy and
    CuPy."""
    params = testing.product_dict(cases, [{'dtype': d} for d in dtypes],
                                  [{'nobias': False}, {'nobias': True}])

    def decorate(cls):
        cls = testing.inject_backend_tests(None, [{}, {'use_cuda': True}])(cls)
        return testing.parameterize(*params)(cls)
    return decorate


class ConvTestCase(testing.FunctionTestCase):
    """Inputs x, W (and b unless ``nobias``) of the shapes and dtypes the class names.

    Subclasses set ``x_shape``, ``W_shape``, ``options`` (keyword arguments), ``dtype`` (or
    ``x_dtype`` and ``W_dtype``), and ``function`` and ``reference_function`` (both called
    as ``f(x, W, b, **options)``), or override :meth:`call` and :meth:`reference`.
    ``transposed`` says that W is laid out as a deconvolution's, ``(in, out / groups, k...)``.
    """

    __test__ = False
    nobias = False
    x_dtype = W_dtype = None
    options = {}
    transposed = False

    # float16: sums of several float16 products, compared at float16 resolution
    tolerances = {numpy.float16: (5e-3,)}

    def setUp(self):
        self.x_dtype = self.x_dtype or self.dtype
        self.W_dtype = self.W_dtype or self.dtype

    @property
    def b_size(self):
        if self.transposed:
            return self.W_shape[1] * self.options.get('groups', 1)
        return self.W_shape[0]

    def call(self, x, W, b):
        return type(self).function(x, W, b, **self.options)

    def reference(self, x, W, b):
        return type(self).reference_function(x, W, b, **self.options)

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.x_shape).astype(self.x_dtype)
        W = numpy.random.uniform(-1, 1, self.W_shape).astype(self.W_dtype)
        if self.nobias:
            return x, W
        return x, W, numpy.random.uniform(-1, 1, self.b_size).astype(self.x_dtype)

    def forward(self, inputs, device):
        x, W, b = inputs if len(inputs) == 3 else inputs + (None,)
        return self.call(x, W, b),

    def forward_expected(self, inputs):
        x, W, b = inputs if len(inputs) == 3 else inputs + (None,)
        f64 = [None if a is None else a.astype(numpy.float64) for a in (x, W, b)]
        return self.reference(*f64).astype(self.x_dtype),
