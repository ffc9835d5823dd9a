"""The Bernoulli distribution."""
import numpy

from chainer import distribution
from chainer import functions as F
from chainer.distributions import _params
from chainer.distributions import utils
from chainer.utils import cache


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
        return -(utils._modified_xlogx(self.p) + utils._modified_xlogx(self._q))

    def log_prob(self, x):
        array = _params.as_array(x)
        xp = self.xp
        log_p, log_q = self._log_p_q
        shape = numpy.broadcast_shapes(array.shape, self.batch_shape)
        log_p, log_q = F.broadcast_to(log_p, shape), F.broadcast_to(log_q, shape)
        one, zero = xp.broadcast_to(array == 1, shape), xp.broadcast_to(array == 0, shape)
        binary = F.where(one, log_p, log_q)
        if self.binary_check or bool(xp.all(one | zero)):
            return _params.fill(binary, ~(one | zero), -numpy.inf)
        # Points strictly between the two values: the formula's continuous extension.
        x = array.astype(log_p.dtype, copy=False)
        return F.where(one | zero, binary, x * log_p + (1 - x) * log_q)

    def sample_n(self, n):
        xp = self.xp
        u = xp.random.uniform(size=_params.sample_size(n, self))
        return _params.constant((u < self.p.array).astype(numpy.int64))


@distribution.register_kl(Bernoulli, Bernoulli)
def _kl_bernoulli_bernoulli(dist1, dist2):
    log_p1, log_q1 = dist1._log_p_q
    log_p2, log_q2 = dist2._log_p_q
    # 0 * log 0 = 0: where p1 (or 1 - p1) vanishes its term does too.
    term_p = _params.fill(dist1.p * (log_p1 - log_p2), dist1.p.array == 0, 0)
    term_q = _params.fill(dist1._q * (log_q1 - log_q2), dist1._q.array == 0, 0)
    return term_p + term_q
