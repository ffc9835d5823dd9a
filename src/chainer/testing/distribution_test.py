"""The public path of :class:`~chainer.testing.distribution_unittest` (as in Chainer)."""
from chainer.testing._distribution_test import distribution_unittest  # NOQA
