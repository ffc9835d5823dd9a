"""Forward and forward + backward time of convolution_2d against a NumPy floor (and PyTorch).

Sizes: LeNet-like (batch 64, 1->32 channels on 28x28 and 32->64 on 13x13, 3x3 kernels) and
VGG-block-like (batch 16, 64->64 channels, 3x3, pad 1, 56x56), all with a bias and all three
gradients (x, W, b). The NumPy floor is each product written as a strided-view im2col and one
``tensordot``, nothing else: ``y = W . im2col(x)``, ``gW = gy . im2col(x)`` (the same columns),
``gx = W_flipped . im2col(pad(gy))`` (stride 1, so gx is a full convolution of gy), in the floor's
own channel-major layout. PyTorch's CPU ``conv2d`` runs too when it can be imported. Times are
medians of interleaved runs; ratios are rechainer / floor and rechainer / PyTorch.

    python benchmarks/bench_convolution.py [--repeat 10] [--only vgg]
"""
import argparse

import numpy as np
from numpy.lib.stride_tricks import as_strided

import chainer
import chainer.functions as F
from bench_functions import _medians_ms     # interleaved medians (this folder is on sys.path)

CASES = [
    # name, batch, in channels, out channels, image size, pad
    ('lenet1', 64, 1, 32, 28, 0),
    ('lenet2', 64, 32, 64, 13, 0),
    ('vgg', 16, 64, 64, 56, 1),
]
K = 3


def _windows(a, k, outs, lead, batch):
    """Strided view ``(a's axis lead, k, k, a's axis batch, out_h, out_w)`` of a 4-D array
    whose last two axes are spatial."""
    s = a.strides
    return as_strided(a, (a.shape[lead], k, k, a.shape[batch]) + outs,
                      (s[lead], s[2], s[3], s[batch], s[2], s[3]))


def floor_forward(x, W, b, pad):
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    outs = (xp.shape[2] - K + 1, xp.shape[3] - K + 1)
    col = np.ascontiguousarray(_windows(xp, K, outs, 1, 0))         # (c, k, k, n, oh, ow)
    y = np.tensordot(W, col, 3)                                       # (o, n, oh, ow)
    y += b[:, None, None, None]
    return y, col


def floor_step(x, W, b, gy, pad):
    """Forward, then the three gradients for ``gy`` laid out like the floor's y."""
    y, col = floor_forward(x, W, b, pad)
    gW = np.tensordot(gy, col, ((1, 2, 3), (3, 4, 5)))
    gb = gy.sum(axis=(1, 2, 3))
    q = K - 1 - pad
    gyp = np.pad(gy, ((0, 0), (0, 0), (q, q), (q, q)))
    gcol = _windows(gyp, K, x.shape[2:], 0, 1)                        # (o, k, k, n, h, w)
    gx = np.tensordot(W[:, :, ::-1, ::-1], gcol, ((0, 2, 3), (0, 1, 2)))   # (c, n, h, w)
    return y, gx, gW, gb


def _torch_fns(x, W, b, gy_nchw, pad):
    try:
        import torch
    except ImportError:
        return None
    tx, tW, tb = (torch.from_numpy(a.copy()) for a in (x, W, b))
    tgy = torch.from_numpy(gy_nchw)

    def forward():
        with torch.no_grad():
            torch.nn.functional.conv2d(tx, tW, tb, padding=pad)

    def step():
        xs = [t.detach().requires_grad_() for t in (tx, tW, tb)]
        torch.nn.functional.conv2d(*xs, padding=pad).backward(tgy)

    return forward, step


def run_case(name, n, c, o, size, pad, repeat, rng):
    x = rng.standard_normal((n, c, size, size)).astype(np.float32)
    W = (rng.standard_normal((o, c, K, K)) / np.sqrt(c * K * K)).astype(np.float32)
    b = rng.standard_normal(o).astype(np.float32)
    out = size + 2 * pad - K + 1
    gy = rng.standard_normal((o, n, out, out)).astype(np.float32)     # the floor's layout
    gy_nchw = np.ascontiguousarray(gy.transpose(1, 0, 2, 3))

    def ch_forward():
        with chainer.no_backprop_mode():
            F.convolution_2d(x, W, b, pad=pad)

    def ch_step():
        xs = [chainer.Variable(a) for a in (x, W, b)]
        y = F.convolution_2d(*xs, pad=pad)
        y.grad = gy_nchw
        y.backward()
        return [y.array] + [v.grad for v in xs]

    # Both sides must compute the same thing before they are timed.
    want = floor_step(x, W, b, gy, pad)
    got = ch_step()
    for g, w, axes in zip(got, want, [(1, 0, 2, 3), (1, 0, 2, 3), None, None]):
        np.testing.assert_allclose(g, w if axes is None else w.transpose(axes),
                                   rtol=1e-3, atol=1e-3)

    # Forward and forward+backward are timed in separate groups: a call right after a
    # forward+backward (which leaves large freed buffers and cold caches) runs slower, and
    # that should not fall on one side only.
    torch_fns = _torch_fns(x, W, b, gy_nchw, pad)
    forwards = [ch_forward, lambda: floor_forward(x, W, b, pad)]
    steps = [ch_step, lambda: floor_step(x, W, b, gy, pad)]
    if torch_fns is not None:
        forwards.append(torch_fns[0])
        steps.append(torch_fns[1])
    fwd_times = _medians_ms(forwards, repeat)
    step_times = _medians_ms(steps, repeat)
    fwd, np_fwd = fwd_times[:2]
    step, np_step = step_times[:2]
    line = (f'{name:<7} {f"{n}x{c}x{size}x{size} -> {o}, pad {pad}":<26} '
            f'{fwd:8.2f} {np_fwd:8.2f} {fwd / np_fwd:6.2f} '
            f'{step:8.2f} {np_step:8.2f} {step / np_step:6.2f}')
    if torch_fns is not None:
        t_fwd, t_step = fwd_times[2], step_times[2]
        line += f' {t_fwd:8.2f} {fwd / t_fwd:6.2f} {t_step:8.2f} {step / t_step:6.2f}'
    print(line, flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--repeat', type=int, default=10)
    parser.add_argument('--only', default='', help='comma-separated case names')
    args = parser.parse_args()
    only = {s for s in args.only.split(',') if s}
    rng = np.random.default_rng(0)
    try:
        import torch
        torch_note = f'PyTorch {torch.__version__} ({torch.get_num_threads()} threads)'
    except ImportError:
        torch_note = 'PyTorch not installed'
    print(f'convolution_2d, float32, 3x3 kernels; NumPy {np.__version__}; {torch_note}')
    header = (f'{"case":<7} {"size":<26} {"fwd ms":>8} {"np fwd":>8} {"ratio":>6} '
              f'{"f+b ms":>8} {"np f+b":>8} {"ratio":>6}')
    if 'not installed' not in torch_note:
        header += f' {"pt fwd":>8} {"ratio":>6} {"pt f+b":>8} {"ratio":>6}'
    print(header)
    print('-' * len(header))
    for case in CASES:
        if not only or case[0] in only:
            run_case(*case, args.repeat, rng)


if __name__ == '__main__':
    main()
