"""Differentiable communication between processes, for models split across them.

Point to point: :func:`send`, :func:`recv` (with :func:`pseudo_connect` to join a send's
delegate variable to a loss). Collective: :func:`bcast`, :func:`gather`, :func:`scatter`,
:func:`allgather`, :func:`alltoall`. Backward runs through all of them, so gradients flow
back across processes.
"""
from chainermn.functions.collective_communication import allgather  # NOQA
from chainermn.functions.collective_communication import alltoall  # NOQA
from chainermn.functions.collective_communication import bcast  # NOQA
from chainermn.functions.collective_communication import gather  # NOQA
from chainermn.functions.collective_communication import scatter  # NOQA
from chainermn.functions.point_to_point_communication import recv  # NOQA
from chainermn.functions.point_to_point_communication import send  # NOQA
from chainermn.functions.pseudo_connect import pseudo_connect  # NOQA
