"""Max pooling forward + backward against a plain NumPy floor (and PyTorch, if installed).

Each case runs ``F.max_pooling_2d`` (Chainer's default ``cover_all=True``)
forward, then ``backward`` with a given output gradient, and the same
computation written in plain NumPy: a strided view of the padded input, one
copy into ``(..., kh * kw)`` windows, ``argmax`` and ``take_along_axis``
forward; ``put_along_axis`` into zero windows and a slice-add per kernel tap
to scatter them back. PyTorch's CPU ``max_pool2d`` (``ceil_mode=True``, which
is ``cover_all``) runs too when ``torch`` can be imported. The script prints
median times and ratios to the floor; a ratio below 1 is faster than it.
rechainer finds the winning taps only when something needs them (backward,
``return_indices``), so its forward column is the inference cost; the forward +
backward columns compare the whole training step.

    python benchmarks/bench_pooling.py [--repeat 20] [--threads N]
"""
import argparse
import statistics
import time

import numpy as np

import chainer
import chainer.functions as F

CASES = [
    # name, input shape, ksize, stride
    ('LeNet conv1 out', (64, 32, 26, 26), 2, 2),
    ('LeNet conv1 out', (64, 32, 26, 26), 3, 2),
    ('LeNet conv2 out', (64, 64, 11, 11), 2, 2),
    ('LeNet conv2 out', (64, 64, 11, 11), 3, 2),
    ('VGG block', (16, 64, 56, 56), 2, 2),
    ('VGG block', (16, 64, 56, 56), 3, 2),
]


def _outsize(d, k, s):
    return (d - k + s - 1) // s + 1      # cover_all


def numpy_floor(x, gy, k, s):
    """Max pooling (cover_all, no padding) in plain NumPy; returns y, or gx when gy is given."""
    n, c, h, w = x.shape
    oh, ow = _outsize(h, k, s), _outsize(w, k, s)
    ph, pw = (oh - 1) * s + k, (ow - 1) * s + k
    if (ph, pw) != (h, w):
        xp = np.full((n, c, ph, pw), -np.inf, x.dtype)
        xp[:, :, :h, :w] = x
    else:
        xp = x
    st = xp.strides
    view = np.lib.stride_tricks.as_strided(
        xp, (n, c, oh, ow, k, k), st[:2] + (st[2] * s, st[3] * s) + st[2:])
    cols = view.reshape(n, c, oh, ow, k * k)
    idx = cols.argmax(axis=4)[..., None]
    y = np.take_along_axis(cols, idx, 4)[..., 0]
    if gy is None:
        return y
    gcols = np.zeros((n, c, oh, ow, k * k), x.dtype)
    np.put_along_axis(gcols, idx, gy[..., None], 4)
    gxp = np.zeros((n, c, ph, pw), x.dtype)
    for t in range(k * k):
        i, j = divmod(t, k)
        gxp[:, :, i:i + s * oh:s, j:j + s * ow:s] += gcols[..., t]
    return gxp[:, :, :h, :w]


def _median(fn, repeat):
    fn()                                  # warm up
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def _rechainer(x, gy, k, s):
    def fwd():
        return F.max_pooling_2d(x, k, s)

    def fwd_bwd():
        v = chainer.Variable(x)
        y = F.max_pooling_2d(v, k, s)
        y.grad = gy
        y.backward()
        return v.grad
    return fwd, fwd_bwd


def _torch(x, gy, k, s):
    try:
        import torch
    except ImportError:
        return None
    xt, gt = torch.from_numpy(x), torch.from_numpy(gy)

    def fwd():
        with torch.no_grad():
            return torch.nn.functional.max_pool2d(xt, k, s, ceil_mode=True)

    def fwd_bwd():
        v = xt.clone().requires_grad_()
        torch.nn.functional.max_pool2d(v, k, s, ceil_mode=True).backward(gt)
        return v.grad
    return fwd, fwd_bwd


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--repeat', type=int, default=20)
    parser.add_argument('--threads', type=int, default=None,
                        help='PyTorch threads (default: its own choice)')
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    rows = []
    for name, shape, k, s in CASES:
        x = rng.standard_normal(shape).astype(np.float32)
        oh, ow = _outsize(shape[2], k, s), _outsize(shape[3], k, s)
        gy = rng.standard_normal(shape[:2] + (oh, ow)).astype(np.float32)
        # The two must agree before their times mean anything.
        ours_fwd, ours_fb = _rechainer(x, gy, k, s)
        np.testing.assert_array_equal(ours_fwd().array, numpy_floor(x, None, k, s))
        np.testing.assert_allclose(ours_fb(), numpy_floor(x, gy, k, s), rtol=1e-6)
        floor_f = _median(lambda: numpy_floor(x, None, k, s), args.repeat)
        floor_fb = _median(lambda: numpy_floor(x, gy, k, s), args.repeat)
        ours_f = _median(ours_fwd, args.repeat)
        ours_fb_t = _median(ours_fb, args.repeat)
        torch_fns = _torch(x, gy, k, s)
        if torch_fns is not None:
            import torch
            if args.threads:
                torch.set_num_threads(args.threads)
            torch_f = _median(torch_fns[0], args.repeat)
            torch_fb = _median(torch_fns[1], args.repeat)
        else:
            torch_f = torch_fb = None
        rows.append((f'{name} {"x".join(map(str, shape))} k{k} s{s}', floor_f, ours_f,
                     torch_f, floor_fb, ours_fb_t, torch_fb))

    def ms(t):
        return '      -' if t is None else f'{t * 1e3:7.2f}'

    def ratio(a, b):
        return '    -' if a is None else f'{a / b:5.2f}'

    print('max_pooling_2d (cover_all=True), float32; times in ms (median of '
          f'{args.repeat}); ratio = time / NumPy floor')
    print(f'{"case":<34} {"floor":>7} {"ours":>7} {"torch":>7} {"ours/fl":>7} '
          f'{"torch/fl":>8} | {"floor":>7} {"ours":>7} {"torch":>7} {"ours/fl":>7} '
          f'{"torch/fl":>8}')
    print(f'{"":<34} {"forward":^46} | {"forward + backward":^46}')
    for label, ff, of, tf, ffb, ofb, tfb in rows:
        print(f'{label:<34} {ms(ff)} {ms(of)} {ms(tf)} {ratio(of, ff):>7} {ratio(tf, ff):>8} | '
              f'{ms(ffb)} {ms(ofb)} {ms(tfb)} {ratio(ofb, ffb):>7} {ratio(tfb, ffb):>8}')
    if rows[0][3] is None:
        print('(PyTorch is not installed here: its columns are empty)')


if __name__ == '__main__':
    main()
