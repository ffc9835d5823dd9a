"""A training that can kill itself (SIGKILL) mid-epoch or mid-snapshot; resumed by autoload.

Usage: python _kill_resume_script.py OUT [--kill-at-iter N] [--kill-in-save N]
Writes OUT/final.npz with the final parameters when the training completes.
"""
import argparse
import os
import signal
import sys

import numpy

from chainer import serializers
from chainer.training import extensions

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
from chainer_tests.training_tests import _train_helpers as H  # NOQA


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('out')
    parser.add_argument('--kill-at-iter', type=int, default=-1)
    parser.add_argument('--kill-in-save', type=int, default=-1)
    args = parser.parse_args()

    def savefun(path, target):
        if target.updater.iteration == args.kill_in_save:
            # Killed in the middle of writing: half of the bytes reach the disk.
            serializers.save_npz(path, target)
            with open(path, 'rb') as f:
                data = f.read()
            with open(path, 'wb') as f:
                f.write(data[:len(data) // 2])
                f.flush()
                os.fsync(f.fileno())
            os.kill(os.getpid(), signal.SIGKILL)
        serializers.save_npz(path, target)

    trainer, model, _ = H.make_trainer(args.out, stop=(6, 'epoch'), batch=5, seed=0)
    trainer.extend(extensions.snapshot(savefun=savefun, autoload=True, n_retains=2),
                   trigger=(4, 'iteration'))
    trainer.extend(extensions.LogReport(trigger=(1, 'epoch')))
    trainer.extend(extensions.ExponentialShift('lr', 0.9), trigger=(1, 'epoch'))

    def maybe_die(t):
        if t.updater.iteration == args.kill_at_iter:
            os.kill(os.getpid(), signal.SIGKILL)

    trainer.extend(maybe_die, name='maybe_die', trigger=(1, 'iteration'))
    trainer.run()
    numpy.savez(os.path.join(args.out, 'final.npz'), **H.params_of(model))
    print('done at', trainer.updater.iteration, 'lr', trainer.updater.get_optimizer('main').lr)


if __name__ == '__main__':
    main()
