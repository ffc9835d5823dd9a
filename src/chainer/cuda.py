"""Old path of :mod:`chainer.backends.cuda`, kept working as the same module.

Chainer 4 moved ``chainer.cuda`` to ``chainer.backends.cuda``; old code still
does ``from chainer import cuda``. Replacing this module in ``sys.modules``
makes both paths name one module object, so state (``available``, the memo
caches...) is shared and patches of one are seen through the other.
"""
import sys

from chainer.backends import cuda as _cuda

sys.modules[__name__] = _cuda
