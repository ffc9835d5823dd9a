"""What :func:`chainer.print_runtime_info` reports: the versions Chainer runs with."""
import sys


class _RuntimeInfo:
    """Versions of the platform, Chainer (rechainer), NumPy and the backends.

    Attributes:
        chainer_version (str): The Chainer API level rechainer provides.
        rechainer_version (str): The version of rechainer itself.
        chainerx_available (bool): Always ``False``: rechainer has no ChainerX.
        numpy_version (str): NumPy's version.
        platform_version (str): As given by :func:`platform.platform`.
        cuda_info (str): CuPy's runtime report, or ``None`` without CuPy.
        ideep_version (str): Always ``None``: rechainer has no iDeep.
    """

    chainer_version = None
    rechainer_version = None
    numpy_version = None
    cuda_info = None
    ideep_version = None

    def __init__(self):
        import platform

        import numpy

        import chainer
        from chainer.backends import cuda
        self.chainer_version = chainer.__version__
        self.rechainer_version = chainer.rechainer_version
        self.chainerx_available = False
        self.numpy_version = numpy.__version__
        self.platform_version = platform.platform()
        self.cuda_info = _cuda_info(cuda) if cuda.available else None
        self.ideep_version = None

    def __str__(self):
        lines = [f'Platform: {self.platform_version}',
                 f'Chainer: {self.chainer_version}',
                 f'rechainer: {self.rechainer_version}',
                 'ChainerX: ' + ('Available' if self.chainerx_available else 'Not Available'),
                 f'NumPy: {self.numpy_version}']
        if self.cuda_info is None:
            lines.append('CuPy: Not Available')
        else:
            lines.append('CuPy:')
            lines += ['  ' + line for line in self.cuda_info.splitlines()]
        lines.append('iDeep: ' + ('Not Available' if self.ideep_version is None
                                  else self.ideep_version))
        return '\n'.join(lines) + '\n'


def _cuda_info(cuda):
    # CuPy's own report (versions of CuPy, CUDA, the driver and the device).
    try:
        import cupyx
        return str(cupyx.get_runtime_info())
    except Exception:   # an old CuPy without it, or a runtime query that fails
        return f'CuPy Version          : {cuda.cupy.__version__}'


def _get_runtime_info():
    return _RuntimeInfo()


def print_runtime_info(out=None):
    """Prints the versions of the platform, Chainer, NumPy and the backends.

    Include this in bug reports.

    Args:
        out: File-like object to write to (``sys.stdout`` by default).
    """
    if out is None:
        out = sys.stdout
    out.write(str(_get_runtime_info()))
    if hasattr(out, 'flush'):
        out.flush()
