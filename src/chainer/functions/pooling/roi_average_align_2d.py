"""Region of interest (ROI) align of Mask R-CNN, averaging bilinear samples."""
import numpy

from chainer import backend
from chainer import function
from chainer.functions.pooling import _roi


def _axis_weights(start, end, out, ratio, size, dtype):
    # (R, out, size): the mean of the interpolation rows of each bin's samples.
    coord, grid = _roi.sample_points(start, end, out, ratio)
    rows = _roi.interp_rows(coord, size).sum(axis=2) / grid[:, None, None]
    return rows.astype(dtype)


class ROIAverageAlign2D(function.Function):
    """Each bin of an ROI becomes the mean of bilinear samples on a regular grid in it."""

    def __init__(self, outsize, spatial_scale, sampling_ratio=None):
        self.outh, self.outw = _roi.outsize_pair('roi_average_align_2d', outsize)
        self.spatial_scale = _roi.scale_arg('roi_average_align_2d', spatial_scale)
        self.sampling_ratio = _roi.sampling_ratio_pair('roi_average_align_2d', sampling_ratio)

    def check_type_forward(self, in_types):
        _roi.check_types(in_types, float32_only=True)

    def forward(self, inputs):
        x, rois, roi_indices = inputs
        xp = backend.get_array_module(x)
        n, c, h, w = x.shape
        edges, self._batch = _roi.prepare(self, 'roi_average_align_2d', x, rois, roi_indices)
        edges = edges.astype(numpy.float64)
        ry, rx = self.sampling_ratio
        # Sampling is separable: a bin's mean is (rows of ay) @ x @ (rows of ax)^T.
        self._ay = xp.asarray(_axis_weights(edges[:, 0], edges[:, 2], self.outh, ry, h, x.dtype))
        self._ax = xp.asarray(_axis_weights(edges[:, 1], edges[:, 3], self.outw, rx, w, x.dtype))
        return _roi.separable_pool(x, self._batch, self._ay, self._ax),

    def backward(self, inputs, grad_outputs):
        gx = _roi.separable_pool_grad(grad_outputs[0], self._batch, self._ay, self._ax,
                                      inputs[0].shape)
        return gx, None, None


def roi_average_align_2d(x, rois, roi_indices, outsize, spatial_scale, sampling_ratio=None):
    """Spatial region of interest (ROI) align with average pooling.

    Each ROI, scaled by ``spatial_scale`` (not rounded), is split into
    ``outh x outw`` bins; each bin is sampled on a regular grid by bilinear
    interpolation and the output is the mean of its samples. Samples more
    than one pixel outside the image count as 0.

    Args:
        x (~chainer.Variable or N-dimensional array): ``float32`` input of shape
            ``(n, c, h, w)``.
        rois (~chainer.Variable or N-dimensional array): ROIs of shape
            ``(R, 4)``, rows ``(y_min, x_min, y_max, x_max)``, of ``x``'s dtype.
        roi_indices (~chainer.Variable or N-dimensional array): ``int32``
            batch index of each ROI, shape ``(R,)``.
        outsize (int or pair of ints): Output size ``(outh, outw)``.
        spatial_scale (float): Factor from ROI coordinates to ``x``'s pixels.
        sampling_ratio (None, int or pair): Samples per bin along each axis;
            ``None`` takes as many as the bin is long (rounded up).

    Returns:
        ~chainer.Variable: Output of shape ``(R, c, outh, outw)``.

    See the original paper: `Mask R-CNN <https://arxiv.org/abs/1703.06870>`_.

    .. admonition:: Example

        >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
        >>> rois = np.array([[0, 0, 4, 4]], np.float32)
        >>> F.roi_average_align_2d(x, rois, np.array([0], np.int32), 2, 1.0).array
        array([[[[ 5.  ,  6.75],
                 [12.  , 13.75]]]], dtype=float32)
    """
    return ROIAverageAlign2D(outsize, spatial_scale, sampling_ratio)(x, rois, roi_indices)
