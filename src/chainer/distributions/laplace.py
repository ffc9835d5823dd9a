"""The Laplace distribution."""
import math

from chainer import backend
from chainer import distribution
from chainer import function_node
from chainer import functions as F
from chainer import utils
from chainer.distributions import _params
from chainer.utils import cache


class LaplaceCDF(function_node.FunctionNode):
    """CDF of the standard Laplace distribution (location 0, scale 1)."""

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        self.retain_inputs((0,))
        return utils.force_array(0.5 - 0.5 * xp.sign(x) * xp.expm1(-abs(x)), x.dtype),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        # NOTE: the density; written out rather than left to sign(x), whose
        # zero derivative would lose the kink's value 0.5 at x = 0.
        return grad_outputs[0] * (0.5 * F.exp(-F.absolute(x))),


class LaplaceICDF(function_node.FunctionNode):
    """Inverse CDF of the standard Laplace distribution."""

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        self.retain_inputs((0,))
        centred = x - 0.5
        return utils.force_array(-xp.sign(centred) * xp.log1p(-2 * abs(centred)), x.dtype),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        # 1 / density(icdf(x)) = 1 / (1/2 - |x - 1/2|)
        return grad_outputs[0] / (0.5 - F.absolute(x - 0.5)),


def _laplace_cdf(x):
    """The CDF of the standard Laplace distribution (see :class:`LaplaceCDF`)."""
    return LaplaceCDF().apply((x,))[0]


def _laplace_icdf(x):
    """The inverse CDF of the standard Laplace distribution (see :class:`LaplaceICDF`)."""
    return LaplaceICDF().apply((x,))[0]


class Laplace(_params.LocScale):
    """Laplace (double exponential) distribution.

    .. math::
        p(x; \\mu, b) = \\frac{1}{2b} \\exp\\left(-\\frac{|x - \\mu|}{b}\\right)

    Args:
        loc (~chainer.Variable or :ref:`ndarray`): The location :math:`\\mu`.
        scale (~chainer.Variable or :ref:`ndarray`): The scale :math:`b`.
    """

    _name = 'Laplace'

    @property
    def mean(self):
        return self.loc

    @cache.cached_property
    def variance(self):
        return 2 * F.square(self.scale)

    @cache.cached_property
    def stddev(self):
        return math.sqrt(2) * self.scale

    @cache.cached_property
    def entropy(self):
        return F.log(self.scale) + (math.log(2) + 1)

    def log_prob(self, x):
        return -F.absolute(self._z(x)) - F.log(self.scale) - math.log(2)

    def cdf(self, x):
        return _laplace_cdf(self._z(x))

    def icdf(self, x):
        return self.loc + self.scale * _laplace_icdf(x)

    def sample_n(self, n):
        eps = _params.standard(self.xp, 'laplace', _params.sample_size(n, self), self.loc.dtype)
        return self.loc + self.scale * eps


@distribution.register_kl(Laplace, Laplace)
def _kl_laplace_laplace(dist1, dist2):
    distance = F.absolute(dist1.loc - dist2.loc)
    return (F.log(dist2.scale) - F.log(dist1.scale) + distance / dist2.scale
            + dist1.scale / dist2.scale * F.exp(-distance / dist1.scale) - 1)
