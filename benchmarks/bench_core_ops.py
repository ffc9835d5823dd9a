"""Per-op bookkeeping cost of the autograd core.

Forward + backward of the 200-op elementwise chain of ``bench_workloads.py`` (x*2,
+1, tanh, -x, repeated) on a (10, 10) float32 Variable, against the same chain
written in plain NumPy with a hand-written backward (the floor). Prints
microseconds per op and the ratio, with type checking on (Chainer's default) and
off. A quick in-process check; ``bench_workloads.py --workloads chain`` compares
with PyTorch and Chainer 7.8.1 in fresh processes.

With ``--baseline SRC`` it compares the ``chainer`` this Python imports with the one
in the source folder ``SRC`` (another checkout's ``src``): each side runs in a worker
process of its own, the workers take turns round by round (so a change of load on the
machine hits both alike), and the medians over the rounds are compared.

    python benchmarks/bench_core_ops.py [--repeat 200]
    python benchmarks/bench_core_ops.py --baseline ../main/src [--rounds 30]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
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


def _worker():
    # Serves rounds on request: reads "type_check repeat" lines, answers the median us/op.
    x0 = chain_data()
    for _ in range(20):
        chainer_chain_grad(x0)
    print(json.dumps({'ready': chainer.__file__}), flush=True)
    for line in sys.stdin:
        tc, repeat = line.split()
        with chainer.using_config('type_check', tc == '1'):
            t = median_time(chainer_chain_grad, x0, int(repeat)) / N_OPS * 1e6
        print(json.dumps({'us_per_op': t}), flush=True)


def _start_worker(src):
    env = dict(os.environ)
    if src is not None:
        env['PYTHONPATH'] = os.path.abspath(src) + os.pathsep + env.get('PYTHONPATH', '')
    proc = subprocess.Popen([sys.executable, os.path.abspath(__file__), '--worker'],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
    where = json.loads(proc.stdout.readline())['ready']
    return proc, where


def compare(baseline, rounds, repeat):
    """Interleaved rounds of this chainer and the one in ``baseline``; prints the medians."""
    workers = {'this': _start_worker(None), 'baseline': _start_worker(baseline)}
    for name, (_, where) in workers.items():
        print(f'{name:8}: {where}')
    for tc in ('1', '0'):
        times = {name: [] for name in workers}
        for r in range(rounds):
            # Alternate which side goes first, so neither always runs after the other.
            for name in (('this', 'baseline') if r % 2 == 0 else ('baseline', 'this')):
                proc = workers[name][0]
                proc.stdin.write(f'{tc} {repeat}\n')
                proc.stdin.flush()
                times[name].append(json.loads(proc.stdout.readline())['us_per_op'])
        this, base = (statistics.median(times[n]) for n in ('this', 'baseline'))
        spread = statistics.median(abs(a / b - 1) for a, b in zip(times['this'][1:],
                                                                  times['this'][:-1]))
        print(f'type_check={tc == "1"!s:5}: this {this:6.2f} us/op, baseline {base:6.2f} us/op,'
              f' ratio {this / base:5.3f} (median of {rounds} rounds; round-to-round spread'
              f' of this side {spread:.1%})')
    for proc, _ in workers.values():
        proc.stdin.close()
        proc.wait()


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('--repeat', type=int, default=200, help='steps timed per measurement')
    p.add_argument('--baseline', metavar='SRC',
                   help='compare with the chainer in this source folder')
    p.add_argument('--rounds', type=int, default=30, help='interleaved rounds (--baseline)')
    p.add_argument('--worker', action='store_true', help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.worker:
        return _worker()
    if args.baseline:
        return compare(args.baseline, args.rounds, max(1, args.repeat // 10))
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
