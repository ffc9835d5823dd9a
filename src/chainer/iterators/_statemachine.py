"""The position/epoch bookkeeping shared by the iterators."""
import collections

import numpy

IteratorState = collections.namedtuple(
    'IteratorState', ('current_position', 'epoch', 'is_new_epoch', 'order'))


def new_order(order_sampler, dataset_len, old_order=None, position=0):
    """The order of the next epoch (``None`` when examples go in index order)."""
    if order_sampler is None:
        return None
    if old_order is None:
        # The first order sets the epoch size, which may differ from the length.
        return order_sampler(numpy.arange(dataset_len), position)
    order = order_sampler(old_order, position)
    if len(order) != len(old_order):
        raise ValueError(
            f'The size of order does not match the size of the previous order: the order '
            f'sampler returned {len(order)} indices, expected {len(old_order)}')
    return order


def advance(state, batch_size, repeat, order_sampler, dataset_len):
    """Takes the next batch of indices.

    Returns:
        ``(new_state, indices)``; ``indices`` is ``None`` when a non-repeating
        iterator is exhausted.
    """
    position, epoch, is_new_epoch, order = state
    if not repeat and epoch > 0:
        return state, None
    epoch_size = dataset_len if order is None else len(order)
    if epoch_size == 0:
        raise ValueError('cannot iterate over an empty dataset (epoch size 0)')
    start = position
    pieces = []
    need = batch_size
    is_new_epoch = False
    while need > 0:
        end = min(position + need, epoch_size)
        pieces.append(numpy.arange(position, end) if order is None else order[position:end])
        need -= end - position
        position = end
        if position == epoch_size:
            epoch += 1
            is_new_epoch = True
            position = 0
            # The sampler sees where this batch started (it may keep the batch
            # free of repeats, for instance). Like Chainer, a new order is drawn
            # at the end of an epoch even when the iterator stops there.
            order = new_order(order_sampler, dataset_len, order, start)
            if not repeat:
                break
    indices = pieces[0] if len(pieces) == 1 else numpy.concatenate(pieces)
    return IteratorState(position, epoch, is_new_epoch, order), indices
