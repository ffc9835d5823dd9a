"""rechainer: the Chainer 7 API, reimplemented for current Python and NumPy."""
from chainer import configuration  # NOQA
from chainer.configuration import config, global_config, using_config  # NOQA

__version__ = '7.8.1'
