"""Forward + backward time of heavy functions against plain NumPy.

Each case runs one function at a realistic size through rechainer (forward,
then ``backward`` with a given output gradient) and the same computation
written in plain NumPy with a hand-written backward. It prints the median
times (forward only and forward + backward) and their ratios; a ratio near 1
means the function adds little over the NumPy floor. Functions that are not
available (not written yet) are reported as missing and skipped.

    python benchmarks/bench_functions.py [--repeat 30] [--only logsumexp,cumsum]
"""
import argparse
import statistics
import time

import numpy as np

import chainer
import chainer.functions as F

# Attention-sized batched product for einsum: (batch, heads, len, dim).
B, H, L, D = 8, 8, 128, 64


def _softmax_np(x, gy):
    m = x.max(axis=1, keepdims=True)
    y = np.exp(x - m)
    y /= y.sum(axis=1, keepdims=True)
    if gy is None:
        return y
    return y * (gy - (gy * y).sum(axis=1, keepdims=True))


def _logsumexp_np(x, gy):
    m = x.max(axis=1, keepdims=True)
    y = np.log(np.exp(x - m).sum(axis=1, keepdims=True)) + m
    if gy is None:
        return y[:, 0]
    return gy[:, None] * np.exp(x - y)


def _einsum_np(xs, gy):
    q, k = xs
    y = np.einsum('bhqd,bhkd->bhqk', q, k, optimize=True)
    if gy is None:
        return y
    return (np.einsum('bhqk,bhkd->bhqd', gy, k, optimize=True),
            np.einsum('bhqk,bhqd->bhkd', gy, q, optimize=True))


def _get_item_np(xs, gy, index):
    x, = xs
    y = x[index]
    if gy is None:
        return y
    gx = np.zeros_like(x)
    np.add.at(gx, index, gy)
    return gx


def _cumsum_np(x, gy):
    y = np.cumsum(x, axis=1)
    if gy is None:
        return y
    return np.cumsum(gy[:, ::-1], axis=1)[:, ::-1]


def _cases(rng):
    """Yields ``(name, size, function name, chainer_fn, numpy_fn, inputs)``."""
    logits = rng.standard_normal((256, 1000)).astype(np.float32)
    yield ('softmax', '256x1000, axis=1', 'softmax',
           lambda x: F.softmax(x, axis=1), lambda xs, gy: _softmax_np(xs[0], gy), (logits,))
    yield ('logsumexp', '256x1000, axis=1', 'logsumexp',
           lambda x: F.logsumexp(x, axis=1), lambda xs, gy: _logsumexp_np(xs[0], gy),
           (logits,))
    q = rng.standard_normal((B, H, L, D)).astype(np.float32)
    k = rng.standard_normal((B, H, L, D)).astype(np.float32)
    yield ('einsum', f'bhqd,bhkd->bhqk {B}x{H}x{L}x{D}', 'einsum',
           lambda q, k: F.einsum('bhqd,bhkd->bhqk', q, k), _einsum_np, (q, k))
    table = rng.standard_normal((10000, 128)).astype(np.float32)
    index = rng.integers(0, 10000, 4096)
    yield ('get_item', '10000x128[int 4096]', 'get_item',
           lambda x: F.get_item(x, index), lambda xs, gy: _get_item_np(xs, gy, index),
           (table,))
    series = rng.standard_normal((256, 1000)).astype(np.float32)
    yield ('cumsum', '256x1000, axis=1', 'cumsum',
           lambda x: F.cumsum(x, axis=1), lambda xs, gy: _cumsum_np(xs[0], gy), (series,))


def _medians_ms(fns, repeat):
    """Median time of each function; the calls are interleaved so that load from
    other processes affects all of them alike."""
    for fn in fns:
        fn()  # warm up (imports, caches)
    times = [[] for _ in fns]
    for _ in range(repeat):
        for fn, ts in zip(fns, times):
            t = time.perf_counter()
            fn()
            ts.append(time.perf_counter() - t)
    return [statistics.median(ts) * 1e3 for ts in times]


def _run_case(case, repeat, rng):
    _, _, _, chainer_fn, numpy_fn, inputs = case
    y0 = numpy_fn(inputs, None)
    if isinstance(y0, tuple):
        y0 = y0[0]
    gy = rng.standard_normal(y0.shape).astype(y0.dtype)

    def ch_forward():
        with chainer.no_backprop_mode():
            chainer_fn(*inputs)

    def ch_step():
        xs = [chainer.Variable(x) for x in inputs]
        y = chainer_fn(*xs)
        y.grad = gy
        y.backward()
        return [x.grad for x in xs]

    # Check the two sides compute the same thing before timing them.
    expected = numpy_fn(inputs, gy)
    expected = expected if isinstance(expected, tuple) else (expected,)
    for got, want in zip(ch_step(), expected):
        np.testing.assert_allclose(got, want, rtol=1e-3, atol=1e-4)

    return _medians_ms([ch_forward, lambda: numpy_fn(inputs, None),
                        ch_step, lambda: numpy_fn(inputs, gy)], repeat)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--repeat', type=int, default=30)
    parser.add_argument('--only', default='', help='comma-separated case names')
    args = parser.parse_args()
    only = {s for s in args.only.split(',') if s}
    rng = np.random.default_rng(0)

    header = (f'{"function":<10} {"size":<30} {"fwd ms":>8} {"np fwd":>8} {"ratio":>6}'
              f' {"f+b ms":>8} {"np f+b":>8} {"ratio":>6}')
    print(header)
    print('-' * len(header))
    for case in _cases(rng):
        name, size, fname = case[:3]
        if only and name not in only:
            continue
        try:
            getattr(F, fname)
        except (AttributeError, ImportError) as e:
            print(f'{name:<10} {size:<30} missing ({type(e).__name__}: {e})')
            continue
        fwd, np_fwd, step, np_step = _run_case(case, args.repeat, rng)
        print(f'{name:<10} {size:<30} {fwd:8.3f} {np_fwd:8.3f} {fwd / np_fwd:6.2f}'
              f' {step:8.3f} {np_step:8.3f} {step / np_step:6.2f}')


if __name__ == '__main__':
    main()
