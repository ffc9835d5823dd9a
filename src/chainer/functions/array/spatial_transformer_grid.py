"""Sampling grid of a spatial transformer: affine maps of a regular output grid."""
import numpy

from chainer import backend
from chainer import function_node
from chainer.functions import _old_style
from chainer.utils import argument
from chainer.utils import type_check


def _base_grid(xp, output_shape, dtype):
    # Homogeneous target coordinates (x_t, y_t, 1), shape (3, H * W): x runs
    # along the width, y along the height, both over [-1, 1].
    H, W = output_shape
    y, x = numpy.meshgrid(numpy.linspace(-1, 1, H), numpy.linspace(-1, 1, W), indexing='ij')
    base = numpy.stack([x.ravel(), y.ravel(), numpy.ones(H * W)]).astype(dtype)
    return base if xp is numpy else xp.asarray(base)


def _compute_dtype(dtype):
    # float16 products over many grid points lose too much; accumulate in float32.
    return numpy.float32 if dtype == numpy.float16 else dtype


class SpatialTransformerGrid(_old_style.FunctionCall, function_node.FunctionNode):
    """Computes ``theta @ (x_t, y_t, 1)`` for every point of the output grid."""

    def __init__(self, output_shape):
        self.output_shape = tuple(output_shape)

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('theta',))
        theta_type, = in_types
        type_check.expect(
            theta_type.dtype.kind == 'f',
            theta_type.ndim == 3,
            theta_type.shape[1] == 2,
            theta_type.shape[2] == 3,
        )

    def forward(self, inputs):
        theta, = inputs
        xp = backend.get_array_module(theta)
        base = _base_grid(xp, self.output_shape, _compute_dtype(theta.dtype))
        grid = xp.matmul(theta.astype(base.dtype, copy=False), base)
        return grid.astype(theta.dtype, copy=False).reshape((len(theta), 2) + self.output_shape),

    def backward(self, indexes, grad_outputs):
        return SpatialTransformerGridGrad(self.output_shape).apply(grad_outputs)


class SpatialTransformerGridGrad(function_node.FunctionNode):
    """The adjoint of the grid map: ``g @ base.T``; its own adjoint is the grid map."""

    def __init__(self, output_shape):
        self.output_shape = output_shape

    def forward(self, inputs):
        gy, = inputs
        xp = backend.get_array_module(gy)
        base = _base_grid(xp, self.output_shape, _compute_dtype(gy.dtype))
        g = gy.reshape(len(gy), 2, gy.shape[2] * gy.shape[3]).astype(base.dtype, copy=False)
        return xp.matmul(g, base.T).astype(gy.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        return SpatialTransformerGrid(self.output_shape).apply(grad_outputs)


def spatial_transformer_grid(theta, output_shape, **kwargs):
    """Generates the sampling grid of a 2D spatial transformer.

    Each point ``(x_t, y_t)`` of a regular output grid is mapped to the input
    location it samples from:

    .. math::

        \\begin{pmatrix} x^s \\\\ y^s \\end{pmatrix} =
        \\begin{pmatrix} \\theta_{11} & \\theta_{12} & \\theta_{13} \\\\
        \\theta_{21} & \\theta_{22} & \\theta_{23} \\end{pmatrix}
        \\begin{pmatrix} x^t \\\\ y^t \\\\ 1 \\end{pmatrix}

    Coordinates are normalized to ``[-1, 1]``: ``(-1, -1)`` is the upper-left
    corner of an image and ``(1, 1)`` the lower-right one. The result feeds
    :func:`~chainer.functions.spatial_transformer_sampler` (see Jaderberg et
    al., *Spatial Transformer Networks*, 2015).

    Args:
        theta (~chainer.Variable or N-dimensional array): Batch of affine
            matrices, shape ``(n, 2, 3)``.
        output_shape (tuple of int): ``(h_O, w_O)``, the size of the grid.

    Returns:
        ~chainer.Variable: Grid of shape ``(n, 2, h_O, w_O)``; along the second
        axis the first entry is the x (width) coordinate and the second the y
        (height) coordinate.

    .. admonition:: Example

        >>> theta = np.array([[[1, 0, 0], [0, 1, 0]]], np.float32)
        >>> F.spatial_transformer_grid(theta, (2, 3)).array[0, 0]
        array([[-1.,  0.,  1.],
               [-1.,  0.,  1.]], dtype=float32)
    """
    if kwargs:
        argument.check_unexpected_kwargs(
            kwargs, use_cudnn='The argument "use_cudnn" is not supported anymore. '
            'Use chainer.using_config(\'use_cudnn\', value) context where value can be '
            '`always`, `never`, or `auto`.')
        argument.assert_kwargs_empty(kwargs)
    return SpatialTransformerGrid(output_shape).apply((theta,))[0]
