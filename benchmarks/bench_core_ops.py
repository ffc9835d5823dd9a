"""Per-op bookkeeping cost of the autograd core.

Forward + backward of a chain of 200 small elementwise ops on a (10, 10) float32
Variable (x*2, +1, tanh, -x, repeated), against the same chain written in plain
NumPy with a hand-written backward (the floor). Prints microseconds per op and
the ratio, with type checking on (Chainer's default) and off.

    python benchmarks/bench_core_ops.py [--repeat 200]
"""
import argparse
import statistics
import time

import numpy as np

import chainer

N_OPS = 200


def chain_rechainer(x):
    h = x
    for _ in range(N_OPS // 4):
        h = h * 2
        h = h + 1
        h = chainer.functions.tanh(h)
        h = -h
    return h


def step_rechainer(x0):
    x = chainer.Variable(x0)
    y = chain_rechainer(x)
    y.grad = np.ones_like(y.array)
    y.backward()
    return x.grad


def step_numpy(x0):
    ys = []
    h = x0
    for _ in range(N_OPS // 4):
        h = h * 2
        h = h + 1
        h = np.tanh(h)
        ys.append(h)
        h = -h
    g = np.ones_like(h)
    for y in reversed(ys):
        g = -g
        g = g * (1 - y * y)
        g = g * 2
    return g


def median_time(fn, arg, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn(arg)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('--repeat', type=int, default=200)
    args = p.parse_args()
    x0 = np.random.RandomState(0).uniform(-1, 1, (10, 10)).astype(np.float32)
    np.testing.assert_allclose(step_rechainer(x0), step_numpy(x0), rtol=1e-4, atol=1e-5)
    for _ in range(20):
        step_rechainer(x0)
        step_numpy(x0)
    floor = median_time(step_numpy, x0, args.repeat) / N_OPS * 1e6
    print(f'numpy floor (forward + hand-written backward): {floor:6.2f} us/op')
    for tc in (True, False):
        with chainer.using_config('type_check', tc):
            t = median_time(step_rechainer, x0, args.repeat) / N_OPS * 1e6
        print(f'rechainer, type_check={str(tc):5}:             {t:6.2f} us/op'
              f'   ratio {t / floor:5.2f}x')


if __name__ == '__main__':
    main()
