"""Helpers for testing code that uses ChainerMN."""
from chainermn.testing.device import get_device  # NOQA
