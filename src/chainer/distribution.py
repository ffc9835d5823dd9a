"""The base class of probability distributions and the KL-divergence registry.

Concrete distributions live in :mod:`chainer.distributions`. Every quantity a
distribution returns is a :class:`~chainer.Variable` built with
:mod:`chainer.functions`, so it can be differentiated with respect to the
distribution's parameters.
"""
import copy

import numpy

from chainer import backend


class Distribution:
    """A batch of probability distributions.

    A distribution object holds a batch of distributions of one family: its
    parameters share the leading ``batch_shape``; one draw from one member of
    the batch has shape ``event_shape``. Subclasses override what their family
    defines; the rest raises :class:`NotImplementedError`. A few quantities
    follow from others and are derived here when a subclass defines the one
    they come from: :meth:`prob` from :meth:`log_prob`, :attr:`stddev` from
    :attr:`variance`, :meth:`survival_function` from :meth:`cdf`, and
    :meth:`sample` from :meth:`sample_n`.
    """

    @property
    def batch_shape(self):
        """tuple: The shape of the batch of distributions."""
        raise NotImplementedError

    @property
    def event_shape(self):
        """tuple: The shape of one draw from one distribution of the batch."""
        raise NotImplementedError

    @property
    def params(self):
        """dict: The parameters of the distribution, by name."""
        raise NotImplementedError

    @property
    def support(self):
        """str: A description of the set where the density is positive."""
        raise NotImplementedError

    @property
    def xp(self):
        """The array module (NumPy or CuPy) of the parameters."""
        params = self.params
        if not params:
            raise NotImplementedError
        return backend.get_array_module(*[p.array for p in params.values()])

    # ------------------------------------------------------------------ moments
    @property
    def mean(self):
        """~chainer.Variable: The mean of each distribution."""
        raise NotImplementedError

    @property
    def mode(self):
        """~chainer.Variable: The mode of each distribution."""
        raise NotImplementedError

    @property
    def variance(self):
        """~chainer.Variable: The variance of each distribution."""
        raise NotImplementedError

    @property
    def stddev(self):
        """~chainer.Variable: The standard deviation (the square root of the variance)."""
        from chainer.functions import sqrt
        return sqrt(self.variance)

    @property
    def covariance(self):
        """~chainer.Variable: The covariance matrix of each distribution."""
        raise NotImplementedError

    @property
    def entropy(self):
        """~chainer.Variable: The (differential) entropy of each distribution."""
        raise NotImplementedError

    # -------------------------------------------------------------- functions
    def log_prob(self, x):
        """Evaluates the logarithm of the density (or mass) function.

        Args:
            x (~chainer.Variable or :ref:`ndarray`): Points of shape
                ``sample_shape + batch_shape + event_shape``.

        Returns:
            ~chainer.Variable: The log density, of shape ``sample_shape + batch_shape``.
        """
        raise NotImplementedError

    def prob(self, x):
        """Evaluates the density (or mass) function: ``exp(log_prob(x))``."""
        from chainer.functions import exp
        return exp(self.log_prob(x))

    def cdf(self, x):
        """Evaluates the cumulative distribution function at ``x``."""
        raise NotImplementedError

    def log_cdf(self, x):
        """Evaluates the logarithm of the cumulative distribution function."""
        from chainer.functions import log
        return log(self.cdf(x))

    def icdf(self, x):
        """Evaluates the inverse of the cumulative distribution function at ``x``."""
        raise NotImplementedError

    def survival_function(self, x):
        """Evaluates the survival function ``1 - cdf(x)``."""
        return 1 - self.cdf(x)

    def log_survival_function(self, x):
        """Evaluates the logarithm of the survival function."""
        from chainer.functions import log
        return log(self.survival_function(x))

    def perplexity(self, x):
        """Evaluates the perplexity of the points ``x``: ``exp(-log_prob(x))``."""
        from chainer.functions import exp
        return exp(-self.log_prob(x))

    # --------------------------------------------------------------- sampling
    def sample_n(self, n):
        """Draws ``n`` samples of each distribution of the batch.

        Args:
            n (int): The number of samples.

        Returns:
            ~chainer.Variable: Samples of shape ``(n,) + batch_shape + event_shape``.
        """
        raise NotImplementedError

    def sample(self, sample_shape=()):
        """Draws samples of each distribution of the batch.

        Distributions that can be reparameterised return samples that are
        differentiable with respect to their parameters.

        Args:
            sample_shape (int or tuple of ints): The leading shape of the samples.

        Returns:
            ~chainer.Variable: Samples of shape
            ``sample_shape + batch_shape + event_shape``.
        """
        from chainer.functions import reshape
        if isinstance(sample_shape, (int, numpy.integer)):
            sample_shape = (int(sample_shape),)
        sample_shape = tuple(sample_shape)
        samples = self.sample_n(int(numpy.prod(sample_shape, dtype=numpy.int64)))
        return reshape(samples, sample_shape + samples.shape[1:])

    def _copy_to(self, target):
        # Fills `target` (a new instance of this class) with this object's state.
        target.__dict__ = copy.copy(self.__dict__)
        return target


# (type of p, type of q) -> function computing KL(p || q)
_KLDIVERGENCE = {}


def register_kl(Dist1, Dist2):
    """Returns a decorator that registers a KL-divergence function.

    The decorated function takes a ``Dist1`` and a ``Dist2`` and returns
    their KL divergence; :func:`kl_divergence` calls it.

    Args:
        Dist1 (type): The class of the first distribution.
        Dist2 (type): The class of the second distribution.

    .. admonition:: Example

        >>> @chainer.register_kl(MyDist, MyDist)  # doctest: +SKIP
        ... def _kl_mydist_mydist(p, q):
        ...     return ...
    """
    def decorator(kl):
        _KLDIVERGENCE[Dist1, Dist2] = kl
        return kl
    return decorator


def _find_kl(type1, type2):
    # The exact pair first, then the closest registered pair of base classes.
    for base1 in type1.__mro__:
        for base2 in type2.__mro__:
            kl = _KLDIVERGENCE.get((base1, base2))
            if kl is not None:
                return kl
    return None


def kl_divergence(dist1, dist2):
    """Computes the Kullback-Leibler divergence ``KL(dist1 || dist2)``.

    .. math::
        D_{KL}(p \\| q) = E_{x \\sim p}[\\log p(x) - \\log q(x)]

    Args:
        dist1 (~chainer.Distribution): The first distribution ``p``.
        dist2 (~chainer.Distribution): The second distribution ``q``.

    Returns:
        ~chainer.Variable: The divergence of each pair in the batch.

    Raises:
        KeyError: If no divergence is registered (see :func:`register_kl`)
            for the two classes.
    """
    type1, type2 = type(dist1), type(dist2)
    kl = _find_kl(type1, type2)
    if kl is None:
        raise KeyError(
            f'kl_divergence: no KL divergence is registered for ({type1.__name__}, '
            f'{type2.__name__}); register one with '
            f'chainer.register_kl({type1.__name__}, {type2.__name__})')
    return kl(dist1, dist2)


def cross_entropy(dist1, dist2):
    """Computes the cross entropy ``H(dist1, dist2) = H(dist1) + KL(dist1 || dist2)``.

    Args:
        dist1 (~chainer.Distribution): The first distribution ``p``.
        dist2 (~chainer.Distribution): The second distribution ``q``.

    Returns:
        ~chainer.Variable: The cross entropy of each pair in the batch.
    """
    return dist1.entropy + kl_divergence(dist1, dist2)
