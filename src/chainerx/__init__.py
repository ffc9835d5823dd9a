"""Compatibility stand-in for ChainerX: rechainer has no C++ core."""


def is_available():
    """Returns ``False``: ChainerX is never available in rechainer."""
    return False
