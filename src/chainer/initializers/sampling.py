"""Initializers of up- and down-sampling (bilinear) convolution filters."""
import numpy

from chainer import backend
from chainer import initializer


def _bilinear_kernel(ksize, ndim):
    # Separable triangle filter: the weights of linear interpolation by a factor
    # (ksize + 1) // 2, one axis at a time.
    factor = (ksize + 1) // 2
    center = factor - 1 if ksize % 2 == 1 else factor - 0.5
    tri = 1 - numpy.abs(numpy.arange(ksize) - center) / factor
    kernel = tri
    for _ in range(ndim - 1):
        kernel = numpy.multiply.outer(kernel, tri)
    return kernel


class _SamplingFilter(initializer.Initializer):

    def __init__(self, interpolation='linear', dtype=None):
        if interpolation != 'linear':
            raise ValueError(f'Unsupported interpolation method: {interpolation}')
        self.interpolation = interpolation
        super().__init__(dtype)

    def _normalize(self, kernel):
        return kernel

    def __call__(self, array):
        self._check_dtype(array)
        name = type(self).__name__
        if array.ndim < 3:
            raise initializer._InitializerError(
                f'{name} needs a convolution weight (in/out channels and a window), got '
                f'shape {array.shape}')
        in_c, out_c = array.shape[:2]
        if not (in_c == out_c or out_c == 1):
            raise initializer._InitializerError(
                f'{name} needs as many channels on both sides, or one output channel, got '
                f'shape {array.shape}')
        ksizes = array.shape[2:]
        if any(k != ksizes[0] for k in ksizes):
            raise ValueError('ksize must be all same: '
                             + ' != '.join(str(k) for k in ksizes))
        kernel = self._normalize(_bilinear_kernel(ksizes[0], len(ksizes)))
        weight = numpy.zeros(array.shape, dtype=array.dtype)
        if out_c == 1:
            weight[:, 0] = kernel
        else:
            idx = numpy.arange(in_c)
            weight[idx, idx] = kernel
        backend.copyto(array, weight)


class UpsamplingDeconvFilter(_SamplingFilter):
    """Fills a deconvolution weight with a bilinear upsampling kernel.

    The weight has the deconvolution layout ``(in_channels, out_channels, k, ..., k)``;
    channel ``i`` feeds output channel ``i`` (or the single output channel).

    Args:
        interpolation (str): Only ``'linear'``.
        dtype: Data type of the arrays it makes.
    """


class DownsamplingConvFilter(_SamplingFilter):
    """Fills a convolution weight with a bilinear downsampling kernel (summing to one).

    Args:
        interpolation (str): Only ``'linear'``.
        dtype: Data type of the arrays it makes.
    """

    def _normalize(self, kernel):
        return kernel / kernel.sum()
