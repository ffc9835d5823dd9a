"""Time of one MLP training step (forward, backward, optimizer update).

Two cases, as the optimizers issue sets them:

- small: 784-100-100-10, Adam, batch 32 -- bound by per-call overhead;
- large: 784-1000-1000-10, MomentumSGD, batch 256 -- bound by BLAS.

Each runs through rechainer (the ``chainer`` this Python imports), through the
original Chainer 7.8.1 when its reference install is found (``--reference
PYTHON``, or ``~/.cache/chainer-7.8.1-reference/bin/python`` built by
``../shared/reference/setup``), and as a NumPy floor: the same step written by
hand (matrix products, ReLU, softmax cross entropy and the update rule, in
place). It prints median milliseconds per step and the ratios.

    python benchmarks/bench_training_step.py [--steps 200] [--reference PYTHON]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np

CASES = {
    'small': dict(units=(784, 100, 100, 10), batch=32, optimizer='Adam'),
    'large': dict(units=(784, 1000, 1000, 10), batch=256, optimizer='MomentumSGD'),
}


def _data(units, batch, seed=0):
    rng = np.random.RandomState(seed)
    x = rng.rand(batch, units[0]).astype(np.float32)
    t = rng.randint(0, units[-1], batch).astype(np.int32)
    return x, t


def _median_ms(step, steps, warmup=10):
    for _ in range(warmup):
        step()
    times = []
    for _ in range(steps):
        start = time.perf_counter()
        step()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def run_chainer(case, steps):
    """One training step with whichever ``chainer`` is importable (rechainer or Chainer 7)."""
    import chainer
    import chainer.functions as F
    import chainer.links as L

    units, batch = case['units'], case['batch']

    class MLP(chainer.ChainList):
        def __init__(self):
            super().__init__(*[L.Linear(a, b) for a, b in zip(units[:-1], units[1:])])

        def forward(self, x):
            for layer in self[:-1]:
                x = F.relu(layer(x))
            return self[-1](x)

    np.random.seed(0)
    model = MLP()
    opt = getattr(chainer.optimizers, case['optimizer'])()
    opt.setup(model)
    x, t = _data(units, batch)

    def lossfun():
        return F.softmax_cross_entropy(model(x), t)

    return _median_ms(lambda: opt.update(lossfun), steps)


def run_numpy(case, steps):
    """The same step by hand: the floor for any framework on this machine."""
    units, batch = case['units'], case['batch']
    rng = np.random.RandomState(0)
    Ws = [rng.normal(0, np.sqrt(1 / a), (b, a)).astype(np.float32)
          for a, b in zip(units[:-1], units[1:])]
    bs = [np.zeros(b, np.float32) for b in units[1:]]
    params = [p for pair in zip(Ws, bs) for p in pair]
    state = [[np.zeros_like(p) for p in params] for _ in range(2)]
    x, t = _data(units, batch)
    onehot = np.eye(units[-1], dtype=np.float32)[t]
    adam = case['optimizer'] == 'Adam'
    count = [0]

    def step():
        hs = [x]
        for i, (W, b) in enumerate(zip(Ws, bs)):
            h = hs[-1] @ W.T
            h += b
            if i < len(Ws) - 1:
                np.maximum(h, 0, out=h)
            hs.append(h)
        y = hs[-1]
        y -= y.max(axis=1, keepdims=True)
        np.exp(y, out=y)
        y /= y.sum(axis=1, keepdims=True)
        gy = (y - onehot) / batch
        gWs, gbs = [None] * len(Ws), [None] * len(Ws)
        for i in range(len(Ws) - 1, -1, -1):
            gWs[i] = gy.T @ hs[i]
            gbs[i] = gy.sum(axis=0)
            if i:
                gy = gy @ Ws[i]
                gy *= hs[i] > 0
        grads = [g for pair in zip(gWs, gbs) for g in pair]
        count[0] += 1
        tt = count[0]
        for p, g, m, v in zip(params, grads, state[0], state[1]):
            if adam:
                m += 0.1 * (g - m)
                v += 0.001 * (g * g - v)
                alpha_t = 0.001 * np.sqrt(1 - 0.999 ** tt) / (1 - 0.9 ** tt)
                d = np.sqrt(v)
                d += 1e-8
                np.divide(m, d, out=d)
                d *= alpha_t
                p -= d
            else:
                m *= 0.9
                m -= 0.01 * g
                p += m

    return _median_ms(step, steps)


def _reference_python(arg):
    if arg:
        return arg
    default = os.path.expanduser('~/.cache/chainer-7.8.1-reference/bin/python')
    return default if os.path.exists(default) else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--steps', type=int, default=100)
    parser.add_argument('--reference', default=None, help='python of Chainer 7.8.1')
    parser.add_argument('--worker', default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(run_chainer(CASES[args.worker], args.steps)))
        return

    ref = _reference_python(args.reference)
    print(f'{"case":6} {"numpy ms":>9} {"rechainer":>10} {"chainer7":>9} '
          f'{"re/numpy":>9} {"re/chainer7":>12}')
    for name, case in CASES.items():
        floor = run_numpy(case, args.steps)
        ours = run_chainer(case, args.steps)
        theirs = None
        if ref:
            out = subprocess.run([ref, os.path.abspath(__file__), '--worker', name,
                                  '--steps', str(args.steps)], capture_output=True, text=True)
            if out.returncode == 0:
                theirs = json.loads(out.stdout.strip().splitlines()[-1])
            else:
                print(f'reference run failed: {out.stderr.strip().splitlines()[-1:]}')
        ratio = f'{ours / theirs:12.2f}' if theirs else f'{"-":>12}'
        theirs_s = f'{theirs:9.3f}' if theirs else f'{"-":>9}'
        print(f'{name:6} {floor:9.3f} {ours:10.3f} {theirs_s} {ours / floor:9.2f} {ratio}')


if __name__ == '__main__':
    main()
