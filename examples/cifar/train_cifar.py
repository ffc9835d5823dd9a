#!/usr/bin/env python
"""A VGG-like convolutional network with batch normalization and dropout on CIFAR.

The command line is that of Chainer 7's CIFAR example (``--device`` defaults to the CPU
here), plus ``--channels`` (the width of the first block; 64 is VGG-16's) and
``--synthetic``. CIFAR-10/100 are read from the dataset cache
(``$CHAINER_DATASET_ROOT/pfnet/chainer/cifar``); when the chosen one is not there, a small
synthetic set of the same shapes is used instead (3x32x32 float32 images, int32 labels),
whose classes differ by colour patterns that a small network learns in a few epochs.
"""
import argparse
import os

import numpy as np

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import training
from chainer.training import extensions
from chainer.training import triggers


class Block(chainer.Chain):
    """3x3 convolution (no bias: batch normalization follows), BN, ReLU."""

    def __init__(self, out_channels):
        super().__init__()
        with self.init_scope():
            self.conv = L.Convolution2D(None, out_channels, 3, pad=1, nobias=True)
            self.bn = L.BatchNormalization(out_channels)

    def forward(self, x):
        return F.relu(self.bn(self.conv(x)))


class VGG(chainer.Chain):
    """VGG-16's layout for 32x32 images: five groups of 2, 2, 3, 3, 3 blocks, each group
    ending in 2x2 max pooling, dropout inside the groups, then two linear layers.

    The dropout ratios are VGG-16's at 64 channels and shrink in proportion below that:
    a narrow network with VGG-16's dropout does not learn at all.
    """

    # (width multiplier, blocks, dropout ratio after each block but the last of a group)
    GROUPS = ((1, 2, 0.3), (2, 2, 0.4), (4, 3, 0.4), (8, 3, 0.4), (8, 3, 0.4))

    def __init__(self, class_labels=10, channels=64):
        super().__init__()
        self.layout = []
        self.dropout_scale = min(1., channels / 64)
        with self.init_scope():
            for g, (mult, n, _) in enumerate(self.GROUPS):
                for b in range(n):
                    name = f'block{g + 1}_{b + 1}'
                    setattr(self, name, Block(channels * mult))
                    self.layout.append(name)
            self.fc1 = L.Linear(None, channels * 8, nobias=True)
            self.bn_fc1 = L.BatchNormalization(channels * 8)
            self.fc2 = L.Linear(None, class_labels, nobias=True)

    def forward(self, x):
        h = x
        i = 0
        for mult, n, ratio in self.GROUPS:
            for b in range(n):
                h = getattr(self, self.layout[i])(h)
                i += 1
                if b < n - 1:
                    h = F.dropout(h, ratio * self.dropout_scale)
            h = F.max_pooling_2d(h, ksize=2, stride=2)
        h = F.dropout(h, 0.5 * self.dropout_scale)
        h = F.relu(self.bn_fc1(self.fc1(h)))
        h = F.dropout(h, 0.5 * self.dropout_scale)
        return self.fc2(h)


def synthetic_cifar(n_train=1000, n_test=200, class_labels=10, seed=0):
    """``(train, test)`` shaped as ``get_cifar10()``'s: each class has its own colour
    and a coarse random pattern; an image is its class's, shifted by up to 2 pixels,
    plus noise."""
    rng = np.random.RandomState(seed)
    colours = rng.uniform(0.2, 0.8, (class_labels, 3, 1, 1)).astype(np.float32)
    coarse = rng.uniform(-0.2, 0.2, (class_labels, 3, 4, 4)).astype(np.float32)
    patterns = colours + coarse.repeat(8, axis=2).repeat(8, axis=3)  # (C, 3, 32, 32)

    def make(n):
        labels = rng.randint(0, class_labels, n).astype(np.int32)
        shifts = rng.randint(-2, 3, (n, 2))
        images = np.empty((n, 3, 32, 32), np.float32)
        for i, (label, (dy, dx)) in enumerate(zip(labels, shifts)):
            images[i] = np.roll(patterns[label], (dy, dx), axis=(1, 2))
        images += rng.normal(0, 0.1, images.shape).astype(np.float32)
        np.clip(images, 0, 1, out=images)
        return chainer.datasets.TupleDataset(images, labels)

    return make(n_train), make(n_test)


def cifar_in_cache(name):
    directory = chainer.dataset.get_dataset_directory(
        os.path.join('pfnet', 'chainer', 'cifar'), create_directory=False)
    return os.path.exists(os.path.join(directory, f'{name}.npz'))


def get_dataset(name, synthetic):
    class_labels = 100 if name == 'cifar100' else 10
    cache_name = 'cifar-100' if name == 'cifar100' else 'cifar-10'
    if not synthetic and cifar_in_cache(cache_name):
        loader = (chainer.datasets.get_cifar100 if name == 'cifar100'
                  else chainer.datasets.get_cifar10)
        print(f'Using {name} from the dataset cache.')
        train, test = loader()
    else:
        if not synthetic:
            print(f'{name} is not in the dataset cache; using a synthetic set of the same '
                  'shapes.')
        train, test = synthetic_cifar(class_labels=class_labels)
    return class_labels, train, test


def main(argv=None):
    parser = argparse.ArgumentParser(description='rechainer example: CIFAR-10/100')
    parser.add_argument('--dataset', default='cifar10', choices=('cifar10', 'cifar100'),
                        help='the dataset to use: cifar10 or cifar100')
    parser.add_argument('--batchsize', '-b', type=int, default=64,
                        help='number of images in each mini-batch')
    parser.add_argument('--learnrate', '-l', type=float, default=0.05,
                        help='learning rate of the momentum SGD')
    parser.add_argument('--epoch', '-e', type=int, default=300,
                        help='number of sweeps over the dataset to train')
    parser.add_argument('--device', '-d', type=str, default='-1',
                        help='device specifier: @numpy, @cupy:N, or an integer (a '
                             'non-negative one is that GPU, a negative one NumPy)')
    parser.add_argument('--out', '-o', default='result',
                        help='directory to output the result')
    parser.add_argument('--resume', '-r', type=str,
                        help='resume the training from this snapshot')
    parser.add_argument('--early-stopping', type=str,
                        help='metric to watch for early stopping (e.g. validation/main/loss)')
    parser.add_argument('--channels', type=int, default=64,
                        help='channels of the first convolution group (VGG-16: 64)')
    parser.add_argument('--synthetic', action='store_true',
                        help='train on the synthetic set even when CIFAR is in the cache')
    parser.add_argument('--noplot', dest='plot', action='store_false',
                        help='disable the PlotReport extension')
    group = parser.add_argument_group('deprecated arguments')
    group.add_argument('--gpu', '-g', dest='device', type=int, nargs='?', const=0,
                       help='GPU ID (negative value indicates CPU)')
    args = parser.parse_args(argv)

    device = chainer.get_device(args.device)
    device.use()
    print(f'Device: {device}')
    print(f'# Minibatch-size: {args.batchsize}')
    print(f'# epoch: {args.epoch}')
    print('')

    class_labels, train, test = get_dataset(args.dataset, args.synthetic)
    model = L.Classifier(VGG(class_labels, args.channels))
    model.to_device(device)

    optimizer = chainer.optimizers.MomentumSGD(args.learnrate)
    optimizer.setup(model)
    optimizer.add_hook(chainer.optimizer_hooks.WeightDecay(5e-4))

    train_iter = chainer.iterators.SerialIterator(train, args.batchsize)
    test_iter = chainer.iterators.SerialIterator(test, args.batchsize, repeat=False,
                                                 shuffle=False)

    stop_trigger = (args.epoch, 'epoch')
    if args.early_stopping:
        stop_trigger = triggers.EarlyStoppingTrigger(monitor=args.early_stopping,
                                                     verbose=True,
                                                     max_trigger=(args.epoch, 'epoch'))

    updater = training.updaters.StandardUpdater(train_iter, optimizer, device=device)
    trainer = training.Trainer(updater, stop_trigger, out=args.out)
    trainer.extend(extensions.Evaluator(test_iter, model, device=device))
    # Halve the learning rate every 25 epochs.
    trainer.extend(extensions.ExponentialShift('lr', 0.5), trigger=(25, 'epoch'))
    trainer.extend(extensions.DumpGraph('main/loss'))
    trainer.extend(extensions.snapshot(filename='snapshot_epoch_{.updater.epoch}'))
    trainer.extend(extensions.LogReport())
    if args.plot and extensions.PlotReport.available():
        trainer.extend(extensions.PlotReport(['main/loss', 'validation/main/loss'], 'epoch',
                                             file_name='loss.png'))
        trainer.extend(extensions.PlotReport(['main/accuracy', 'validation/main/accuracy'],
                                             'epoch', file_name='accuracy.png'))
    trainer.extend(extensions.PrintReport(
        ['epoch', 'main/loss', 'validation/main/loss', 'main/accuracy',
         'validation/main/accuracy', 'elapsed_time']))
    trainer.extend(extensions.ProgressBar())

    if args.resume is not None:
        chainer.serializers.load_npz(args.resume, trainer)

    trainer.run()
    return trainer


if __name__ == '__main__':
    main()
