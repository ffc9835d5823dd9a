"""AllreducePersistent: averages the persistent values of a model over the processes."""
import numpy

from chainer import backend
from chainer.training import extension


def _namedpersistents(model):
    """Yields ``(path, link, name)`` for every persistent value of ``model``, in a fixed
    order (the same on every process holding the same model)."""
    for path, link in sorted(model.namedlinks(), key=lambda item: item[0]):
        for name in sorted(link._persistent):
            yield f'{path.rstrip("/")}/{name}', link, name


class AllreducePersistent(extension.Extension):
    """Replaces the persistent arrays of a model by their mean over the processes.

    In data-parallel training each process updates the running statistics of its batch
    normalizations (``avg_mean``, ``avg_var``) with its own part of the batch. Run this (as
    a trainer extension, by default once per epoch before the evaluators, or called
    directly) so that every process holds the same averages. Floating-point arrays are
    averaged (one communication per dtype); other persistent values (counters such as
    ``N``) are left as they are.

    Args:
        model (~chainer.Link): The model; every process passes the same structure.
        comm (~chainermn.CommunicatorBase): The communicator.
    """

    trigger = 1, 'epoch'
    # Before the evaluators (PRIORITY_WRITER), so that they see the averaged statistics.
    priority = extension.PRIORITY_WRITER + 1

    def __init__(self, model, comm):
        self.model = model
        self.comm = comm

    def __call__(self, trainer=None):
        by_dtype = {}
        for _, link, name in _namedpersistents(self.model):
            value = getattr(link, name)
            if hasattr(value, 'dtype') and hasattr(value, 'shape') and value.dtype.kind == 'f':
                by_dtype.setdefault(value.dtype.str, []).append((link, name, value))
        for dtype in sorted(by_dtype):
            entries = by_dtype[dtype]
            host = numpy.concatenate([backend.CpuDevice().send(v).ravel()
                                      for _, _, v in entries])
            mean = self.comm.allreduce(host) / host.dtype.type(self.comm.size)
            offset = 0
            for link, name, value in entries:
                part = mean[offset:offset + value.size].reshape(value.shape)
                offset += value.size
                if isinstance(value, numpy.ndarray):
                    value[...] = part
                else:   # a CuPy array: copied back to its device in place
                    value.set(part)
