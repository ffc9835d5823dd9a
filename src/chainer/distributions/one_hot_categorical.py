"""The one-hot categorical distribution."""
from chainer import distribution
from chainer import functions as F
from chainer.distributions import _params
from chainer.distributions import categorical
from chainer.utils import cache


class OneHotCategorical(distribution.Distribution):
    """Categorical distribution whose draws are one-hot vectors of length ``K``.

    Args:
        p (~chainer.Variable or :ref:`ndarray`): The probabilities, of shape
            ``batch_shape + (K,)``.
    """

    def __init__(self, p):
        self.p, = _params.prepare('OneHotCategorical', {'p': p}, {'p': 1})
        _params.simplex('OneHotCategorical', 'p', self.p)

    @cache.cached_property
    def log_p(self):
        return F.log(self.p)

    @property
    def batch_shape(self):
        return self.p.shape[:-1]

    @property
    def event_shape(self):
        return self.p.shape[-1:]

    @property
    def params(self):
        return {'p': self.p}

    @property
    def mean(self):
        return self.p

    @cache.cached_property
    def variance(self):
        return self.p * (1 - self.p)

    @cache.cached_property
    def entropy(self):
        return categorical._entropy(self.p, None)

    def log_prob(self, x):
        array = _params.as_array(x)
        x = array.astype(self.p.dtype, copy=False)
        terms = _params.fill(x * self.log_p, array == 0, 0)
        return F.sum(terms, axis=-1)

    def sample_n(self, n):
        xp = self.xp
        index = categorical._sample_index(self.p.array, n)
        eye = xp.eye(self.p.shape[-1], dtype=self.p.dtype)
        return _params.constant(eye[index])


@distribution.register_kl(OneHotCategorical, OneHotCategorical)
def _kl_one_hot_categorical_one_hot_categorical(dist1, dist2):
    return categorical._kl(dist1.p, dist1.log_p, dist2.log_p)
