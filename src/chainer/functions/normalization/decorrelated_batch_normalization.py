"""Decorrelated batch normalization (Huang et al., 2018): ZCA whitening of groups of channels."""
from chainer import backend
from chainer import function_node
from chainer import variable
from chainer.functions.array import reshape
from chainer.functions.array import transpose
from chainer.functions.math import matmul
from chainer.functions.math import sum as _sum
from chainer.functions.normalization import batch_normalization as _bn
from chainer.functions.normalization import group_normalization as _gn
from chainer.utils import argument
from chainer.utils import type_check


def _group_shape(x_shape, groups):
    n, c = x_shape[:2]
    rest = 1
    for s in x_shape[2:]:
        rest *= s
    return (n, groups, c // groups, rest)


def _to_groups(x, groups, ops):
    """``(N, C, ...)`` to ``(groups, C // groups, N * rest)``: one matrix of samples per group."""
    n, g, d, rest = _group_shape(x.shape, groups)
    x = ops.transpose(ops.reshape(x, (n, g, d, rest)), (1, 2, 0, 3))
    return ops.reshape(x, (g, d, n * rest))


def _from_groups(y, x_shape, groups, ops):
    n, g, d, rest = _group_shape(x_shape, groups)
    y = ops.transpose(ops.reshape(y, (g, d, n, rest)), (2, 0, 1, 3))
    return ops.reshape(y, x_shape)


class _ArrayOps:
    reshape = staticmethod(lambda a, shape: a.reshape(shape))
    transpose = staticmethod(lambda a, axes: a.transpose(axes))


class _VariableOps:
    reshape = staticmethod(reshape.reshape)
    transpose = staticmethod(transpose.transpose)


def _check_running(name, array, shape):
    if array is not None and variable.as_array(array).shape != shape:
        raise ValueError(f'decorrelated_batch_normalization: {name} must have shape {shape} '
                         f'(groups, C // groups{", C // groups" if len(shape) == 3 else ""}), '
                         f'got {variable.as_array(array).shape}')


def _check_x(in_types, groups):
    x_type = in_types[0]
    type_check.expect(x_type.dtype.kind == 'f', x_type.ndim >= 2,
                      x_type.shape[1] % groups == 0)


class DecorrelatedBatchNormalization(function_node.FunctionNode):
    """Whitens each group of channels by the batch's covariance (ZCA), in training.

    ``mean`` and ``projection`` (arrays of shapes ``(groups, C // groups)``
    and ``(groups, C // groups, C // groups)``), when given, are running
    statistics updated in place.
    """

    def __init__(self, groups=16, eps=2e-5, mean=None, projection=None, decay=0.9):
        self.groups = _gn.positive_groups(groups, 'decorrelated_batch_normalization')
        self.eps = eps
        self.running_mean = mean
        self.running_projection = projection
        self.decay = decay

    def check_type_forward(self, in_types):
        # (unnamed: Chainer's messages say in_types[i] for this function)
        type_check.expect(in_types.size() == 1)
        _check_x(in_types, self.groups)

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        dtype = _bn.compute_dtype(x.dtype)
        xg = _to_groups(x.astype(dtype, copy=False), self.groups, _ArrayOps)
        m = xg.shape[2]
        mean = xg.mean(axis=2, keepdims=True)
        c = xg - mean
        cov = c @ c.transpose(0, 2, 1) / m
        cov += self.eps * xp.eye(cov.shape[1], dtype=dtype)
        g, d = xg.shape[:2]
        _check_running('running_mean', self.running_mean, (g, d))
        _check_running('running_projection', self.running_projection, (g, d, d))
        eigvals, eigvecs = xp.linalg.eigh(cov)
        std = xp.sqrt(eigvals)
        projection = (eigvecs / std[:, None, :]) @ eigvecs.transpose(0, 2, 1)
        self._saved = c, projection, eigvecs, std
        self.retain_inputs((0,))
        if self.running_mean is not None:
            running = variable.as_array(self.running_mean)
            running *= self.decay
            running += (1 - self.decay) * mean[:, :, 0]
        if self.running_projection is not None:
            # As Chainer does, the projection is scaled by m / (m - 1) (the unbiasing
            # factor of the running variance in batch normalization).
            running = variable.as_array(self.running_projection)
            running *= self.decay
            running += (1 - self.decay) * (m / max(m - 1, 1)) * projection
        y = _from_groups(projection @ c, x.shape, self.groups, _ArrayOps)
        return y.astype(x.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        # x is an input of the gradient node only so that a second backprop reaches it
        # (and is refused) instead of silently finding no path to x.
        x, = self.get_retained_inputs()
        grad = DecorrelatedBatchNormalizationGrad(self.groups, self._saved)
        return grad.apply((x, grad_outputs[0]))


class DecorrelatedBatchNormalizationGrad(function_node.FunctionNode):
    """Gradient of ZCA whitening ``y = P c``, ``P = (c c^T / m + eps I)^(-1/2)``, ``c`` centred x.

    With ``P = U diag(1/s) U^T`` (``s`` the square roots of the eigenvalues),
    ``gP = gy c^T`` goes back to the covariance as
    ``gS = U (K * (U^T gP U)) U^T`` with ``K_ij = -1 / (s_i s_j (s_i + s_j))``
    (the divided differences of ``t -> t^(-1/2)``, stable for equal
    eigenvalues), then ``gc = P gy + (gS + gS^T) c / m`` and ``gx`` is ``gc``
    centred.
    """

    def __init__(self, groups, saved):
        self.groups = groups
        self.saved = saved

    def forward(self, inputs):
        _, gy = inputs
        c, projection, u, s = self.saved
        gyg = _to_groups(gy.astype(c.dtype, copy=False), self.groups, _ArrayOps)
        m = c.shape[2]
        g_proj = gyg @ c.transpose(0, 2, 1)
        k = -1 / (s[:, :, None] * s[:, None, :] * (s[:, :, None] + s[:, None, :]))
        ut = u.transpose(0, 2, 1)
        g_cov = u @ (k * (ut @ g_proj @ u)) @ ut
        gc = projection @ gyg + (g_cov + g_cov.transpose(0, 2, 1)) @ c / m
        gc -= gc.mean(axis=2, keepdims=True)
        return _from_groups(gc, gy.shape, self.groups, _ArrayOps).astype(gy.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        raise NotImplementedError(
            'decorrelated_batch_normalization: double backpropagation is not supported (the '
            'gradient goes through an eigendecomposition)')


class FixedDecorrelatedBatchNormalization(function_node.FunctionNode):
    """Applies given whitening: ``y = projection (x - mean)`` for each group of channels."""

    def __init__(self, groups):
        self.groups = _gn.positive_groups(groups, 'fixed_decorrelated_batch_normalization')

    def check_type_forward(self, in_types):
        # (unnamed: Chainer's messages say in_types[i] for this function)
        type_check.expect(in_types.size() == 3)
        _check_x(in_types, self.groups)
        x_type, mean_type, p_type = in_types
        type_check.expect(
            mean_type.dtype == x_type.dtype,
            p_type.dtype == x_type.dtype,
            mean_type.ndim == 2,
            p_type.ndim >= 2,
            p_type.ndim <= 3,
            mean_type.shape[0] == self.groups,
            mean_type.shape[1] == x_type.shape[1] // self.groups,
        )
        # one projection per group, or one (d, d) shared by the groups (Chainer 7.8.1
        # broadcasts it)
        if type_check.eval(p_type.ndim) == 3:
            type_check.expect(p_type.shape[0] == self.groups)
        type_check.expect(
            p_type.shape[-2] == mean_type.shape[1],
            p_type.shape[-1] == mean_type.shape[1],
        )

    def forward(self, inputs):
        x, mean, projection = inputs
        self.retain_inputs((0, 1, 2))
        xg = _to_groups(x, self.groups, _ArrayOps)
        y = projection @ (xg - mean[:, :, None])
        return _from_groups(y, x.shape, self.groups, _ArrayOps),

    def backward(self, indexes, grad_outputs):
        x, mean, projection = self.get_retained_inputs()
        gy, = grad_outputs
        g = self.groups
        gyg = _to_groups(gy, g, _VariableOps)
        ret = []
        if 0 in indexes or 1 in indexes:
            gc = matmul.matmul(projection, gyg, transa=True)
            if 0 in indexes:
                ret.append(_from_groups(gc, x.shape, g, _VariableOps))
            if 1 in indexes:
                ret.append(-_sum.sum(gc, axis=2))
        if 2 in indexes:
            c = _to_groups(x, g, _VariableOps) - reshape.reshape(mean, mean.shape + (1,))
            gp = matmul.matmul(gyg, c, transb=True)
            # a projection shared by the groups gets the sum of theirs
            ret.append(gp if projection.ndim == 3 else _sum.sum(gp, axis=0))
        return ret


def decorrelated_batch_normalization(x, **kwargs):
    """Decorrelated batch normalization: whitens groups of channels over the batch.

    The ``C`` channels (axis 1) are split into ``groups`` groups of ``d =
    C / groups``. For each group, the values over the batch and the axes
    after the channels form a ``d x m`` matrix; it is centred and multiplied
    by the ZCA whitening matrix :math:`(\\Sigma + \\epsilon I)^{-1/2}` of its
    covariance :math:`\\Sigma`, so that the output channels of a group are
    decorrelated with unit variance. ``running_mean`` (shape
    ``(groups, d)``) and ``running_projection`` (``(groups, d, d)``), when
    given, are updated in place with ``decay``.

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float) of shape
            ``(N, C, ...)``.
        groups (int): Number of groups; it must divide ``C`` (default 16).
        eps (float): Added to the covariance's diagonal (default ``2e-5``).
        running_mean (N-dimensional array): Running mean, updated in place.
        running_projection (N-dimensional array): Running whitening matrix,
            updated in place.
        decay (float): Decay rate of the running statistics (default 0.9).

    Returns:
        ~chainer.Variable: Output of the shape and dtype of ``x``.

    .. admonition:: Example

        >>> x = np.random.RandomState(0).randn(100, 2).astype(np.float32)
        >>> y = F.decorrelated_batch_normalization(x, groups=1).array
        >>> np.round(y.T @ y / 100, 3)
        array([[ 1., -0.],
               [-0.,  1.]], dtype=float32)
    """
    groups, eps, running_mean, running_projection, decay = argument.parse_kwargs(
        kwargs, ('groups', 16), ('eps', 2e-5), ('running_mean', None),
        ('running_projection', None), ('decay', 0.9))
    node = DecorrelatedBatchNormalization(groups, eps, running_mean, running_projection, decay)
    return node.apply((x,))[0]


def fixed_decorrelated_batch_normalization(x, mean, projection, groups=16):
    """Decorrelated batch normalization with fixed statistics (inference).

    Each group of channels is centred by ``mean`` and multiplied by
    ``projection`` (see :func:`decorrelated_batch_normalization`).

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float) of shape
            ``(N, C, ...)``.
        mean (~chainer.Variable or N-dimensional array): Mean of shape
            ``(groups, C // groups)``.
        projection (~chainer.Variable or N-dimensional array): Whitening
            matrices of shape ``(groups, C // groups, C // groups)``, or one
            of shape ``(C // groups, C // groups)`` for every group.
        groups (int): Number of groups.

    Returns:
        ~chainer.Variable: Output of the shape and dtype of ``x``.
    """
    return FixedDecorrelatedBatchNormalization(groups).apply((x, mean, projection))[0]
