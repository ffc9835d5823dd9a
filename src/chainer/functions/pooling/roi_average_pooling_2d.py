"""Region of interest (ROI) average pooling with ROIs given per batch index."""
import numpy

from chainer import backend
from chainer import function
from chainer.functions.pooling import _roi


class ROIAveragePooling2D(function.Function):
    """Average pooling of each ROI into ``outh x outw`` bins (0 for empty bins)."""

    def __init__(self, outsize, spatial_scale):
        self.outh, self.outw = _roi.outsize_pair('roi_average_pooling_2d', outsize)
        self.spatial_scale = _roi.scale_arg('roi_average_pooling_2d', spatial_scale)

    def check_type_forward(self, in_types):
        _roi.check_types(in_types)

    def _counts(self, xp):
        hs, he, ws, we = self._bins
        count = (he - hs)[:, :, None] * (we - ws)[:, None, :]
        # 1 / count per bin, 0 for an empty bin; broadcasts against (R, c, outh, outw).
        inv = numpy.where(count > 0, 1 / numpy.maximum(count, 1), 0)
        return xp.asarray(inv[:, None])

    def forward(self, inputs):
        x, rois, roi_indices = inputs
        xp = backend.get_array_module(x)
        edges, self._batch = _roi.prepare(self, 'roi_average_pooling_2d', x, rois, roi_indices)
        self._bins = _roi.yx_int_bins(self, edges, *x.shape[2:])
        y = _roi.bin_sum(x, self._batch, *self._bins) * self._counts(xp)
        return y.astype(x.dtype),

    def backward(self, inputs, grad_outputs):
        x = inputs[0]
        xp = backend.get_array_module(x)
        g = grad_outputs[0] * self._counts(xp)
        gx = _roi.bin_sum_grad(g, self._batch, *self._bins, x.shape)
        return gx.astype(x.dtype), None, None


def roi_average_pooling_2d(x, rois, roi_indices, outsize, spatial_scale):
    """Spatial region of interest (ROI) average pooling.

    Each ROI, scaled by ``spatial_scale`` and rounded to whole pixels, is split
    into ``outh x outw`` bins; each output is the mean of its bin, or 0 for a
    bin that holds no pixel.

    Args:
        x (~chainer.Variable or N-dimensional array): Float input of shape
            ``(n, c, h, w)``.
        rois (~chainer.Variable or N-dimensional array): ROIs of shape
            ``(R, 4)``, rows ``(y_min, x_min, y_max, x_max)``, of ``x``'s dtype.
        roi_indices (~chainer.Variable or N-dimensional array): ``int32``
            batch index of each ROI, shape ``(R,)``.
        outsize (int or pair of ints): Output size ``(outh, outw)``.
        spatial_scale (float): Factor from ROI coordinates to ``x``'s pixels.

    Returns:
        ~chainer.Variable: Output of shape ``(R, c, outh, outw)``.

    .. admonition:: Example

        >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
        >>> rois = np.array([[0, 0, 4, 4]], np.float32)
        >>> F.roi_average_pooling_2d(x, rois, np.array([0], np.int32), 2, 1.0).array
        array([[[[ 2.5,  4.5],
                 [10.5, 12.5]]]], dtype=float32)
    """
    return ROIAveragePooling2D(outsize, spatial_scale)(x, rois, roi_indices)
