"""Compatibility stand-in for ChainerX: rechainer has no C++ core."""


def is_available():
    """Returns ``False``: ChainerX is never available in rechainer."""
    return False


class ndarray:
    """Placeholder for the ChainerX array type; it can never be instantiated.

    It exists so that ``isinstance(x, chainerx.ndarray)`` works, and is
    always ``False``.
    """

    def __new__(cls, *args, **kwargs):
        raise RuntimeError('ChainerX is not available: rechainer has no ChainerX core.')
