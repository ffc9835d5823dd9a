#!/usr/bin/env python
"""Moves the MNIST example's trained model to PyTorch, and evaluates it there.

First train (examples/mnist/train_mnist.py writes a trainer snapshot to result/), then:

    python examples/migrate/mnist_to_torch.py result/snapshot_iter_300

The script converts the model in the snapshot (its entries under
``updater/model:main/predictor/``) to a PyTorch ``state_dict`` file with
``chainer.tools.convert_checkpoint``, which is the same as

    python -m chainer.tools.convert_checkpoint result/snapshot_iter_300 result/mlp.pt \\
        --prefix updater/model:main/predictor/

loads it into the same MLP written in PyTorch, and evaluates both models on the test
images: the accuracies are the same. It then converts the PyTorch weights back to a Chainer
``.npz`` (``result/mlp.npz``) and checks that Chainer predicts with them as before, so a
model can go on in either framework. Needs PyTorch (``pip install torch``; the README says
how to get the CPU-only wheel).
"""
import argparse
import glob
import importlib.util
import os
import re
import sys

import numpy as np

import chainer
from chainer.tools import convert_checkpoint

HERE = os.path.dirname(os.path.abspath(__file__))
PREFIX = 'updater/model:main/predictor/'


def _train_mnist():
    # The MNIST example's MLP and data sets, from its script.
    path = os.path.join(HERE, '..', 'mnist', 'train_mnist.py')
    spec = importlib.util.spec_from_file_location('train_mnist', path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def latest_snapshot(folder):
    """The snapshot of ``folder`` with the highest iteration, or None."""
    found = glob.glob(os.path.join(folder, 'snapshot_iter_*'))
    numbered = [(int(m.group(1)), p) for p in found
                if (m := re.search(r'snapshot_iter_(\d+)$', p))]
    return max(numbered)[1] if numbered else None


def torch_mlp(state_dict):
    """The MNIST example's MLP in PyTorch, sized from the converted weights."""
    import torch
    from torch import nn

    class MLP(nn.Module):
        def __init__(self, n_in, n_units, n_out):
            super().__init__()
            self.l1 = nn.Linear(n_in, n_units)
            self.l2 = nn.Linear(n_units, n_units)
            self.l3 = nn.Linear(n_units, n_out)

        def forward(self, x):
            h1 = torch.relu(self.l1(x))
            h2 = torch.relu(self.l2(h1))
            return self.l3(h2)

    n_units, n_in = state_dict['l1.weight'].shape
    model = MLP(n_in, n_units, state_dict['l3.weight'].shape[0])
    model.load_state_dict(state_dict)       # strict: every weight, nothing else
    return model.eval()


def chainer_logits(predictor, x, batchsize):
    with chainer.using_config('train', False), chainer.no_backprop_mode():
        return np.concatenate([predictor(x[i:i + batchsize]).array
                               for i in range(0, len(x), batchsize)])


def torch_logits(model, x, batchsize):
    import torch
    with torch.no_grad():
        return np.concatenate([model(torch.from_numpy(x[i:i + batchsize])).numpy()
                               for i in range(0, len(x), batchsize)])


def main(argv=None):
    parser = argparse.ArgumentParser(description='rechainer example: move the MNIST '
                                                 "example's model to PyTorch")
    parser.add_argument('snapshot', nargs='?',
                        help='trainer snapshot of examples/mnist/train_mnist.py (default: the '
                             'latest one in --result)')
    parser.add_argument('--result', default='result',
                        help="train_mnist.py's --out folder, where the output goes too")
    parser.add_argument('--dataset', choices=('digits', 'mnist', 'fashion-mnist'),
                        default='digits', help='the data set the model was trained on')
    parser.add_argument('--batchsize', '-b', type=int, default=100)
    args = parser.parse_args(argv)
    try:
        import torch
    except ImportError:
        sys.exit('this example needs PyTorch: pip install torch (the README says how to get '
                 'the CPU-only wheel)')

    snapshot = args.snapshot or latest_snapshot(args.result)
    if snapshot is None or not os.path.exists(snapshot):
        sys.exit(f'no snapshot found ({snapshot or args.result + "/snapshot_iter_*"}); train '
                 f'first: python examples/mnist/train_mnist.py --out {args.result}')
    os.makedirs(args.result, exist_ok=True)
    mnist = _train_mnist()
    _, test = mnist.get_dataset(args.dataset)
    x, t = (np.asarray(a) for a in test._datasets)

    # 1. Chainer -> PyTorch, as the command line does.
    pt = os.path.join(args.result, 'mlp.pt')
    convert_checkpoint.convert(snapshot, pt, prefix=PREFIX)
    print(f'converted {snapshot} -> {pt}')
    print(f'  (python -m chainer.tools.convert_checkpoint {snapshot} {pt} --prefix {PREFIX})')
    model = torch_mlp(torch.load(pt, weights_only=True))

    # 2. Evaluate both on the test images.
    n_units = model.l1.out_features
    predictor = mnist.MLP(n_units, model.l3.out_features)
    chainer.serializers.load_npz(snapshot, predictor, path=PREFIX)
    y_chainer = chainer_logits(predictor, x, args.batchsize)
    y_torch = torch_logits(model, x, args.batchsize)
    acc_chainer = float((y_chainer.argmax(1) == t).mean())
    acc_torch = float((y_torch.argmax(1) == t).mean())
    print(f'test accuracy: Chainer {acc_chainer:.4f}, PyTorch {acc_torch:.4f} '
          f'({len(t)} images; largest logit difference '
          f'{np.abs(y_chainer - y_torch).max():.2e})')

    # 3. And back: the PyTorch weights as a Chainer .npz.
    back = os.path.join(args.result, 'mlp.npz')
    convert_checkpoint.convert(pt, back)
    again = mnist.MLP(n_units, model.l3.out_features)
    chainer.serializers.load_npz(back, again)
    same = np.array_equal(chainer_logits(again, x, args.batchsize), y_chainer)
    print(f'converted back {pt} -> {back}: Chainer predicts {"the same" if same else "OTHERWISE"}')
    if acc_chainer != acc_torch or not same:
        print('the conversion changed the model', file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
