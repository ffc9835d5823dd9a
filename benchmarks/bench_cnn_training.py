"""Time of one training step of the LeNet-like CNN (forward, backward, Adam update).

The model: conv 1->32 3x3, relu, max-pool 2, conv 32->64 3x3, relu, max-pool 2,
linear ->128, relu, linear ->10, on 28x28 single-channel images, batch 64, Adam
(softmax cross entropy). It runs through rechainer (the ``chainer`` this Python
imports), through the original Chainer 7.8.1 when its reference install is found
(``--reference PYTHON``, or ``~/.cache/chainer-7.8.1-reference/bin/python``), and
through PyTorch's CPU build when ``torch`` is importable (same threads as NumPy's
BLAS may use). It prints median milliseconds per step and the ratios.

    python benchmarks/bench_cnn_training.py [--steps 30] [--reference PYTHON]

On a shared or loaded machine pin BLAS to one thread (``OPENBLAS_NUM_THREADS=1``,
inherited by the Chainer 7 run): multi-threaded GEMMs that compete for the cores
swing the step time of either library by 2-5x from run to run.
"""
import argparse
import json
import os
import subprocess

import numpy as np

# Shared with the MLP benchmark (this folder is on sys.path when a script runs).
from bench_training_step import _median_ms
from bench_training_step import _reference_python

BATCH = 64


def _data(seed=0):
    rng = np.random.RandomState(seed)
    x = rng.rand(BATCH, 1, 28, 28).astype(np.float32)
    t = rng.randint(0, 10, BATCH).astype(np.int32)
    return x, t


def run_chainer(steps):
    """One training step with whichever ``chainer`` is importable (rechainer or Chainer 7)."""
    import chainer
    import chainer.functions as F
    import chainer.links as L

    class CNN(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.conv1 = L.Convolution2D(1, 32, 3)
                self.conv2 = L.Convolution2D(32, 64, 3)
                self.fc1 = L.Linear(None, 128)     # 64 x 6 x 6 (pooling covers all)
                self.fc2 = L.Linear(128, 10)

        def forward(self, x):
            h = F.max_pooling_2d(F.relu(self.conv1(x)), 2)
            h = F.max_pooling_2d(F.relu(self.conv2(h)), 2)
            return self.fc2(F.relu(self.fc1(h)))

    np.random.seed(0)
    model = CNN()
    opt = chainer.optimizers.Adam()
    opt.setup(model)
    x, t = _data()

    def lossfun():
        return F.softmax_cross_entropy(model(x), t)

    return _median_ms(lambda: opt.update(lossfun), steps, warmup=3)


def run_torch(steps):
    """The same model and step in PyTorch (CPU), or None when it is not installed."""
    try:
        import torch
    except ImportError:
        return None
    nn = torch.nn
    torch.manual_seed(0)
    model = nn.Sequential(
        nn.Conv2d(1, 32, 3), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(32, 64, 3), nn.ReLU(), nn.MaxPool2d(2, ceil_mode=True),
        nn.Flatten(), nn.Linear(64 * 6 * 6, 128), nn.ReLU(), nn.Linear(128, 10))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    x, t = _data()
    x, t = torch.from_numpy(x), torch.from_numpy(t).long()
    lossfun = nn.CrossEntropyLoss()

    def step():
        opt.zero_grad()
        lossfun(model(x), t).backward()
        opt.step()

    return _median_ms(step, steps, warmup=3)


def _run_reference(ref, steps):
    out = subprocess.run([ref, os.path.abspath(__file__), '--worker', '--steps', str(steps)],
                         capture_output=True, text=True)
    if out.returncode != 0:
        print(f'reference run failed: {out.stderr.strip().splitlines()[-1:]}')
        return None
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--steps', type=int, default=30)
    parser.add_argument('--reference', default=None, help='python of Chainer 7.8.1')
    parser.add_argument('--worker', action='store_true', help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(run_chainer(args.steps)))
        return

    ours = run_chainer(args.steps)
    ref = _reference_python(args.reference)
    theirs = _run_reference(ref, args.steps) if ref else None
    torch_ms = run_torch(args.steps)

    def cell(v):
        return f'{v:10.2f}' if v is not None else f'{"-":>10}'

    def ratio(v):
        return f'{ours / v:10.2f}' if v else f'{"-":>10}'

    print(f'LeNet-like CNN training step, batch {BATCH}, Adam (median ms of {args.steps})')
    print(f'{"rechainer":>10} {"chainer7":>10} {"torch":>10} {"re/ch7":>10} {"re/torch":>10}')
    print(f'{ours:10.2f} {cell(theirs)} {cell(torch_ms)} {ratio(theirs)} {ratio(torch_ms)}')
    if torch_ms is None:
        print('(PyTorch is not installed: no PyTorch figure)')


if __name__ == '__main__':
    main()
