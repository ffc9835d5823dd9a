"""A tiny regression training used by the training tests (only L.Linear and F basics)."""
import numpy

import chainer
from chainer import functions as F
from chainer import links as L
from chainer import training


class Regressor(chainer.Chain):
    """Linear regression with a squared loss reported as ``main/loss``."""

    def __init__(self, n_in=3, n_out=2):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(n_in, 4)
            self.l2 = L.Linear(4, n_out)

    def forward(self, x, t):
        y = self.l2(F.tanh(self.l1(x)))
        loss = F.sum(F.square(y - t)) / len(x)
        chainer.report({'loss': loss}, self)
        return loss


def dataset(n=12, seed=0):
    rng = numpy.random.RandomState(seed)
    x = rng.uniform(-1, 1, (n, 3)).astype(numpy.float32)
    t = rng.uniform(-1, 1, (n, 2)).astype(numpy.float32)
    return chainer.datasets.TupleDataset(x, t)


def make_trainer(out, stop=(3, 'epoch'), batch=4, shuffle=True, seed=0, lr=0.1):
    """Returns ``(trainer, model, optimizer)`` of a deterministic small training."""
    numpy.random.seed(seed)
    model = Regressor()
    optimizer = chainer.optimizers.MomentumSGD(lr=lr)
    optimizer.setup(model)
    it = chainer.iterators.SerialIterator(dataset(), batch, shuffle=shuffle)
    updater = training.updaters.StandardUpdater(it, optimizer)
    return training.Trainer(updater, stop, out=out), model, optimizer


def params_of(model):
    return {name: p.array.copy() for name, p in model.namedparams() if p.array is not None}
