"""Delegate variables: 0-element variables that stand for a communication in the graph.

A process that sends a variable gets nothing to compute with, yet its backward pass must still
receive the gradient that comes back. It gets a *delegate variable* instead: an empty float32
variable whose creator is the communication. Backpropagating from it (directly, or through
:func:`~chainermn.functions.pseudo_connect`) runs the communication's backward.
"""
import numpy

import chainer


def new(xp=numpy):
    """A fresh delegate that requires a gradient and has no creator."""
    return chainer.Variable(xp.empty((0,), numpy.float32))


def handed_out(var):
    """Makes ``var.backward()`` work on a delegate returned to the caller.

    A variable with no elements has no gradient to start from, and backward from a variable
    without a gradient does nothing; the gradient of an empty variable can only be the empty
    array, so it is set here.
    """
    var.grad = var.xp.empty(var.shape, var.dtype)
    return var


def zeros_like(shape, dtype, xp):
    """A constant variable of zeros: the gradient of a delegate, or of an unused output."""
    return chainer.Variable(xp.zeros(shape, dtype), requires_grad=False)


def check_rank(caller, name, rank, comm, allow_self=False):
    """Checks that ``rank`` is a rank of ``comm`` (other than this process's, by default)."""
    if isinstance(rank, bool) or not isinstance(rank, (int, numpy.integer)):
        raise TypeError(f'{caller}: {name} must be an int, got {type(rank).__name__}')
    if not 0 <= rank < comm.size:
        raise ValueError(f'{caller}: {name} must be in [0, {comm.size}) (the communicator '
                         f'size), got {rank}')
    if not allow_self and rank == comm.rank:
        raise ValueError(f'{caller}: {name} ({rank}) is this process\'s own rank; a process '
                         'cannot send to or receive from itself (it would wait forever)')
