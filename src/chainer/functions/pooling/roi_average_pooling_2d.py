"""Region of interest (ROI) average pooling with ROIs given per batch index."""
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

    def forward(self, inputs):
        x, rois, roi_indices = inputs
        xp = backend.get_array_module(x)
        edges, self._batch = _roi.prepare(self, 'roi_average_pooling_2d', x, rois, roi_indices)
        hs, he, ws, we = _roi.yx_int_bins(self, edges, *x.shape[2:])
        # A bin's mean is separable: (mean over its rows) of (mean over its columns).
        self._ay = xp.asarray(_roi.box_rows(hs, he, x.shape[2], x.dtype))
        self._ax = xp.asarray(_roi.box_rows(ws, we, x.shape[3], x.dtype))
        return _roi.separable_pool(x, self._batch, self._ay, self._ax),

    def backward(self, inputs, grad_outputs):
        gx = _roi.separable_pool_grad(grad_outputs[0], self._batch, self._ay, self._ax,
                                      inputs[0].shape)
        return gx, None, None


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
