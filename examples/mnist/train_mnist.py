#!/usr/bin/env python
"""Trains a multi-layer perceptron on handwritten digits with chainer.training.

The command line is that of Chainer 7's MNIST example, plus ``--dataset``:

- ``digits`` (the default): the 1,797 8x8 digits that scikit-learn ships
  (``pip install 'rechainer[examples]'``), split into 1,497 training and 300
  test images with a fixed seed. Needs no download; trains in seconds on 2 cores.
- ``mnist``: MNIST from the dataset cache (``$CHAINER_DATASET_ROOT``, by default
  ``~/.chainer/dataset``), downloaded when missing.
- ``fashion-mnist``: Fashion-MNIST from the cache, else from Debian's
  ``dataset-fashion-mnist`` package (``apt-get install dataset-fashion-mnist``).

Writes the log (``<out>/log``, JSON), the plots (``loss.png``, ``accuracy.png``),
the computational graph (``cg.dot``) and a snapshot of the trainer
(``snapshot_iter_<n>``) to ``--out``; ``--resume <snapshot>`` continues from one.
"""
import argparse
import sys
import time

import numpy as np

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import training
from chainer.training import extensions


class MLP(chainer.Chain):
    """Two hidden ReLU layers; the input size is fixed by the first batch."""

    def __init__(self, n_units, n_out):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(None, n_units)
            self.l2 = L.Linear(None, n_units)
            self.l3 = L.Linear(None, n_out)

    def forward(self, x):
        h1 = F.relu(self.l1(x))
        h2 = F.relu(self.l2(h1))
        return self.l3(h2)


# The split of scikit-learn's digits: the same 300 test images on every run.
DIGITS_TEST_SIZE = 300
DIGITS_SEED = 0


def get_digits():
    """Returns ``(train, test)`` TupleDatasets of scikit-learn's 8x8 digits.

    Images are flat float32 vectors of 64 values in [0, 1], labels int32.
    """
    try:
        from sklearn.datasets import load_digits
    except ImportError:
        sys.exit("--dataset digits needs scikit-learn: pip install 'rechainer[examples]' "
                 '(or pip install scikit-learn)')
    digits = load_digits()
    x = (digits.data / 16.).astype(np.float32)        # pixel values are 0..16
    t = digits.target.astype(np.int32)
    order = np.random.RandomState(DIGITS_SEED).permutation(len(x))
    train, test = order[:-DIGITS_TEST_SIZE], order[-DIGITS_TEST_SIZE:]
    return (chainer.datasets.TupleDataset(x[train], t[train]),
            chainer.datasets.TupleDataset(x[test], t[test]))


def get_dataset(name):
    if name == 'digits':
        return get_digits()
    loader = {'mnist': chainer.datasets.get_mnist,
              'fashion-mnist': chainer.datasets.get_fashion_mnist}[name]
    try:
        return loader()
    except Exception as e:  # offline without the files: say where they are looked for
        root = chainer.dataset.get_dataset_root()
        hint = (' or install Debian\'s dataset-fashion-mnist package'
                if name == 'fashion-mnist' else '')
        sys.exit(f'--dataset {name}: the dataset is not in the cache under {root} and '
                 f'could not be downloaded ({type(e).__name__}: {e}); put it there{hint}, '
                 'or use --dataset digits')


def main(argv=None):
    parser = argparse.ArgumentParser(description='rechainer example: MNIST')
    parser.add_argument('--batchsize', '-b', type=int, default=100,
                        help='number of images in each mini-batch')
    parser.add_argument('--epoch', '-e', type=int, default=20,
                        help='number of sweeps over the dataset to train')
    parser.add_argument('--frequency', '-f', type=int, default=-1,
                        help='frequency of taking a snapshot, in epochs (-1: at the end)')
    parser.add_argument('--device', '-d', type=str, default='-1',
                        help='device specifier: @numpy, @cupy:N, or an integer (a '
                             'non-negative one is that GPU, a negative one NumPy)')
    parser.add_argument('--out', '-o', default='result',
                        help='directory to output the result')
    parser.add_argument('--resume', '-r', type=str,
                        help='resume the training from this snapshot')
    parser.add_argument('--autoload', action='store_true',
                        help='resume from the latest snapshot in --out if there is one '
                             '(after preemption or other temporary failure)')
    parser.add_argument('--unit', '-u', type=int, default=300,
                        help='number of units in each hidden layer (1000 in Chainer\'s MNIST '
                             'example; 300 are plenty for 8x8 digits)')
    parser.add_argument('--noplot', dest='plot', action='store_false',
                        help='disable the PlotReport extension')
    parser.add_argument('--dataset', choices=('digits', 'mnist', 'fashion-mnist'),
                        default='digits',
                        help="digits: scikit-learn's 8x8 digits (default, no download); "
                             'mnist, fashion-mnist: 28x28 images from the dataset cache')
    group = parser.add_argument_group('deprecated arguments')
    group.add_argument('--gpu', '-g', dest='device', type=int, nargs='?', const=0,
                       help='GPU ID (negative value indicates CPU)')
    args = parser.parse_args(argv)

    device = chainer.get_device(args.device)
    print(f'Device: {device}')
    print(f'# dataset: {args.dataset}')
    print(f'# unit: {args.unit}')
    print(f'# Minibatch-size: {args.batchsize}')
    print(f'# epoch: {args.epoch}')
    print('')

    # Classifier reports the softmax cross entropy loss and the accuracy of
    # every call, for the updater ('main/...') and the Evaluator ('validation/...').
    model = L.Classifier(MLP(args.unit, 10))
    model.to_device(device)
    device.use()

    optimizer = chainer.optimizers.Adam()
    optimizer.setup(model)

    train, test = get_dataset(args.dataset)
    train_iter = chainer.iterators.SerialIterator(train, args.batchsize)
    test_iter = chainer.iterators.SerialIterator(test, args.batchsize, repeat=False,
                                                 shuffle=False)

    updater = training.updaters.StandardUpdater(train_iter, optimizer, device=device)
    trainer = training.Trainer(updater, (args.epoch, 'epoch'), out=args.out)

    trainer.extend(extensions.Evaluator(test_iter, model, device=device),
                   call_before_training=True)
    trainer.extend(extensions.DumpGraph('main/loss'))

    # One snapshot every `frequency` epochs, only the newest kept; with
    # --autoload the trainer starts from it when there is one.
    frequency = args.epoch if args.frequency == -1 else max(1, args.frequency)
    trainer.extend(extensions.snapshot(n_retains=1, autoload=args.autoload),
                   trigger=(frequency, 'epoch'))

    trainer.extend(extensions.LogReport(), call_before_training=True)
    if args.plot and extensions.PlotReport.available():
        trainer.extend(extensions.PlotReport(['main/loss', 'validation/main/loss'], 'epoch',
                                             file_name='loss.png'),
                       call_before_training=True)
        trainer.extend(extensions.PlotReport(['main/accuracy', 'validation/main/accuracy'],
                                             'epoch', file_name='accuracy.png'),
                       call_before_training=True)
    trainer.extend(extensions.PrintReport(
        ['epoch', 'main/loss', 'validation/main/loss', 'main/accuracy',
         'validation/main/accuracy', 'elapsed_time']), call_before_training=True)
    trainer.extend(extensions.ProgressBar())

    if args.resume is not None:
        # --autoload, when it finds a snapshot in --out, wins over this one.
        chainer.serializers.load_npz(args.resume, trainer)

    start = time.perf_counter()
    trainer.run()
    took = time.perf_counter() - start

    accuracy = trainer.observation.get('validation/main/accuracy')
    if accuracy is not None:
        print(f'test accuracy: {float(accuracy):.4f} (training took {took:.1f} s, '
              f'iteration {updater.iteration})')
    return trainer


if __name__ == '__main__':
    main()
