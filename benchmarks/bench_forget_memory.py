"""Peak memory of a deep chain with and without F.forget.

Forward + backward of a residual chain of blocks (h = h + tanh(h @ W) * 0.5)
on a (batch, width) float32 input, run plainly, with every block wrapped in
F.forget, and with segments of about sqrt(depth) blocks wrapped in F.forget
(the classic checkpointing trade-off). Peak memory is traced with tracemalloc
(NumPy reports its buffers to it) above what was allocated before the step;
time is the median wall time of the step. Gradients are checked to agree.

    python benchmarks/bench_forget_memory.py [--depth 32] [--batch 1024] [--width 256]
"""
import argparse
import math
import statistics
import time
import tracemalloc

import numpy as np

import chainer
import chainer.functions as F


def make_params(depth, width, seed=0):
    rng = np.random.RandomState(seed)
    scale = 1 / math.sqrt(width)
    return [chainer.Variable(rng.uniform(-scale, scale, (width, width)).astype(np.float32))
            for _ in range(depth)]


def block(h, w):
    return h + F.tanh(F.matmul(h, w)) * 0.5


def segment(ws):
    def run(h):
        for w in ws:
            h = block(h, w)
        return h
    return run


def forward(x, params, seg_len):
    h = x
    if seg_len == 0:
        for w in params:
            h = block(h, w)
    else:
        for i in range(0, len(params), seg_len):
            h = F.forget(segment(params[i:i + seg_len]), h)
    return F.sum(h * h)


def step(x0, params, seg_len):
    for w in params:
        w.cleargrad()
    x = chainer.Variable(x0)
    forward(x, params, seg_len).backward()
    return x.grad


def peak_bytes(x0, params, seg_len):
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        grad = step(x0, params, seg_len)
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    return peak, grad


def median_time(x0, params, seg_len, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        step(x0, params, seg_len)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('--depth', type=int, default=32)
    p.add_argument('--batch', type=int, default=1024)
    p.add_argument('--width', type=int, default=256)
    p.add_argument('--repeat', type=int, default=5)
    args = p.parse_args()
    x0 = np.random.RandomState(1).uniform(-1, 1, (args.batch, args.width)).astype(np.float32)
    params = make_params(args.depth, args.width)
    sqrt_seg = max(1, round(math.sqrt(args.depth)))
    variants = [('plain', 0), ('forget each block', 1),
                (f'forget {sqrt_seg}-block segments', sqrt_seg)]

    act_mib = x0.nbytes / 2 ** 20
    print(f'depth {args.depth}, input {x0.shape} float32 ({act_mib:.2f} MiB per activation)')
    print(f'{"variant":<28}{"peak MiB":>10}{"vs plain":>10}{"time ms":>10}{"vs plain":>10}')
    ref_grad = None
    ref_peak = ref_time = None
    for name, seg_len in variants:
        step(x0, params, seg_len)   # warm up
        peak, grad = peak_bytes(x0, params, seg_len)
        if ref_grad is None:
            ref_grad = grad
        else:
            np.testing.assert_allclose(grad, ref_grad, rtol=1e-4, atol=1e-5)
        t = median_time(x0, params, seg_len, args.repeat)
        if ref_peak is None:
            ref_peak, ref_time = peak, t
        print(f'{name:<28}{peak / 2 ** 20:>10.2f}{peak / ref_peak:>9.2f}x'
              f'{t * 1e3:>10.1f}{t / ref_time:>9.2f}x')


if __name__ == '__main__':
    main()
