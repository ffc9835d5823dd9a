"""DeviceResident: objects whose arrays (and sub-objects) move between devices together.

A :class:`DeviceResident` (``Link`` derives from it) describes what it holds by
overriding :meth:`~DeviceResident.device_resident_accept`, which hands each held
array, variable and sub-resident to a :class:`DeviceResidentsVisitor`. Moving to a
device is one such walk with a visitor that transfers what it is handed.
"""
import abc
import warnings

from chainer import backend
from chainer.backends import _cpu
from chainer.backends import cuda
from chainer.backends import intel64
from chainer.utils import meta


class DeviceResident(meta.enable_final(meta_base=abc.ABCMeta)):
    """Base class of objects that live on one device together with their arrays.

    Subclasses do not need to call ``super().__init__()``: a resident starts on
    the CPU. They describe what they hold by overriding
    :meth:`device_resident_accept`; the transfer methods are final
    (overriding ``to_cpu``, ``to_gpu`` or ``to_intel64`` warns, overriding
    the others raises), as in Chainer.
    """

    _device = _cpu.CpuDevice()

    def __init__(self):
        self._device = _cpu.CpuDevice()

    @property
    def device(self):
        """The :class:`~chainer.backend.Device` the object lives on."""
        return self._device

    @property
    def xp(self):
        """The array module (``numpy`` or ``cupy``) of :attr:`device`."""
        return self._device.xp

    def device_resident_accept(self, visitor):
        """Hands this object and everything it holds to ``visitor``.

        Override it (calling ``super()`` first) to pass the held arrays to
        ``visitor.visit_array`` (storing what it returns), the held variables to
        ``visitor.visit_variable`` and the held residents to their own
        ``device_resident_accept``.

        Args:
            visitor (DeviceResidentsVisitor): The visitor.
        """
        visitor.visit_device_resident(self)

    @meta.final
    def to_device(self, device):
        """Moves the object, with what it holds, to a device.

        Args:
            device: A device specifier (see :func:`chainer.get_device`).

        Returns:
            The object itself.
        """
        self.device_resident_accept(_ToDeviceVisitor(backend.get_device(device)))
        return self

    @meta.final(action=DeprecationWarning)
    def to_cpu(self):
        """Moves the object to the CPU (prefer :meth:`to_device`).

        Returns:
            The object itself.
        """
        # Chainer 7 deprecates the per-backend methods, and says so on every call.
        warnings.warn("to_cpu is deprecated. Please use to_device('@numpy') instead.",
                      DeprecationWarning, stacklevel=2)
        return self.to_device(_cpu.CpuDevice())

    @meta.final(action=DeprecationWarning)
    def to_gpu(self, device=None):
        """Moves the object to a GPU (prefer :meth:`to_device`).

        Args:
            device: A CUDA device specifier. With ``None``, the current CUDA
                device is used and what is already on some GPU stays there.

        Returns:
            The object itself.
        """
        warnings.warn("to_gpu is deprecated. Please use to_device('@cupy:<id>') instead.",
                      DeprecationWarning, stacklevel=2)
        cuda.check_cuda_available()
        cupy_device = cuda._as_cupy_device(device)     # None: the current device
        if cupy_device is None:
            visitor = _ToDeviceVisitor(cuda.GpuDevice(cuda.cupy.cuda.Device()),
                                       keep_gpu_residents=True)
        else:
            visitor = _ToDeviceVisitor(cuda.GpuDevice(cupy_device))
        self.device_resident_accept(visitor)
        return self

    @meta.final(action=DeprecationWarning)
    def to_intel64(self):
        """Would move the object to iDeep; iDeep is never available in rechainer."""
        intel64.check_ideep_available()
        return self

    @meta.final
    def to_chx(self):
        """Would move the object to ChainerX; ChainerX is never available in rechainer."""
        from chainer.backends import _chainerx
        _chainerx._check_chainerx_available()
        return self

    @meta.final
    def from_chx(self):
        """Moves the object back from ChainerX; a no-op, as nothing can be there.

        Returns:
            The object itself.
        """
        return self


class DeviceResidentsVisitor:
    """Base class of the visitors that :meth:`DeviceResident.device_resident_accept`
    walks through a resident and what it holds."""

    def visit_device_resident(self, device_resident):
        """Processes a :class:`DeviceResident` (before what it holds)."""
        raise NotImplementedError(f'{type(self).__name__} does not implement '
                                  f'visit_device_resident')

    def visit_array(self, arr):
        """Processes an array and returns the array to keep (possibly ``arr`` itself)."""
        raise NotImplementedError(f'{type(self).__name__} does not implement visit_array')

    def visit_variable(self, param):
        """Processes a :class:`~chainer.Variable` or :class:`~chainer.Parameter`."""
        raise NotImplementedError(f'{type(self).__name__} does not implement visit_variable')


class _ToDeviceVisitor(DeviceResidentsVisitor):
    # Moves everything to ``device``. With keep_gpu_residents (to_gpu() without a
    # device), what is already on some GPU stays on it.

    def __init__(self, device, keep_gpu_residents=False):
        self._device = device
        self._keep_gpu = keep_gpu_residents

    def _target(self, current):
        if self._keep_gpu and isinstance(current, cuda.GpuDevice):
            return current
        return self._device

    def visit_device_resident(self, device_resident):
        device_resident._device = self._target(device_resident._device)

    def visit_array(self, arr):
        if arr is None:
            return None
        return self._target(backend.get_device_from_array(arr)).send(arr)

    def visit_variable(self, param):
        current = param.device
        target = self._target(current)
        param.to_device(target)
