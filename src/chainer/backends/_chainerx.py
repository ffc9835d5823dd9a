"""ChainerX device: never available in rechainer (there is no C++ core)."""
import chainerx
from chainer import _backend

_unavailable_message = (
    'ChainerX is not available: rechainer has no ChainerX core. '
    'Use NumPy (\'@numpy\') or CuPy (\'@cupy:N\') devices instead.')


def _check_chainerx_available():
    if not chainerx.is_available():
        raise RuntimeError(_unavailable_message)


class ChainerxDevice(_backend.Device):
    """Device for the ChainerX backend; constructing it always fails here."""

    xp = chainerx
    supported_array_types = (chainerx.ndarray,)

    __hash__ = _backend.Device.__hash__

    def __init__(self, device):
        _check_chainerx_available()

    def __eq__(self, other):
        return isinstance(other, ChainerxDevice) and other.device == self.device

    def __repr__(self):
        return f'<ChainerxDevice {self.device.name}>'

    @property
    def name(self):
        return self.device.name

    @staticmethod
    def from_array(array):
        """Always ``None``: no ChainerX array can exist in rechainer."""
        return None

    @staticmethod
    def from_fallback_device(device):
        """Would return the ChainerX device sharing ``device``'s hardware."""
        _check_chainerx_available()

    @property
    def fallback_device(self):
        """The NumPy or CuPy device sharing this device's hardware."""
        _check_chainerx_available()

    def send_array(self, array):
        _check_chainerx_available()


def to_chx(array):
    """Converts array(s) to ChainerX; always fails as ChainerX is unavailable."""
    _check_chainerx_available()


def from_chx(array):
    """Converts ChainerX array(s) to NumPy/CuPy ones.

    No ChainerX array can exist in rechainer, so ``array`` (an array or a
    list, tuple or dict of arrays) is returned unchanged.
    """
    return array
