"""Helpers shared by the links: lazy sizes and input checks that name the link."""
from chainer import initializers
from chainer.utils import conv_nd
from chainer.utils import type_check
from chainer import variable


def check_size(link, actual, expected, what):
    """Raises ``InvalidType`` naming ``link`` when an input size is not the built one.

    Args:
        link: The link being called.
        actual (int): The size found in the input.
        expected (int): The size the link's parameters were made for.
        what (str): Which size, e.g. ``'x.shape[1] (input channels)'``.
    """
    if actual != expected:
        name = type(link).__name__
        raise type_check.InvalidType(
            f'{what} == {expected}', f'{actual} != {expected}',
            f'{name}: {what} is {actual}, but the link was built for {expected} '
            f'(its parameters were made with that size; give an input of that size or '
            f'build a new {name})')


def pair(x):
    """``x`` as a 2-tuple (a scalar is repeated)."""
    return conv_nd.as_tuple(x, 2)


def check_groups(in_channels, out_channels, groups):
    """Raises ``ValueError`` when the channels do not split into ``groups``."""
    if in_channels is not None and in_channels % groups:
        raise ValueError('the number of input channels must be divisible by the number of '
                         f'groups: in_channels={in_channels}, groups={groups}')
    if out_channels % groups:
        raise ValueError('the number of output channels must be divisible by the number of '
                         f'groups: out_channels={out_channels}, groups={groups}')


def add_weight_and_bias(link, in_size, out_size, nobias, initialW, initial_bias):
    """Registers ``link.W`` (lazy when ``in_size`` is None) and ``link.b``.

    ``W`` is made by ``link._initialize_params(in_size)`` once the input size is
    known; ``b`` has ``out_size`` elements (zeros unless ``initial_bias`` says
    otherwise) or is ``None`` with ``nobias``. Call it from the constructor.
    """
    with link.init_scope():
        link.W = variable.Parameter(initializers._get_initializer(initialW))
        if in_size is not None:
            link._initialize_params(in_size)
        if nobias:
            link.b = None
        else:
            if initial_bias is None:
                initial_bias = 0
            link.b = variable.Parameter(initializers._get_initializer(initial_bias), out_size)
