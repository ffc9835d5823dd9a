"""Region of interest (ROI) align of Mask R-CNN, taking the largest bilinear sample."""
import numpy

from chainer import backend
from chainer import function
from chainer.functions.pooling import _roi


class ROIMaxAlign2D(function.Function):
    """Each bin of an ROI becomes the largest of bilinear samples on a regular grid in it."""

    def __init__(self, outsize, spatial_scale, sampling_ratio=None):
        self.outh, self.outw = _roi.outsize_pair('roi_max_align_2d', outsize)
        self.spatial_scale = _roi.scale_arg('roi_max_align_2d', spatial_scale)
        self.sampling_ratio = _roi.sampling_ratio_pair('roi_max_align_2d', sampling_ratio)

    def check_type_forward(self, in_types):
        _roi.check_types(in_types, float32_only=True)

    def forward(self, inputs):
        x, rois, roi_indices = inputs
        xp = backend.get_array_module(x)
        n, c, h, w = x.shape
        ph, pw = self.outh, self.outw
        edges, self._batch = _roi.prepare(self, 'roi_max_align_2d', x, rois, roi_indices)
        edges = edges.astype(numpy.float64)
        ry, rx = self.sampling_ratio
        coord_y, grid_y = _roi.sample_points(edges[:, 0], edges[:, 2], ph, ry)
        coord_x, grid_x = _roi.sample_points(edges[:, 1], edges[:, 3], pw, rx)
        n_rois = len(self._batch)
        y = xp.empty((n_rois, c, ph, pw), dtype=x.dtype)
        # The winning sample's coordinates, for the backward pass (nan: no sample).
        self._cy = xp.empty((n_rois, c, ph, pw), dtype=numpy.float64)
        self._cx = xp.empty_like(self._cy)
        images = {}     # each image as one (h, c * w) matrix, made once
        for r in range(n_rois):
            b = int(self._batch[r])
            if b not in images:
                images[b] = xp.ascontiguousarray(x[b].transpose(1, 0, 2)).reshape(h, c * w)
            gy, gx = int(grid_y[r]), int(grid_x[r])
            cy, cx = coord_y[r, :, :gy], coord_x[r, :, :gx]       # (ph, gy), (pw, gx)
            my = xp.asarray(_roi.interp_rows(cy.reshape(-1), h).astype(x.dtype))
            mx = xp.asarray(_roi.interp_rows(cx.reshape(-1), w).astype(x.dtype))
            # All samples of the ROI at once: (my @ x[b]) @ mx.T per channel, as two GEMMs.
            s = (my @ images[b]).reshape(ph * gy * c, w) @ mx.T
            s = s.reshape(ph, gy, c, pw, gx).transpose(2, 0, 3, 1, 4).reshape(c, ph, pw, -1)
            # Samples more than a pixel outside the image do not take part.
            inside_y = (cy >= -1) & (cy <= h)
            inside_x = (cx >= -1) & (cx <= w)
            inside = (inside_y[:, None, :, None] & inside_x[None, :, None, :]).reshape(ph, pw, -1)
            s = xp.where(xp.asarray(inside), s, -numpy.inf)
            arg = s.argmax(axis=3)
            y[r] = xp.take_along_axis(s, arg[..., None], 3)[..., 0]
            found = y[r] > -numpy.inf
            rows = xp.asarray(cy)[xp.arange(ph)[:, None], arg // gx]
            cols = xp.asarray(cx)[xp.arange(pw), arg % gx]
            self._cy[r] = xp.where(found, rows, numpy.nan)
            self._cx[r] = xp.where(found, cols, numpy.nan)
        return y,

    def backward(self, inputs, grad_outputs):
        x = inputs[0]
        return (_roi.scatter_bilinear(grad_outputs[0], self._cy, self._cx, self._batch, x.shape),
                None, None)


def roi_max_align_2d(x, rois, roi_indices, outsize, spatial_scale, sampling_ratio=None):
    """Spatial region of interest (ROI) align with max pooling.

    As :func:`roi_average_align_2d`, but each output is the largest bilinear
    sample of its bin; samples more than one pixel outside the image are left
    out (a bin with none gives ``-inf``).

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

    .. admonition:: Example

        >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
        >>> rois = np.array([[0, 0, 4, 4]], np.float32)
        >>> F.roi_max_align_2d(x, rois, np.array([0], np.int32), 2, 1.0).array
        array([[[[ 7.5,  9. ],
                 [13.5, 15. ]]]], dtype=float32)
    """
    return ROIMaxAlign2D(outsize, spatial_scale, sampling_ratio)(x, rois, roi_indices)
