"""Probability distributions (``chainer.distributions``).

Each distribution lives in its own module, at the same path as in Chainer
(``chainer.distributions.normal.Normal``...); the KL divergences between two
distributions of one family are registered beside them (see
:func:`chainer.kl_divergence`).
"""
from chainer import _lazy
from chainer.distributions import utils  # NOQA

from chainer.distributions.bernoulli import Bernoulli  # NOQA
from chainer.distributions.beta import Beta  # NOQA
from chainer.distributions.categorical import Categorical  # NOQA
from chainer.distributions.cauchy import Cauchy  # NOQA
from chainer.distributions.chisquare import Chisquare  # NOQA
from chainer.distributions.dirichlet import Dirichlet  # NOQA
from chainer.distributions.exponential import Exponential  # NOQA
from chainer.distributions.gamma import Gamma  # NOQA
from chainer.distributions.geometric import Geometric  # NOQA
from chainer.distributions.gumbel import Gumbel  # NOQA
from chainer.distributions.independent import Independent  # NOQA
from chainer.distributions.laplace import Laplace  # NOQA
from chainer.distributions.log_normal import LogNormal  # NOQA
from chainer.distributions.multivariate_normal import MultivariateNormal  # NOQA
from chainer.distributions.normal import Normal  # NOQA
from chainer.distributions.one_hot_categorical import OneHotCategorical  # NOQA
from chainer.distributions.pareto import Pareto  # NOQA
from chainer.distributions.poisson import Poisson  # NOQA
from chainer.distributions.uniform import Uniform  # NOQA

# Submodules are attributes, imported when first asked for (as Chainer's eager imports make
# them).
__getattr__ = _lazy.submodule_getattr(__name__)
