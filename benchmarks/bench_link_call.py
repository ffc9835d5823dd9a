"""What calling a Link adds to the function it wraps.

A tiny link whose ``forward`` returns ``F.identity(x)`` is called, and so is
``F.identity`` itself, on a (10, 10) float32 array, many times each; the script
prints the median microseconds per call of both and their difference (the
budget is 1 us: ``Link.__call__`` checks for hooks and dispatches to
``forward``). It also times the call while a link hook is registered, where
the hook callbacks run.

    python benchmarks/bench_link_call.py [--repeat 30] [--number 20000]
"""
import argparse
import statistics
import time

import numpy as np

import chainer
import chainer.functions as F


class Wrap(chainer.Link):

    def forward(self, x):
        return F.identity(x)


def per_call_us(fn, x, number, repeat):
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn(x)
        samples.append((time.perf_counter() - t0) / number * 1e6)
    return statistics.median(samples)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--repeat', type=int, default=30)
    parser.add_argument('--number', type=int, default=20000)
    args = parser.parse_args()

    x = chainer.Variable(np.ones((10, 10), np.float32))
    link = Wrap()
    for fn in (F.identity, link):     # warm up
        per_call_us(fn, x, 1000, 1)
    # Interleave the measurements so that machine noise hits both alike.
    bare, wrapped = [], []
    for _ in range(args.repeat):
        bare.append(per_call_us(F.identity, x, args.number, 1))
        wrapped.append(per_call_us(link, x, args.number, 1))
    b, w = statistics.median(bare), statistics.median(wrapped)
    print(f'F.identity(x)          {b:7.3f} us/call')
    print(f'link(x) -> F.identity  {w:7.3f} us/call')
    print(f'Link.__call__ overhead {w - b:7.3f} us/call (budget 1 us)')

    link.add_hook(chainer.LinkHook())
    h = per_call_us(link, x, args.number, args.repeat)
    print(f'with a local link hook {h:7.3f} us/call')


if __name__ == '__main__':
    main()
