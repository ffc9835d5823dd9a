"""The categorical distribution."""
import numpy

from chainer import backend
from chainer import distribution
from chainer import functions as F
from chainer.distributions import _params
from chainer.distributions import utils
from chainer.utils import cache


def _sample_index(p, n):
    # Inverse-CDF draws of category indices: (n,) + batch_shape, from probabilities p.
    # The draws are those of Chainer 7.8.1, which calls numpy.random.choice(K, n, p=row)
    # for each row of the batch in turn: n uniforms per row, row after row, looked up in
    # the row's normalised float64 CDF (first index whose CDF exceeds the draw).
    xp = backend.get_array_module(p)
    batch_shape = p.shape[:-1]
    cdf = xp.cumsum(p.astype(numpy.float64), axis=-1)
    cdf /= cdf[..., -1:]
    u = xp.random.random_sample(batch_shape + (n,))
    index = (cdf[..., None, :] <= u[..., None]).sum(axis=-1)
    index = xp.minimum(index, p.shape[-1] - 1).astype(numpy.int64, copy=False)
    return xp.moveaxis(index, -1, 0)


def _entropy(p, log_p):
    return -F.sum(utils._modified_xlogx(p) if log_p is None else p * log_p, axis=-1)


def _kl(p1, log_p1, log_p2):
    terms = _params.fill(p1 * (log_p1 - log_p2), p1.array == 0, 0)
    return F.sum(terms, axis=-1)


class Categorical(distribution.Distribution):
    """Categorical distribution over the indices ``0, ..., K - 1``.

    Give either ``p`` (probabilities) or ``logit`` (unnormalised log
    probabilities), of shape ``batch_shape + (K,)``.

    Args:
        p (~chainer.Variable or :ref:`ndarray`): The probabilities.
        logit (~chainer.Variable or :ref:`ndarray`): The logits (keyword only).
    """

    def __init__(self, p=None, **kwargs):
        logit, = _params.parse_extra_kwargs('Categorical', kwargs, 'logit')
        self._given_p = _params.one_of('Categorical', (p,), (logit,), 'p', 'logit')
        if self._given_p:
            self._p, = _params.prepare('Categorical', {'p': p}, {'p': 1})
            _params.simplex('Categorical', 'p', self._p)
        else:
            self._logit, = _params.prepare('Categorical', {'logit': logit}, {'logit': 1})

    @cache.cached_property
    def p(self):
        return self._p if self._given_p else F.softmax(self._logit, axis=-1)

    @cache.cached_property
    def log_p(self):
        return F.log(self._p) if self._given_p else F.log_softmax(self._logit, axis=-1)

    @property
    def batch_shape(self):
        return self.p.shape[:-1]

    @property
    def event_shape(self):
        return ()

    @property
    def params(self):
        return {'p': self.p}

    @cache.cached_property
    def entropy(self):
        return _entropy(self.p, None if self._given_p else self.log_p)

    def log_prob(self, x):
        index = self.xp.asarray(_params.as_array(x)).astype(numpy.int32)
        k = self.p.shape[-1]
        if index.size and (int(index.min()) < 0 or int(index.max()) >= k):
            raise IndexError(f'Categorical.log_prob: x must hold indices in [0, {k}), got '
                             f'values from {int(index.min())} to {int(index.max())}')
        shape = numpy.broadcast_shapes(index.shape, self.batch_shape)
        log_p = F.broadcast_to(self.log_p, shape + (k,))
        index = self.xp.broadcast_to(index, shape)
        picked = F.select_item(F.reshape(log_p, (-1, k)), index.ravel())
        return F.reshape(picked, shape)

    def sample_n(self, n):
        return _params.constant(_sample_index(self.p.array, n))


@distribution.register_kl(Categorical, Categorical)
def _kl_categorical_categorical(dist1, dist2):
    return _kl(dist1.p, dist1.log_p, dist2.log_p)
