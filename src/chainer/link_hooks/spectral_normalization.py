"""Spectral normalization (Miyato et al., 2018) as a link hook."""
import sys

import chainer
from chainer import backend
from chainer import configuration
from chainer.link_hooks import _weight_hook
from chainer import variable

# Links whose weight has its outputs on axis 1: deconvolutions, (in_channels, out_channels,
# k...). Looked up in sys.modules: a link of one of these classes has its module loaded.
_OUTPUT_AXIS_1 = (('chainer.links.connection.deconvolution_2d', 'Deconvolution2D'),
                  ('chainer.links.connection.deconvolution_nd', 'DeconvolutionND'))


def _output_axis(link):
    for module_name, class_name in _OUTPUT_AXIS_1:
        module = sys.modules.get(module_name)
        cls = getattr(module, class_name, None)
        if cls is not None and isinstance(link, cls):
            return 1
    return 0


def _l2normalize(xp, v, eps):
    return v / (xp.linalg.norm(v) + eps)


def update_approximate_vectors(weight_matrix, u, n_power_iteration, eps):
    """Runs power iteration on the matrix ``weight_matrix`` (an array) from ``u``.

    Returns:
        tuple: The new left and right singular vector estimates ``(u, v)``.
    """
    xp = backend.get_array_module(weight_matrix)
    for _ in range(n_power_iteration):
        v = _l2normalize(xp, xp.dot(u, weight_matrix), eps)
        u = _l2normalize(xp, xp.dot(weight_matrix, v), eps)
    return u, v


def calculate_max_singular_value(weight_matrix, u, v):
    """Returns :math:`u^\\top W v`, the largest singular value estimate, as a Variable
    differentiable with respect to ``weight_matrix``."""
    F = chainer.functions
    uW = F.linear(u[None], F.transpose(weight_matrix))     # (1, in)
    return F.sum(uW * v)


class SpectralNormalization(_weight_hook.WeightHook):
    """Divides a link's weight by its largest singular value before each forward.

    The weight is read as a matrix with the outputs as rows (axis 0, or axis 1
    for deconvolutions) and the rest flattened. The largest singular value is
    estimated by power iteration from a vector ``u`` kept on the link as a
    persistent value named ``<weight_name>_u`` (so it is saved with the
    model); ``u`` advances only in training mode (``chainer.config.train``),
    and not when the forward is recomputed (:func:`~chainer.functions.forget`).

    Args:
        n_power_iteration (int): Power iterations per forward (at least 1).
        eps (float): Guards the normalizations of ``u`` and ``v``.
        use_gamma (bool): Also learn a scale ``gamma`` (a parameter of the
            link, initialized with the weight's largest singular value).
        factor (float): If given, the weight is divided by
            ``sigma / factor`` instead of ``sigma``.
        weight_name (str): Attribute name of the weight.
        name (str): Key of the hook (default ``'SpectralNormalization'``).

    .. admonition:: Example

        >>> from chainer.link_hooks import SpectralNormalization
        >>> layer = L.Linear(3, 2).add_hook(SpectralNormalization())
        >>> layer.W_u.shape
        (2,)
        >>> layer(np.ones((1, 3), np.float32)).shape
        (1, 2)
    """

    name = 'SpectralNormalization'

    def __init__(self, n_power_iteration=1, eps=1e-6, use_gamma=False, factor=None,
                 weight_name='W', name=None):
        if n_power_iteration < 1:
            raise chainer.initializer._InitializerError(
                f'SpectralNormalization: n_power_iteration must be at least 1, got '
                f'{n_power_iteration}')
        self.n_power_iteration = n_power_iteration
        self.eps = eps
        self.use_gamma = use_gamma
        self.factor = factor
        self.weight_name = weight_name
        self.vector_name = weight_name + '_u'
        self._initialized = False
        self.axis = 0
        if name is not None:
            self.name = name

    def added(self, link):
        if hasattr(link, self.weight_name):
            self.axis = _output_axis(link)
        super().added(link)

    def deleted(self, link):
        delattr(link, self.vector_name)
        if self.use_gamma:
            del link.gamma

    def _prepare(self, link):
        W = getattr(link, self.weight_name)
        if W.shape[self.axis] == 0:
            raise ValueError(f'Expect {self.weight_name}.shape[{self.axis}] > 0, got '
                             f'{self.weight_name}.shape = {W.shape} in {type(link).__name__}')
        xp = link.xp
        u = xp.random.normal(size=(W.shape[self.axis],)).astype(W.dtype)
        setattr(link, self.vector_name, u)
        link.register_persistent(self.vector_name)
        if self.use_gamma:
            matrix = self.reshape_W(W).array
            sigma = xp.linalg.svd(matrix.astype(xp.float64), compute_uv=False)[0]
            with link.init_scope():
                link.gamma = variable.Parameter(xp.asarray(sigma, W.dtype))
        self._initialized = True

    def transform(self, link, W):
        return self.normalize_weight(link)

    def reshape_W(self, W):
        """Returns the weight (a Variable) as a matrix with the outputs as rows."""
        F = chainer.functions
        if self.axis != 0:
            W = F.moveaxis(W, self.axis, 0)
        return W if W.ndim == 2 else F.reshape(W, (W.shape[0], -1))

    def normalize_weight(self, link):
        """Returns the link's weight divided by its estimated largest singular value."""
        W = getattr(link, self.weight_name)
        u = getattr(link, self.vector_name)
        matrix = self.reshape_W(W)
        if configuration.config.in_recomputing:
            # The same u and v as the forward being recomputed (u was stored after it).
            v = self.v
        else:
            with chainer.using_device(link.device):
                u, v = update_approximate_vectors(matrix.array, u, self.n_power_iteration,
                                                  self.eps)
        sigma = calculate_max_singular_value(matrix, u, v)
        if self.factor is not None:
            sigma = sigma / self.factor
        W = (link.gamma * W if self.use_gamma else W) / sigma
        self.v = v
        if configuration.config.train and not configuration.config.in_recomputing:
            backend.copyto(getattr(link, self.vector_name), u)
        return W
