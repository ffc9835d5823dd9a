"""Multi-process data-parallel updater (needs several GPUs and NCCL)."""
import numpy

from chainer.backends import cuda
from chainer.dataset import convert
from chainer.training.updaters import standard_updater


def _nccl_available():
    try:
        from cupy.cuda import nccl  # NOQA
    except Exception:
        return False
    return cuda.available


class MultiprocessParallelUpdater(standard_updater.StandardUpdater):
    """Data-parallel updater that runs one worker process per GPU.

    The arguments are checked as in Chainer: one iterator per device, all
    over datasets of the same length, GPU devices given as a list, tuple or
    dict. Running needs CuPy with NCCL and a GPU per device; without them
    the constructor raises a :class:`RuntimeError` saying so. (rechainer does
    not implement the worker processes yet: with NCCL the constructor
    raises a :class:`RuntimeError` pointing to :class:`ParallelUpdater`.)

    Args:
        iterators (list): One iterator per device.
        optimizer: Optimizer of the main model.
        converter: Batch converter.
        devices (list or dict): GPU devices (a dict needs ``'main'``).
        auto_new_epoch (bool): Call ``optimizer.new_epoch()`` at each epoch end.
    """

    def __init__(self, iterators, optimizer, converter=convert.concat_examples, devices=None,
                 auto_new_epoch=True):
        if isinstance(devices, dict):
            devices = dict(devices)
            if 'main' not in devices:
                raise ValueError('MultiprocessParallelUpdater: a dict of devices needs a '
                                 '"main" entry')
            main = devices.pop('main')
            devices = [main] + list(devices.values())
        elif isinstance(devices, (list, tuple)):
            devices = list(devices)
        else:
            raise ValueError('MultiprocessParallelUpdater: devices must be a dict, a list or '
                             f'a tuple, got {type(devices).__name__}')
        if any(d is None for d in devices):
            raise ValueError('MultiprocessParallelUpdater: every device must be a GPU, got '
                             f'{devices}')
        iterators = list(iterators)
        if len(iterators) != len(devices):
            raise ValueError(f'MultiprocessParallelUpdater: {len(iterators)} iterators for '
                             f'{len(devices)} devices; give one iterator per device')
        sizes = {len(it.dataset) for it in iterators if hasattr(it, 'dataset')}
        if len(sizes) > 1:
            raise ValueError('MultiprocessParallelUpdater: the iterators\' datasets must have '
                             f'the same length, got {sorted(sizes)}')
        if not self.available():
            raise RuntimeError(
                'MultiprocessParallelUpdater needs CuPy with NCCL and one GPU per device '
                f'({len(devices)} asked); NCCL is not available here. Use StandardUpdater '
                '(one device) or ParallelUpdater (several devices in one process) instead')
        # One worker process per GPU, exchanging gradients with NCCL, is not
        # built; refuse before touching the optimizer (Chainer would rescale its
        # learning rate here).
        raise RuntimeError('MultiprocessParallelUpdater: multi-process training is not '
                           'implemented in rechainer; use ParallelUpdater (several devices in '
                           'one process) instead')

    def setup_workers(self):
        """Would start the worker processes (not implemented in rechainer)."""
        raise RuntimeError('MultiprocessParallelUpdater: multi-process training is not '
                           'implemented in rechainer; use ParallelUpdater instead')

    @staticmethod
    def available():
        """Whether CuPy with NCCL is installed (the updater cannot run otherwise)."""
        return _nccl_available()


def _params_or_grads(link, attr, where):
    arrays = [getattr(p, attr) for p in link.params()]
    if any(a is not None and isinstance(a, numpy.ndarray) for a in arrays) or not arrays:
        raise RuntimeError(f'{where} works only on GPU: the link\'s arrays are on the CPU')
    return arrays


def _gather(link, attr, where):
    arrays = _params_or_grads(link, attr, where)
    xp = cuda.cupy
    return xp.concatenate([xp.ravel(a) if a is not None else xp.zeros(0, 'f')
                           for a in arrays]).astype(numpy.float32)


def _scatter(link, array, attr):
    offset = 0
    for param in link.params():
        target = getattr(param, attr)
        if target is None:
            continue
        size = target.size
        target[...] = array[offset:offset + size].reshape(target.shape).astype(target.dtype)
        offset += size


def gather_grads(link):
    """Packs all gradients of ``link`` (on a GPU) into one float32 array."""
    return _gather(link, 'grad', 'gather_grads')


def gather_params(link):
    """Packs all parameters of ``link`` (on a GPU) into one float32 array."""
    return _gather(link, 'data', 'gather_params')


def scatter_grads(link, array):
    """Writes an array made by :func:`gather_grads` back into ``link``'s gradients."""
    _scatter(link, array, 'grad')


def scatter_params(link, array):
    """Writes an array made by :func:`gather_params` back into ``link``'s parameters."""
    _scatter(link, array, 'data')
