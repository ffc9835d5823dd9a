"""create_multi_node_iterator: every process gets the batches of one process's iterator."""
import numpy

import chainer
from chainer.dataset import iterator as _iterator

_INVALID_TYPE = ('Multi node iterator supports ndarray or tuple of scalars as the data type of '
                 'the batch element only.')


def _build_ctrl_msg(stop, is_valid_data_type, is_paired_dataset, is_new_epoch,
                    current_position):
    """Packs the control flags of one step into an array (see :func:`_parse_ctrl_msg`)."""
    return numpy.array([stop, is_valid_data_type, is_paired_dataset, is_new_epoch,
                        current_position], dtype=numpy.float64)


def _parse_ctrl_msg(msg):
    """Returns ``(stop, is_valid_data_type, is_paired_dataset, is_new_epoch,
    current_position)`` from an array made by :func:`_build_ctrl_msg`."""
    stop, valid, paired, new_epoch, position = (msg[i] for i in range(5))
    return bool(stop), bool(valid), bool(paired), bool(new_epoch), int(position)


def _is_valid_type(element):
    """Whether a batch element (or one field of a paired one) can be sent: an array or a
    NumPy scalar."""
    return isinstance(element, (numpy.ndarray, numpy.number, numpy.bool_))


def _check_batch(batch):
    """Returns ``(is_valid, is_paired)`` for a batch: a list of elements that are all valid,
    or all tuples of valid fields."""
    batch = list(batch)
    paired = bool(batch) and isinstance(batch[0], tuple)
    for element in batch:
        if paired:
            if not (isinstance(element, tuple) and all(map(_is_valid_type, element))):
                return False, paired
        elif not _is_valid_type(element):
            return False, paired
    return True, paired


def _remote_error(rank, exc):
    # (imported when needed: importing the MPI communicators at ``import chainermn`` would
    # start MPI in every process that imports chainermn, forkserver workers included)
    from chainermn.communicators.mpi_communicator_base import _RemoteError
    return _RemoteError(rank, exc)


def _is_remote_error(obj):
    from chainermn.communicators.mpi_communicator_base import _RemoteError
    return isinstance(obj, _RemoteError)


def _state_of(it):
    return {'epoch': it.epoch, 'current_position': it.current_position,
            'is_new_epoch': it.is_new_epoch, 'epoch_detail': it.epoch_detail,
            'previous_epoch_detail': getattr(it, 'previous_epoch_detail', None)}


class _MultiNodeIteratorMaster(_iterator.Iterator):
    """The iterator of the master process: it iterates and sends every batch to the others.

    Attributes it does not have are read from the actual iterator.
    """

    def __init__(self, actual_iterator, communicator, rank_master):
        super().__setattr__('communicator', communicator)
        super().__setattr__('actual_iterator', actual_iterator)
        super().__setattr__('rank_master', rank_master)
        communicator.bcast_obj((len(actual_iterator.dataset), _state_of(actual_iterator)),
                               root=rank_master)

    def __getattr__(self, name):
        if name.startswith('__') or name == 'actual_iterator':
            raise AttributeError(name)
        return getattr(self.actual_iterator, name)

    def __next__(self):
        comm, root = self.communicator, self.rank_master
        try:
            batch = self.actual_iterator.next()
        except StopIteration:
            comm.bcast_obj((_build_ctrl_msg(True, True, False, False, 0), None, None),
                           root=root)
            raise
        except Exception as e:
            # The others raise it too, instead of waiting for a batch that never comes.
            comm.bcast_obj((None, _remote_error(comm.rank, e), None), root=root)
            raise
        valid, paired = _check_batch(batch)
        state = _state_of(self.actual_iterator)
        ctrl = _build_ctrl_msg(False, valid, paired, state['is_new_epoch'],
                               state['current_position'])
        comm.bcast_obj((ctrl, batch if valid else None, state), root=root)
        if not valid:
            raise TypeError(_INVALID_TYPE)
        return batch

    next = __next__

    @property
    def current_position(self):
        return self.actual_iterator.current_position

    @property
    def epoch_detail(self):
        return self.actual_iterator.epoch_detail

    @property
    def is_new_epoch(self):
        return self.actual_iterator.is_new_epoch

    def serialize(self, serializer):
        """Saves or loads the actual iterator; the others then take its state (every process
        calls this together)."""
        try:
            self.actual_iterator.serialize(serializer)
        except Exception as e:
            self.communicator.bcast_obj(_remote_error(self.communicator.rank, e),
                                        root=self.rank_master)
            raise
        state = _state_of(self.actual_iterator)
        state['order'] = getattr(getattr(self.actual_iterator, '_state', None), 'order', None)
        self.communicator.bcast_obj(state, root=self.rank_master)


class _MultiNodeIteratorSlave(_iterator.Iterator):
    """The iterator of the other processes: it returns the batches the master sends."""

    def __init__(self, communicator, rank_master):
        super().__init__()
        self.communicator = communicator
        self.rank_master = rank_master
        self.dataset_size, state = communicator.bcast_obj(None, root=rank_master)
        self._order = None
        self._set_state(state)

    def _set_state(self, state):
        self.epoch = state['epoch']
        self.current_position = state['current_position']
        self.is_new_epoch = state['is_new_epoch']
        self._epoch_detail = state['epoch_detail']
        self._previous_epoch_detail = state['previous_epoch_detail']

    def __next__(self):
        ctrl, batch, state = self.communicator.bcast_obj(None, root=self.rank_master)
        if _is_remote_error(batch):
            batch.raise_('multi-node iterator')
        stop, valid, _, _, _ = _parse_ctrl_msg(ctrl)
        if stop:
            raise StopIteration
        if not valid:
            raise TypeError(_INVALID_TYPE)
        self._set_state(state)
        return batch

    next = __next__

    @property
    def epoch_detail(self):
        return self._epoch_detail

    @property
    def previous_epoch_detail(self):
        return self._previous_epoch_detail

    def serialize(self, serializer):
        """Takes the master's state (every process calls this together); saving writes it,
        so that any process's snapshot holds the master's iterator."""
        state = self.communicator.bcast_obj(None, root=self.rank_master)
        if _is_remote_error(state):
            state.raise_('multi-node iterator serialize')
        order = state.pop('order')
        if isinstance(serializer, chainer.serializer.Serializer):
            for key in ('current_position', 'epoch', 'is_new_epoch'):
                serializer(key, state[key])
            if order is not None:
                serializer('order', order)
        self._set_state(state)
        if self._order is not None and order is not None and self._order.shape == order.shape:
            self._order[...] = order    # in place: the array saved earlier follows
        else:
            self._order = order


def create_multi_node_iterator(actual_iterator, communicator, rank_master=0):
    """Makes every process get the batches of one process's iterator.

    The iterator of ``rank_master`` reads the dataset; every batch it returns is broadcast,
    and every process's iterator returns the same batch (and has the same ``epoch``,
    ``is_new_epoch`` and ``current_position``). Use it when every process of a model split
    across processes needs the same inputs. Batch elements must be NumPy arrays or scalars,
    or tuples of them.

    Every process calls this (and then ``next``, ``serialize``) together. Only the master's
    ``actual_iterator`` is used; the others may pass ``None``.

    Args:
        actual_iterator (~chainer.dataset.Iterator): The iterator (used on the master).
        communicator (~chainermn.CommunicatorBase): The communicator.
        rank_master (int): Rank of the process whose iterator is used.

    Returns:
        ~chainer.dataset.Iterator: The iterator of this process.
    """
    chainer.utils.experimental('chainermn.iterators.create_multi_node_iterator')
    if communicator.rank == rank_master:
        return _MultiNodeIteratorMaster(actual_iterator, communicator, rank_master)
    return _MultiNodeIteratorSlave(communicator, rank_master)
