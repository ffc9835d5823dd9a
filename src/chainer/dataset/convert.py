"""Converters: turn a list of examples into batched arrays on a device."""
import numpy

from chainer import backend


class Converter:
    """Base class of converters (``converter(batch, device)`` -> arrays).

    Updaters and evaluators pass a :class:`~chainer.backend.Device` object (or
    ``None``) to instances of this class; plain callables get the legacy device
    argument instead (see :func:`converter`).
    """

    def __call__(self, batch, device):
        """Converts ``batch`` (a list of examples) and sends it to ``device``."""
        raise NotImplementedError(f'{type(self).__name__} must define __call__(batch, device)')


class _ArbitraryCallableConverter(Converter):
    # A function made a Converter by the `converter` decorator.

    def __init__(self, base_callable):
        if not callable(base_callable):
            raise TypeError(f'converter: expected a callable, got {type(base_callable)}')
        self.base_callable = base_callable

    def __call__(self, *args, **kwargs):
        return self.base_callable(*args, **kwargs)


def converter():
    """Decorator that makes a function ``f(batch, device)`` a :class:`Converter`.

    The decorated function receives a :class:`~chainer.backend.Device` object (or
    ``None``) as its ``device`` argument.

    .. admonition:: Example

        >>> @chainer.dataset.converter()
        ... def to_pairs(batch, device):
        ...     return [device.send(x) for x in batch]
    """
    return _ArbitraryCallableConverter


def _call_converter(converter, batch, device):
    # Converter objects get the Device; legacy callables get what `to_device`-era
    # code expected (None, -1 for the CPU, the GPU id).
    if isinstance(converter, Converter) or device is None:
        return converter(batch, device)
    if not isinstance(device, backend.Device):
        device = backend.get_device(device)
    if isinstance(device, backend.CpuDevice):
        return converter(batch, -1)
    if isinstance(device, backend.GpuDevice):
        return converter(batch, device.device.id)
    return converter(batch, device)


def to_device(device, x):
    """Sends an array (or ``None``, or a list/tuple/dict of arrays) to a device.

    Args:
        device: ``None`` (no transfer), a negative int (the CPU), a GPU id, a
            device specifier or a :class:`~chainer.backend.Device`.
        x: The array(s).

    Returns:
        The array(s) on the device.
    """
    if device is None:
        return x
    return backend._get_device_cupy_or_numpy(device).send(x)


def _concat_arrays(arrays, padding):
    if not hasattr(arrays[0], 'dtype'):
        # Python scalars (or lists): one NumPy array of them.
        arrays = numpy.asarray(arrays)
    if padding is not None:
        return _concat_arrays_with_padding(arrays, padding)
    xp = backend.get_array_module(arrays[0])
    shape = arrays[0].shape
    for i, a in enumerate(arrays):
        if a.shape != shape:
            raise ValueError(
                f'concat_examples: example {i} has shape {a.shape} but example 0 has '
                f'shape {shape}; all examples must have the same shape (pass padding=... '
                'to pad them to a common shape)')
    with backend.get_device_from_array(arrays[0]).create_context():
        return xp.stack(arrays)


def _concat_arrays_with_padding(arrays, padding):
    shape = numpy.array(arrays[0].shape, dtype=int)
    ndim = len(shape)
    for i, a in enumerate(arrays[1:], 1):
        if a.ndim != ndim:
            raise ValueError(
                f'concat_examples: example {i} has {a.ndim} dimensions (shape {a.shape}) '
                f'but example 0 has {ndim} (shape {arrays[0].shape}); padding needs '
                'examples of the same number of dimensions')
        if ndim and (shape != a.shape).any():
            numpy.maximum(shape, a.shape, out=shape)
    shape = (len(arrays),) + tuple(int(s) for s in shape)
    xp = backend.get_array_module(arrays[0])
    with backend.get_device_from_array(arrays[0]).create_context():
        result = xp.full(shape, padding, dtype=arrays[0].dtype)
        for i, a in enumerate(arrays):
            result[(i,) + tuple(slice(s) for s in a.shape)] = a
    return result


def _concat_examples(batch, padding):
    if len(batch) == 0:
        raise ValueError('batch is empty')
    first = batch[0]
    if isinstance(first, tuple):
        if not isinstance(padding, tuple):
            padding = (padding,) * len(first)
        return tuple(_concat_arrays([example[i] for example in batch], padding[i])
                     for i in range(len(first)))
    if isinstance(first, dict):
        if not isinstance(padding, dict):
            padding = {key: padding for key in first}
        return {key: _concat_arrays([example[key] for example in batch], padding[key])
                for key in first}
    return _concat_arrays(batch, padding)


def concat_examples_func(batch, device=None, padding=None):
    """Concatenates a list of examples into batched arrays.

    Examples that are arrays give one array; tuples of arrays give a tuple of
    arrays (one per position); dicts give a dict (one per key). A new leading
    axis indexes the examples.

    Args:
        batch (list): Examples (arrays, scalars, tuples or dicts of them).
        device: Where to send the result (see :func:`to_device`); ``None``
            leaves it where the examples are.
        padding: If not ``None``, examples of different shapes are padded with
            this value up to the largest size in each dimension. A tuple or dict
            gives one value per position or key.

    Returns:
        An array, a tuple of arrays or a dict of arrays.

    Raises:
        ValueError: The batch is empty, or examples differ in shape and no
            ``padding`` is given (the message names the example and the shapes).

    .. admonition:: Example

        >>> x = [numpy.zeros(2), numpy.ones(3)]
        >>> chainer.dataset.concat_examples(x, padding=-1)
        array([[ 0.,  0., -1.],
               [ 1.,  1.,  1.]])
    """
    return to_device(device, _concat_examples(batch, padding))


# The public object is a Converter (so updaters pass it Device objects); the plain
# function stays importable under its own name, which also makes it picklable.
concat_examples = converter()(concat_examples_func)
concat_examples.__doc__ = concat_examples_func.__doc__


class ConcatWithAsyncTransfer:
    """A converter like :func:`concat_examples` that overlaps the host-to-GPU copy.

    On a GPU the concatenated batch is copied in a CuPy stream (``stream``) so
    that the copy can overlap computation in ``compute_stream``. On the CPU it
    is exactly :func:`concat_examples`.

    Args:
        stream: A ``cupy.cuda.Stream`` used for the copies, or ``None``.
        compute_stream: The stream computations run in, or ``None``.
    """

    def __init__(self, stream=None, compute_stream=None):
        self._stream = stream
        self.compute_stream = compute_stream

    def __call__(self, batch, device=None, padding=None):
        arrays = _concat_examples(batch, padding)
        if device is None:
            return arrays
        device = backend._get_device_cupy_or_numpy(device)
        if not isinstance(device, backend.GpuDevice) or self._stream is None:
            return device.send(arrays)
        with device.create_context(), self._stream:
            result = device.send(arrays)
        self._stream.synchronize()
        return result

    def __getstate__(self):
        # CuPy streams cannot be pickled; a restored converter copies synchronously.
        state = self.__dict__.copy()
        state['_stream'] = None
        state['compute_stream'] = None
        return state


class Conveyor:
    """Holds the batch being transferred by :class:`ConcatWithAsyncTransfer`.

    Kept for code that refers to it; transfers here complete in ``get``.
    """

    def __init__(self, device=None, stream=None):
        self.device = device
        self.stream = stream
        self._arrays = None

    def put(self, array):
        """Starts transferring ``array`` (a batch: an array, tuple or dict of arrays)."""
        self._arrays = array

    def get(self, sync=True):
        """The batch put last, on ``device`` (transfers here are synchronous)."""
        arrays, self._arrays = self._arrays, None
        return to_device(self.device, arrays)

