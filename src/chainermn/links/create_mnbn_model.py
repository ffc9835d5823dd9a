"""create_mnbn_model: a copy of a model with its batch normalizations made multi-node."""
import copy

import chainer
import chainer.links as L
from chainermn.links import batch_normalization as _mnbn


def _from_batch_normalization(bn, comm, communication_backend):
    if bn.avg_mean is None:
        raise ValueError(f'create_mnbn_model: the BatchNormalization {bn.name!r} has no size '
                         'yet; give it a size, or call the model once before')
    if getattr(bn, 'axis', None) is not None:
        raise ValueError(f'create_mnbn_model: the BatchNormalization {bn.name!r} normalizes '
                         f'over axis={bn.axis}, which MultiNodeBatchNormalization does not '
                         'support')
    mnbn = _mnbn.MultiNodeBatchNormalization(
        bn.avg_mean.shape, comm, decay=bn.decay, eps=bn.eps, dtype=bn.avg_mean.dtype,
        use_gamma=bn.gamma is not None, use_beta=bn.beta is not None,
        communication_backend=communication_backend)
    mnbn.to_device(bn.device)
    for name in ('gamma', 'beta'):
        src, dst = getattr(bn, name), getattr(mnbn, name)
        if src is not None and src.array is not None:
            dst.array[...] = src.array
    mnbn.avg_mean[...] = bn.avg_mean
    mnbn.avg_var[...] = bn.avg_var
    mnbn.N = bn.N
    mnbn.name = bn.name
    return mnbn


def _replace(link, make, done):
    """Replaces, in place, every BatchNormalization below ``link`` by ``make(bn)``."""
    if isinstance(link, chainer.Sequential):
        for i, layer in enumerate(list(link)):
            if isinstance(layer, chainer.Link):
                new = _swap(layer, make, done)
                if new is not layer:
                    link[i] = new
    elif isinstance(link, chainer.ChainList):
        for i, child in enumerate(list(link)):
            new = _swap(child, make, done)
            if new is not child:
                link[i] = new
    elif isinstance(link, chainer.Chain):
        for child in list(link.children()):
            new = _swap(child, make, done)
            if new is not child:
                new.name = child.name
                link.__dict__[child.name] = new


def _swap(child, make, done):
    if id(child) in done:
        return done[id(child)]
    if isinstance(child, L.BatchNormalization):
        new = make(child)
    else:
        new = child
        _replace(child, make, done)
    done[id(child)] = new
    return new


def create_mnbn_model(link, comm, communication_backend='auto'):
    """Returns a copy of ``link`` in which every BatchNormalization is multi-node.

    Each :class:`~chainer.links.BatchNormalization` (in a Chain, a ChainList or a Sequential,
    at any depth) becomes a :class:`~chainermn.links.MultiNodeBatchNormalization` with the
    same settings, parameters and running averages. The other links are deep copies; the
    original model is unchanged.

    Args:
        link (~chainer.Link): The model.
        comm (~chainermn.CommunicatorBase): The communicator.
        communication_backend (str): ``'mpi'``, ``'nccl'`` or ``'auto'``.

    Returns:
        ~chainer.Link: The new model.
    """
    def make(bn):
        return _from_batch_normalization(bn, comm, communication_backend)

    if isinstance(link, L.BatchNormalization):
        return make(link)
    new = copy.deepcopy(link)   # communicators are shared by copies
    _replace(new, make, {})
    return new

