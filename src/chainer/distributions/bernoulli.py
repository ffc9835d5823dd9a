"""The Bernoulli distribution."""
import numpy

from chainer import backend
from chainer import distribution
from chainer import function_node
from chainer import functions as F
from chainer import utils
from chainer.distributions import _params
from chainer.distributions.utils import _modified_xlogx
from chainer.utils import cache


class BernoulliLogProb(function_node.FunctionNode):
    """Log-probability of points ``x`` under Bernoulli distributions given by logits.

    Inputs are the logits and the points (same shape); only the logits get a
    gradient, :math:`x - \\sigma(\\mathrm{logit})`.

    Args:
        binary_check (bool): If ``True``, points other than 0 and 1 get ``-inf``
            (and no gradient); otherwise the formula
            :math:`x \\log p + (1 - x) \\log(1 - p)` is evaluated at any point.
    """

    def __init__(self, binary_check=False):
        self.binary_check = binary_check

    def forward(self, inputs):
        logit, x = inputs
        xp = backend.get_array_module(logit)
        self.retain_inputs((0, 1))
        # log p and log(1 - p), finite for finite logits and exact at +-inf
        log_p, log_q = -xp.logaddexp(0, -logit), -xp.logaddexp(0, logit)
        one, zero = x == 1, x == 0
        with numpy.errstate(invalid='ignore'):
            y = xp.where(one, log_p, xp.where(zero, log_q, x * log_p + (1 - x) * log_q))
        if self.binary_check:
            self._off = xp.asarray(~(one | zero))
            y = xp.where(self._off, -numpy.inf, y)
        return utils.force_array(y, logit.dtype),

    def backward(self, indexes, grad_outputs):
        logit, x = self.get_retained_inputs()
        gy, = grad_outputs
        glogit = gy * (x - F.sigmoid(logit))
        if self.binary_check:
            xp = backend.get_array_module(logit.array)
            glogit = F.where(self._off, xp.zeros_like(logit.array), glogit)
        return glogit, None


def _bernoulli_log_prob(logit, x, binary_check=False):
    """Evaluates :class:`BernoulliLogProb`, broadcasting ``logit`` and ``x`` together."""
    logit_array, x_array = _params.as_array(logit), _params.as_array(x)
    shape = numpy.broadcast_shapes(logit_array.shape, x_array.shape)
    if logit_array.shape != shape:
        logit = F.broadcast_to(logit, shape)
    xp = backend.get_array_module(logit_array)
    x = xp.broadcast_to(x_array, shape).astype(logit_array.dtype)
    return BernoulliLogProb(binary_check).apply((logit, x))[0]


class Bernoulli(_params.ScalarEvent):
    """Bernoulli distribution over ``{0, 1}``.

    .. math::
        P(x; p) = p^x (1 - p)^{1 - x}

    Give either ``p`` or ``logit`` (:math:`\\log p - \\log(1 - p)`).

    Args:
        p (~chainer.Variable or :ref:`ndarray`): The probability of 1.
        logit (~chainer.Variable or :ref:`ndarray`): The log-odds of 1.
        binary_check (bool): If ``True``, :meth:`log_prob` gives ``-inf`` (and
            :meth:`prob` 0) at points other than 0 and 1; if ``False`` it
            evaluates the formula above at any ``x``.
    """

    _param_names = ('logit',)
    _support = '{0, 1}'

    def __init__(self, p=None, logit=None, binary_check=False):
        self._given_p = _params.one_of('Bernoulli', (p,), (logit,), 'p', 'logit')
        if self._given_p:
            self._p, = _params.prepare('Bernoulli', {'p': p})
            _params.probability('Bernoulli', p=self._p)
        else:
            self._logit, = _params.prepare('Bernoulli', {'logit': logit})
        self.binary_check = binary_check

    @cache.cached_property
    def p(self):
        return self._p if self._given_p else F.sigmoid(self._logit)

    @cache.cached_property
    def logit(self):
        return self._logit if not self._given_p else F.log(self._p) - F.log1p(-self._p)

    @cache.cached_property
    def _log_p_q(self):
        # log p and log(1 - p), each computed the stable way for the given parameter
        if self._given_p:
            return F.log(self._p), F.log1p(-self._p)
        return -F.softplus(-self._logit), -F.softplus(self._logit)

    @cache.cached_property
    def _q(self):
        return 1 - self._p if self._given_p else F.sigmoid(-self._logit)

    @property
    def batch_shape(self):
        return (self._p if self._given_p else self._logit).shape

    @property
    def mean(self):
        return self.p

    @cache.cached_property
    def variance(self):
        return self.p * self._q

    @cache.cached_property
    def entropy(self):
        return -(_modified_xlogx(self.p) + _modified_xlogx(self._q))

    def log_prob(self, x):
        return _bernoulli_log_prob(self.logit, x, self.binary_check)

    def sample_n(self, n):
        xp = self.xp
        # A binomial draw with one trial, as Chainer 7.8.1 takes it (the same stream).
        draw = xp.random.binomial(1, self.p.array, size=_params.sample_size(n, self))
        return _params.constant(draw.astype(numpy.int64, copy=False))


@distribution.register_kl(Bernoulli, Bernoulli)
def _kl_bernoulli_bernoulli(dist1, dist2):
    log_p1, log_q1 = dist1._log_p_q
    log_p2, log_q2 = dist2._log_p_q
    # 0 * log 0 = 0: where p1 (or 1 - p1) vanishes its term does too.
    term_p = _params.fill(dist1.p * (log_p1 - log_p2), dist1.p.array == 0, 0)
    term_q = _params.fill(dist1._q * (log_q1 - log_q2), dist1._q.array == 0, 0)
    return term_p + term_q
