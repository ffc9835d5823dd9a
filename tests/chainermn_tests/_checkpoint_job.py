"""A data-parallel training job with the multi-node checkpointer, run under mpiexec by
test_checkpoint_kill.py.

    mpiexec -n 2 python _checkpoint_job.py OUT RESULT STOP [KILL_AT]

It trains a float64 MLP with Adam for STOP iterations, checkpointing every iteration into
OUT, after resuming from the newest checkpoint every rank has (it prints ``resumed from N``),
and writes each rank's final parameters to RESULT.<rank>.npz. With KILL_AT, the last rank
kills itself (SIGKILL) at that iteration, once rank 0 has written its checkpoint of it and
before writing its own: the ranks' newest checkpoints then differ.
"""
import os
import signal
import sys

import numpy

import chainer
import chainer.functions as F
import chainer.links as L
import chainermn
from chainer import training
from chainer.training import extension


class MLP(chainer.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(4, 16)
            self.l2 = L.Linear(16, 3)

    def forward(self, x):
        return self.l2(F.tanh(self.l1(x)))


def main():
    out, result, stop = sys.argv[1], sys.argv[2], int(sys.argv[3])
    kill_at = int(sys.argv[4]) if len(sys.argv) > 4 else None
    comm = chainermn.create_communicator('naive')
    numpy.random.seed(0)
    with chainer.using_config('dtype', numpy.float64):
        model = L.Classifier(MLP())
    optimizer = chainermn.create_multi_node_optimizer(chainer.optimizers.Adam(), comm)
    optimizer.setup(model)
    rs = numpy.random.RandomState(1)
    whole = chainer.datasets.TupleDataset(rs.randn(48, 4),
                                          rs.randint(0, 3, 48).astype(numpy.int32))
    train = chainermn.scatter_dataset(whole if comm.rank == 0 else None, comm, shuffle=True,
                                      seed=2)
    numpy.random.seed(3 + comm.rank)
    it = chainer.iterators.SerialIterator(train, 4, shuffle=True)
    trainer = training.Trainer(training.StandardUpdater(it, optimizer), (stop, 'iteration'),
                               out=out)
    checkpointer = chainermn.create_multi_node_checkpointer('job', comm, cp_interval=3,
                                                            gc_interval=4)
    print(f'rank {comm.rank}: resumed from {checkpointer.maybe_load(trainer, optimizer)}',
          flush=True)
    trainer.extend(checkpointer, trigger=(1, 'iteration'))
    if kill_at is not None:
        last = comm.size - 1

        # Rank 0 tells the last rank once its checkpoint is written (after the checkpointer);
        # the last rank dies before writing its own (before the checkpointer).
        @extension.make_extension(trigger=(1, 'iteration'), priority=50)
        def announce(t):
            if comm.rank == 0 and t.updater.iteration == kill_at:
                comm.send_obj('written', dest=last, tag=9)

        @extension.make_extension(trigger=(1, 'iteration'), priority=200)
        def die(t):
            if comm.rank == last and t.updater.iteration == kill_at:
                comm.recv_obj(0, tag=9)
                print(f'rank {comm.rank}: SIGKILL at iteration {kill_at}', flush=True)
                os.kill(os.getpid(), signal.SIGKILL)

        trainer.extend(announce)
        trainer.extend(die)
    trainer.run()
    numpy.savez(f'{result}.{comm.rank}.npz',
                **{name: p.array for name, p in model.namedparams()})


if __name__ == '__main__':
    main()
