"""Probability distributions (``chainer.distributions``).

Each distribution lives in its own module, at the same path as in Chainer
(``chainer.distributions.normal.Normal``...); the KL divergences between two
distributions of one family are registered beside them (see
:func:`chainer.kl_divergence`).
"""
from chainer.distributions import utils  # NOQA

from chainer.distributions.normal import Normal  # NOQA
