"""Intel64 (iDeep) backend: never available in rechainer.

Chainer could accelerate CPU code with iDeep (``ideep4py``), which is no
longer maintained. rechainer keeps the public names so that code probing for
iDeep keeps running, and every probe answers "not available".
"""
import numpy

from chainer import _backend

ideep = None
"""The ``ideep4py`` module in Chainer; always ``None`` in rechainer."""

_unavailable_reason = (
    'iDeep is not supported by rechainer: ideep4py is unmaintained and '
    'NumPy is used on the CPU instead.')


class mdarray:
    """Placeholder for ``ideep4py.mdarray``; never instantiated.

    It exists so that ``isinstance(x, intel64.mdarray)`` keeps working and is
    always ``False``.
    """

    def __new__(cls, *args, **kwargs):
        check_ideep_available()


def is_ideep_available():
    """Returns whether iDeep is available.

    Returns:
        bool: Always ``False`` in rechainer.
    """
    return False


def check_ideep_available():
    """Raises :class:`RuntimeError` because iDeep is never available."""
    raise RuntimeError(f'iDeep is not available. {_unavailable_reason}')


def should_use_ideep(level):
    """Tells whether iDeep should be used under ``chainer.config.use_ideep``.

    Args:
        level (str): ``'==always'`` or ``'>=auto'``.

    Returns:
        bool: Always ``False``, as iDeep is never available.
    """
    return False


def inputs_all_ready(inputs, supported_ndim=(2, 4)):
    """Tells whether all ``inputs`` can be handed to iDeep.

    Returns:
        bool: Always ``False``, as iDeep is never available.
    """
    return False


class Intel64Device(_backend.Device):
    """Device for the Intel64 (iDeep) backend; constructing it always fails."""

    xp = numpy
    name = '@intel64'
    supported_array_types = (numpy.ndarray, mdarray)

    __hash__ = _backend.Device.__hash__

    def __init__(self):
        check_ideep_available()

    def __eq__(self, other):
        return isinstance(other, Intel64Device)

    def __repr__(self):
        return '<Intel64Device>'

    @staticmethod
    def from_array(array):
        """Always ``None``: no array lives on an iDeep device here."""
        return None

    def send_array(self, array):
        check_ideep_available()
