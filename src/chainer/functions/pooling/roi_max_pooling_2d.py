"""Region of interest (ROI) max pooling with ROIs given per batch index."""
from chainer import function
from chainer.functions.pooling import _roi


class ROIMaxPooling2D(function.Function):
    """Max pooling of each ROI into ``outh x outw`` bins (``-inf`` for empty bins)."""

    def __init__(self, outsize, spatial_scale):
        self.outh, self.outw = _roi.outsize_pair('roi_max_pooling_2d', outsize)
        self.spatial_scale = _roi.scale_arg('roi_max_pooling_2d', spatial_scale)

    def check_type_forward(self, in_types):
        _roi.check_types(in_types)

    def forward(self, inputs):
        x, rois, roi_indices = inputs
        edges, self._batch = _roi.prepare(self, 'roi_max_pooling_2d', x, rois, roi_indices)
        bins = _roi.yx_int_bins(self, edges, *x.shape[2:])
        y, self.argmax_data = _roi.bin_max(x, self._batch, *bins)
        return y,

    def backward(self, inputs, grad_outputs):
        x = inputs[0]
        gx = _roi.scatter_by_index(grad_outputs[0], self.argmax_data, self._batch, x.shape)
        return gx, None, None


def roi_max_pooling_2d(x, rois, roi_indices, outsize, spatial_scale):
    """Spatial region of interest (ROI) max pooling.

    Each ROI, scaled by ``spatial_scale`` and rounded to whole pixels, is split
    into ``outh x outw`` bins; each output is the maximum of its bin, or
    ``-inf`` for a bin that holds no pixel.

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
        >>> F.roi_max_pooling_2d(x, rois, np.array([0], np.int32), 2, 1.0).array
        array([[[[ 5.,  7.],
                 [13., 15.]]]], dtype=float32)
    """
    return ROIMaxPooling2D(outsize, spatial_scale)(x, rois, roi_indices)
