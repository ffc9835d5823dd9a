"""Per-op bookkeeping cost of the autograd core.

Forward + backward of the 200-op elementwise chain of ``bench_workloads.py`` (x*2,
+1, tanh, -x, repeated) on a (10, 10) float32 Variable, against the same chain
written in plain NumPy with a hand-written backward (the floor). Prints
microseconds per op and the ratio, with type checking on (Chainer's default) and
off. A quick in-process check; ``bench_workloads.py --workloads chain`` compares
with PyTorch and Chainer 7.8.1 in fresh processes.

    python benchmarks/bench_core_ops.py [--repeat 200]
"""
import argparse
import statistics
import time

import numpy as np

import chainer
# The chain and its floor (this folder is on sys.path when a script runs).
from bench_workloads import N_OPS
from bench_workloads import chain_data
from bench_workloads import chainer_chain_grad
from bench_workloads import numpy_chain_grad


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
    x0 = chain_data()
    np.testing.assert_allclose(chainer_chain_grad(x0), numpy_chain_grad(x0),
                               rtol=1e-4, atol=1e-5)
    for _ in range(20):
        chainer_chain_grad(x0)
        numpy_chain_grad(x0)
    floor = median_time(numpy_chain_grad, x0, args.repeat) / N_OPS * 1e6
    print(f'numpy floor (forward + hand-written backward): {floor:6.2f} us/op')
    for tc in (True, False):
        with chainer.using_config('type_check', tc):
            t = median_time(chainer_chain_grad, x0, args.repeat) / N_OPS * 1e6
        print(f'rechainer, type_check={str(tc):5}:             {t:6.2f} us/op'
              f'   ratio {t / floor:5.2f}x')


if __name__ == '__main__':
    main()
