"""The abstract :class:`Device` that every concrete backend device derives from."""
import contextlib


def _convert_arrays(arrays, func, memo=None):
    """Applies ``func`` to each array in a (possibly nested) container.

    Lists, tuples (named tuples included) and dicts keep their type and
    layout; ``None`` entries stay ``None``. An array object that appears
    several times is converted once, so shared references stay shared.
    """
    if arrays is None:
        return None
    if memo is None:
        memo = {}
    if isinstance(arrays, (list, tuple)):
        items = [_convert_arrays(a, func, memo) for a in arrays]
        if type(arrays) is list:
            return items
        if hasattr(arrays, '_fields'):  # named tuple: positional constructor
            return type(arrays)(*items)
        return type(arrays)(items)
    if isinstance(arrays, dict):
        return type(arrays)(
            (k, _convert_arrays(v, func, memo)) for k, v in arrays.items())
    hit = memo.get(id(arrays))
    if hit is not None:
        return hit[0]
    out = func(arrays)
    # Keep the source alive in the memo so that its id cannot be reused.
    memo[id(arrays)] = out, arrays
    return out


class Device:
    """Base class of the unified device objects.

    The concrete devices are :class:`chainer.backend.CpuDevice`,
    :class:`chainer.backend.GpuDevice`, :class:`chainer.backend.Intel64Device`
    and :class:`chainer.backend.ChainerxDevice`. Use
    :func:`chainer.get_device` to build one from a device specifier.
    """

    @property
    def xp(self):
        """The array module (``numpy``, ``cupy``...) of this device."""
        raise NotImplementedError(f'{type(self).__name__} does not define xp')

    @property
    def supported_array_types(self):
        """Tuple of the array types this device's ``xp`` functions accept."""
        raise NotImplementedError(
            f'{type(self).__name__} does not define supported_array_types')

    @property
    def name(self):
        """Unique name of the device, e.g. ``'@numpy'`` or ``'@cupy:0'``."""
        raise NotImplementedError(f'{type(self).__name__} does not define name')

    def __eq__(self, other):
        raise NotImplementedError(f'{type(self).__name__} does not define __eq__')

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash(self.name)

    def __str__(self):
        return self.name

    def __enter__(self):
        raise RuntimeError(
            'A Device object is not a context manager; '
            'use `with chainer.using_device(device):` instead.')

    def __exit__(self, exc_type, exc_value, traceback):
        # Never reached: __enter__ always raises.
        pass

    def create_context(self):
        """Returns a context manager inside which this device is current.

        :func:`chainer.using_device` calls this method.
        """
        return contextlib.nullcontext()

    def send_array(self, array):
        """Transfers a single array to this device and returns it."""
        raise NotImplementedError(
            f'{type(self).__name__} does not define send_array')

    def send(self, arrays):
        """Transfers arrays to this device.

        Args:
            arrays: An array, ``None``, or a list, tuple or dict (nested
                freely) of them, holding NumPy or CuPy arrays.

        Returns:
            The transferred array(s), in the same structure as ``arrays``.
            Arrays already on this device are returned as they are.
        """
        if arrays is None:
            return None
        if isinstance(arrays, (list, tuple, dict)):
            return _convert_arrays(arrays, self.send_array)
        return self.send_array(arrays)

    def use(self):
        """Makes this device current in the calling thread."""
        pass

    def is_array_supported(self, array):
        """Tells whether ``array`` can be processed on this device.

        Args:
            array: An N-dimensional array.

        Returns:
            bool: ``True`` if the array is compatible with the device.
        """
        return isinstance(array, self.supported_array_types)
