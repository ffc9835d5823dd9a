"""Runs ChainerMN's ImageNet example, unchanged, on CPUs; and makes a tiny dataset for it.

    python _cpu_imagenet.py make-dataset FOLDER
    mpiexec -n 2 python _cpu_imagenet.py run EXAMPLE_DIR/train_imagenet.py ARGS...

The example stops unless ``chainer.cuda.available``, and moves the model and the batches to
the GPU of its local rank. ``run`` executes the example's own ``main`` (argument parsing,
forkserver-started MultiprocessIterator workers, scatter_dataset, the multi-node optimizer
and evaluator, the trainer and its extensions) with the GPU steps made no-ops: the model
stays on the CPU and the updater and evaluator get no device.

``make-dataset`` writes 232x232 RGB images of two classes (dark and bright, with noise) and
the example's list format (``path label`` per line): ``train.txt`` and ``val.txt``.
"""
import os
import runpy
import sys

import numpy


def make_dataset(folder, n_train=16, n_val=8, size=232):
    from PIL import Image
    rs = numpy.random.RandomState(0)
    os.makedirs(os.path.join(folder, 'images'), exist_ok=True)
    for split, n in (('train', n_train), ('val', n_val)):
        lines = []
        for i in range(n):
            label = i % 2
            base = 60 + 120 * label
            pixels = numpy.clip(base + rs.randn(size, size, 3) * 30, 0, 255).astype(numpy.uint8)
            name = os.path.join('images', f'{split}_{i}.png')
            Image.fromarray(pixels).save(os.path.join(folder, name))
            lines.append(f'{name} {label}\n')
        with open(os.path.join(folder, f'{split}.txt'), 'w') as f:
            f.writelines(lines)


class _NoDevice:
    def use(self):
        pass


def _without_device(init):
    def wrapped(self, *args, **kwargs):
        device = kwargs.get('device')
        if isinstance(device, int) and device >= 0:
            kwargs['device'] = None
        init(self, *args, **kwargs)
    return wrapped


def run(script, args):
    import chainer
    from chainer.backends import cuda
    from chainer import training
    from chainer.training import extensions
    cuda.available  # NOQA  (loads the lazy module state before it is overridden)
    cuda.available = True
    cuda.get_device_from_id = lambda device_id: _NoDevice()
    chainer.Link.to_gpu = lambda self, device=None: self
    training.StandardUpdater.__init__ = _without_device(training.StandardUpdater.__init__)
    extensions.Evaluator.__init__ = _without_device(extensions.Evaluator.__init__)
    sys.argv = [script] + args
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    runpy.run_path(script, run_name='__main__')


if __name__ == '__main__':
    if sys.argv[1] == 'make-dataset':
        make_dataset(sys.argv[2])
    else:
        run(sys.argv[2], sys.argv[3:])
