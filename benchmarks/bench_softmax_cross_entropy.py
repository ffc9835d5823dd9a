"""softmax_cross_entropy forward + backward against the same computation in plain NumPy.

Logits of shape (batch, classes) in float32 with integer labels (a few ignored),
reduce='mean'. The NumPy floor is the straightforward vectorised computation: a
stable log-softmax, the loss at the labels, and the gradient softmax - onehot
scaled by 1 / count, which reuses the forward's exponentials. rechainer runs
F.softmax_cross_entropy on a Variable and backpropagates. Results are checked to
agree; the median time of each and their ratio are printed (the target is <= 1.3).

    python benchmarks/bench_softmax_cross_entropy.py [--batch 256] [--classes 1000] [--repeat 200]
"""
import argparse
import statistics
import time

import numpy as np

import chainer
import chainer.functions as F


def numpy_step(x, t, ignore_label=-1):
    m = x.max(axis=1, keepdims=True)
    z = x - m
    e = np.exp(z)
    s = e.sum(axis=1, keepdims=True)
    log_y = z - np.log(s)
    mask = t != ignore_label
    tt = np.where(mask, t, 0)
    rows = np.arange(len(t))
    count = max(int(mask.sum()), 1)
    loss = -(log_y[rows, tt] * mask).sum() / count
    gx = e / s
    gx[rows, tt] -= 1
    gx *= (mask / count).astype(x.dtype)[:, None]
    return loss, gx


def chainer_step(x, t):
    v = chainer.Variable(x)
    loss = F.softmax_cross_entropy(v, t)
    loss.backward()
    return loss.array, v.grad


def steady_allocator():
    """Keeps glibc from returning each freed 1 MB temporary to the OS.

    Otherwise, depending on the heap's layout at start-up, every temporary of
    either side can cost fresh page faults, which swings the timings by 5x
    between runs of the same script. Best effort: a no-op off glibc.
    """
    try:
        import ctypes
        libc = ctypes.CDLL('libc.so.6')
    except OSError:
        return
    m_trim_threshold, m_mmap_threshold = -1, -3
    libc.mallopt(m_mmap_threshold, 256 << 20)
    libc.mallopt(m_trim_threshold, 512 << 20)


def median_time(fn, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--batch', type=int, default=256)
    parser.add_argument('--classes', type=int, default=1000)
    parser.add_argument('--repeat', type=int, default=200)
    args = parser.parse_args()
    steady_allocator()

    rng = np.random.RandomState(0)
    x = rng.uniform(-3, 3, (args.batch, args.classes)).astype(np.float32)
    t = rng.randint(0, args.classes, args.batch).astype(np.int32)
    t[::17] = -1

    ref_loss, ref_gx = numpy_step(x, t)
    loss, gx = chainer_step(x, t)
    np.testing.assert_allclose(loss, ref_loss, rtol=1e-5)
    np.testing.assert_allclose(gx, ref_gx, rtol=1e-4, atol=1e-7)

    # Interleave the two so that machine noise hits both alike.
    floor, ours = [], []
    for _ in range(5):
        floor.append(median_time(lambda: numpy_step(x, t), args.repeat // 5))
        ours.append(median_time(lambda: chainer_step(x, t), args.repeat // 5))
    floor, ours = statistics.median(floor), statistics.median(ours)
    print(f'softmax_cross_entropy forward+backward, batch {args.batch}, '
          f'{args.classes} classes, float32')
    print(f'  plain NumPy     {floor * 1e3:8.3f} ms')
    print(f'  rechainer       {ours * 1e3:8.3f} ms')
    print(f'  ratio           {ours / floor:8.2f}x (target <= 1.3)')


if __name__ == '__main__':
    main()
