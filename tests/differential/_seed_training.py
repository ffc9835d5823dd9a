"""A seeded training run through a Trainer, for the same-seed comparison.

    python _seed_training.py WORKDIR JOB [JOB ...]

A job is ``full:<kind>`` (20 iterations), ``first:<kind>`` (10 iterations, then a snapshot
``WORKDIR/<kind>-<framework>.snapshot``) or ``resume:<kind>:<snapshot>`` (reseed
differently, build everything again, load the snapshot, carry on to 20 iterations); ``kind``
names the iterator (``serial`` or ``thread``). Each job writes ``WORKDIR/<job>-<framework>.npz``
with the parameters, the log and the next number NumPy's global generator gives. The model has
dropout and the iterator shuffles, so every random draw of a training step is exercised. It
imports only NumPy and chainer: both frameworks run this file as it is.
"""
import os
import sys
import warnings

import numpy

import chainer
from chainer import functions as F
from chainer import links as L
from chainer import training
from chainer.training import extensions

ITERATIONS = 20
SNAPSHOT_AT = 10


class MLP(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(5, 16)
            self.l2 = L.Linear(16, 16)
            self.l3 = L.Linear(16, 3)

    def forward(self, x):
        h = F.dropout(F.relu(self.l1(x)), 0.3)
        h = F.dropout(F.relu(self.l2(h)), 0.5)
        return self.l3(h)


def framework():
    """``rechainer`` or ``chainer``: which one this interpreter runs."""
    from importlib import metadata
    try:
        metadata.version('rechainer')
    except metadata.PackageNotFoundError:
        return 'chainer'
    return 'rechainer'


def build(kind, out):
    rs = numpy.random.RandomState(7)  # the data: not from the global generator
    x = rs.uniform(-1, 1, (50, 5)).astype(numpy.float32)
    t = (x[:, 0] + x[:, 1] > 0).astype(numpy.int32) + (x[:, 2] > 0.5).astype(numpy.int32)
    dataset = chainer.datasets.TupleDataset(x, t)
    model = L.Classifier(MLP())
    optimizer = chainer.optimizers.MomentumSGD(lr=0.1)
    optimizer.setup(model)
    optimizer.add_hook(chainer.optimizer_hooks.WeightDecay(1e-4))
    if kind == 'serial':
        iterator = chainer.iterators.SerialIterator(dataset, 7)
    else:
        iterator = chainer.iterators.MultithreadIterator(dataset, 7, n_threads=2)
    updater = training.updaters.StandardUpdater(iterator, optimizer)
    trainer = training.Trainer(updater, (ITERATIONS, 'iteration'), out=out)
    trainer.extend(extensions.LogReport(trigger=(5, 'iteration'), log_name=None))
    return trainer, model


def _peek():
    state = numpy.random.get_state()
    value = numpy.random.random_sample()
    numpy.random.set_state(state)
    return value


def run_job(workdir, job):
    mode, kind, *rest = job.split(':', 2)
    out = os.path.join(workdir, 'out-' + framework())
    if mode == 'resume':
        numpy.random.seed(123)  # another process: the global generator is elsewhere
    else:
        numpy.random.seed(0)
    trainer, model = build(kind, out)
    if mode == 'first':
        trainer.stop_trigger = training.triggers.IntervalTrigger(SNAPSHOT_AT, 'iteration')
    elif mode == 'resume':
        chainer.serializers.load_npz(rest[0], trainer)
    trainer.run()
    if mode == 'first':
        chainer.serializers.save_npz(
            os.path.join(workdir, f'{kind}-{framework()}.snapshot'), trainer)
    result = {'param/' + name: p.array for name, p in sorted(model.namedparams())}
    result['next'] = numpy.array(_peek())
    result['iteration'] = numpy.array(trainer.updater.iteration)
    log = trainer.get_extension('LogReport').log
    result['log/main/loss'] = numpy.array([entry['main/loss'] for entry in log])
    result['log/main/accuracy'] = numpy.array([entry['main/accuracy'] for entry in log])
    if hasattr(trainer.updater.get_iterator('main'), 'finalize'):
        trainer.updater.get_iterator('main').finalize()
    name = job.split(':')[0] + '-' + kind + ('-from-' + os.path.basename(rest[0])
                                            if rest else '')
    numpy.savez(os.path.join(workdir, f'{name}-{framework()}.npz'), **result)


def main(workdir, jobs):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        for job in jobs:
            run_job(workdir, job)


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2:])
