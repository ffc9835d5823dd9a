#!/usr/bin/env python
"""A short tour of rechainer's define-by-run autograd.

Fits y = 2 x^3 - x + 0.5 with a cubic polynomial by plain gradient descent written with
Variables, then checks a second-order gradient. Runs in about a second on a CPU. (The MNIST
training example replaces this as the project's main job once links and optimizers exist.)

    python examples/autograd_demo.py [--steps N]
"""
import argparse

import numpy as np

import chainer
import chainer.functions as F


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--steps', type=int, default=2000, help='gradient-descent steps')
    parser.add_argument('--lr', type=float, default=0.5, help='learning rate')
    args = parser.parse_args()

    rng = np.random.RandomState(0)
    x = rng.uniform(-1, 1, (64,)).astype(np.float32)
    t = (2 * x ** 3 - x + 0.5).astype(np.float32)
    coef = chainer.Variable(np.zeros(4, np.float32), name='coef')
    powers = np.stack([x ** k for k in range(4)], axis=1)      # (64, 4)

    for step in range(args.steps + 1):
        pred = F.matmul(powers, coef)
        loss = F.sum((pred - t) ** 2) / len(x)
        coef.cleargrad()
        loss.backward()
        coef.array -= args.lr * coef.grad
        if step % 500 == 0:
            print(f'step {step:4d}  loss {float(loss.array):.6f}')
    print('fitted coefficients (c0..c3):', np.round(coef.array, 3))

    # Second order: d/dz of (d/dz z^3) = 6 z.
    z = chainer.Variable(np.array([1.5], np.float32))
    gz, = chainer.grad([F.sum(z ** 3)], [z], enable_double_backprop=True)
    ggz, = chainer.grad([F.sum(gz)], [z])
    print(f'd2/dz2 z^3 at z=1.5: {float(ggz.array[0]):.3f} (expected 9.000)')
    if float(loss.array) > 1e-3:
        raise SystemExit('the fit did not converge')


if __name__ == '__main__':
    main()
