"""Choosing the device of a test process."""
import chainer


def get_device(device_id=None, use_chainerx=False):
    """Returns the device a test process runs on.

    Args:
        device_id (int): GPU id (usually ``comm.intra_rank``), or None for the CPU.
        use_chainerx (bool): Use a ChainerX device (``native:0`` or ``cuda:N``); ChainerX is
            not available in rechainer, so this raises.

    Returns:
        ~chainer.backend.Device: ``@numpy``, or ``@cupy:<device_id>``.
    """
    if use_chainerx:
        spec = 'native:0' if device_id is None else f'cuda:{device_id}'
    else:
        spec = '@numpy' if device_id is None else f'@cupy:{device_id}'
    return chainer.get_device(spec)
