"""CUDAProfileHook: marks each function's forward and backward as NVTX ranges."""
from chainer import function_hook
from chainer.backends import cuda


def _nvtx():
    cuda.check_cuda_available()
    try:
        from cupy.cuda import nvtx
    except ImportError:
        nvtx = None
    if nvtx is None or not getattr(cuda.cuda, 'nvtx_enabled', True):
        raise RuntimeError('CUDAProfileHook needs NVTX support in CuPy, which this CuPy '
                           'build does not have')
    return nvtx


class CUDAProfileHook(function_hook.FunctionHook):
    """Function hook that names each function call in CUDA profiler timelines.

    Every forward and backward computation is wrapped in an NVTX range named
    ``<label>.forward`` or ``<label>.backward``, so profilers such as Nsight
    Systems or nvprof show which function launched which kernels. Needs CuPy
    built with NVTX; constructing it otherwise raises :class:`RuntimeError`.
    """

    name = 'CUDAProfileHook'

    def __init__(self):
        self._nvtx = _nvtx()

    def forward_preprocess(self, function, in_data):
        self._nvtx.RangePush(function.label + '.forward')

    def forward_postprocess(self, function, in_data):
        self._nvtx.RangePop()

    def backward_preprocess(self, function, in_data, out_grad):
        self._nvtx.RangePush(function.label + '.backward')

    def backward_postprocess(self, function, in_data, out_grad):
        self._nvtx.RangePop()
