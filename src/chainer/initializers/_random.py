"""Helpers shared by the random initializers."""
from chainer import backend
from chainer.utils import argument


def parse_rng(kwargs):
    """Takes the ``rng`` option out of an initializer's ``**kwargs``."""
    rng, = argument.parse_kwargs(kwargs, ('rng', None))
    if rng is not None and not (hasattr(rng, 'normal') and hasattr(rng, 'uniform')):
        raise TypeError(f'rng must be a random generator such as numpy.random.RandomState '
                        f'(with normal and uniform methods), got {type(rng).__name__}')
    return rng


def fill(array, rng, method, *args):
    """Fills ``array`` with ``rng.<method>(*args, size=array.shape)``.

    Without ``rng`` the global generator of the array's module (NumPy or CuPy) is
    used; with one, the samples are drawn on the host and sent to the array's device.
    """
    device = backend.get_device_from_array(array)
    if rng is None:
        values = getattr(device.xp.random, method)(*args, size=array.shape)
    else:
        values = device.send(getattr(rng, method)(*args, size=array.shape))
    array[...] = values
