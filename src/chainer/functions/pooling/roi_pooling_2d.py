"""Region of interest (ROI) max pooling of Fast R-CNN."""
import numpy

from chainer import backend
from chainer import function_node
from chainer.functions.pooling import _roi
from chainer.utils import type_check


def _roi_bins(rois, spatial_scale, outh, outw, h, w):
    # rois: (R, 5) host rows (batch, x_min, y_min, x_max, y_max); the edges are
    # scaled in the ROIs' dtype and rounded to pixels, and include the end pixel.
    edges = rois[:, 1:] * rois.dtype.type(spatial_scale)
    hs, he = _roi.int_bins(edges[:, 1], edges[:, 3], outh, h, 1)
    ws, we = _roi.int_bins(edges[:, 0], edges[:, 2], outw, w, 1)
    return hs, he, ws, we


class ROIPooling2D(function_node.FunctionNode):
    """Max pooling of each ROI into ``outh x outw`` bins."""

    def __init__(self, outh, outw, spatial_scale):
        self.outh, self.outw = outh, outw
        self.spatial_scale = spatial_scale

    def check_type_forward(self, in_types):
        # (unnamed: Chainer's messages say in_types[i] for this function)
        type_check.expect(in_types.size() == 2)
        x_type, roi_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim == 4,
            x_type.dtype == roi_type.dtype,
            roi_type.ndim == 2,
            roi_type.shape[1] == 5,
        )

    def forward(self, inputs):
        x, rois = inputs
        rois = _roi.to_host(rois)
        _roi.check_finite('roi_pooling_2d', rois)
        self._batch = rois[:, 0].astype(numpy.int64)
        _roi.check_batch_indices('roi_pooling_2d', self._batch, x.shape[0], 'rois[:, 0]')
        bins = _roi_bins(rois, self.spatial_scale, self.outh, self.outw, *x.shape[2:])
        y, self.argmax_data = _roi.bin_max(x, self._batch, *bins)
        self._bottom_data_shape = x.shape
        xp = backend.get_array_module(x)
        return xp.where(self.argmax_data >= 0, y, 0).astype(x.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        return ROIPooling2DGrad(self.outh, self.outw, self.spatial_scale,
                                self._bottom_data_shape, self.argmax_data,
                                self._batch).apply(grad_outputs) + (None,)


class ROIPooling2DGrad(function_node.FunctionNode):
    """Routes each bin's gradient to the pixel that won it."""

    def __init__(self, outh, outw, spatial_scale, bottom_data_shape, argmax_data, batch=None):
        self.outh, self.outw = outh, outw
        self.spatial_scale = spatial_scale
        self._bottom_data_shape = bottom_data_shape
        self.argmax_data = argmax_data
        self._batch = batch

    def forward(self, inputs):
        gy, = inputs
        return _roi.scatter_by_index(gy, self.argmax_data, self._batch,
                                     self._bottom_data_shape),

    def backward(self, indexes, grad_outputs):
        return _ROIPick(self).apply(grad_outputs)


class _ROIPick(function_node.FunctionNode):
    # Reads the winning pixels of a ROI max pooling: the adjoint of ROIPooling2DGrad.

    def __init__(self, grad):
        self.grad = grad

    def forward(self, inputs):
        return _roi.gather_by_index(inputs[0], self.grad.argmax_data, self.grad._batch),

    def backward(self, indexes, grad_outputs):
        g = self.grad
        return ROIPooling2DGrad(g.outh, g.outw, g.spatial_scale, g._bottom_data_shape,
                                g.argmax_data, g._batch).apply(grad_outputs)


def roi_pooling_2d(x, rois, outh, outw, spatial_scale):
    """Spatial region of interest (ROI) pooling.

    Each ROI, scaled by ``spatial_scale`` and rounded to whole pixels (its end
    pixel included), is split into ``outh x outw`` bins; each output is the
    maximum of its bin, or 0 for a bin that holds no pixel.

    Args:
        x (~chainer.Variable or N-dimensional array): Float input of shape
            ``(n, c, h, w)``.
        rois (~chainer.Variable or N-dimensional array): ROIs of shape
            ``(R, 5)``, rows ``(batch_index, x_min, y_min, x_max, y_max)``,
            of the same dtype as ``x``.
        outh (int): Height of each output.
        outw (int): Width of each output.
        spatial_scale (float): Factor from ROI coordinates to ``x``'s pixels.

    Returns:
        ~chainer.Variable: Output of shape ``(R, c, outh, outw)``.

    See the original paper: `Fast R-CNN <https://arxiv.org/abs/1504.08083>`_.

    .. admonition:: Example

        >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
        >>> rois = np.array([[0, 0, 0, 3, 3]], np.float32)
        >>> F.roi_pooling_2d(x, rois, 2, 2, 1.0).array
        array([[[[ 5.,  7.],
                 [13., 15.]]]], dtype=float32)
    """
    return ROIPooling2D(outh, outw, spatial_scale).apply((x, rois))[0]
