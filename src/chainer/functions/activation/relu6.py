"""ReLU6: the rectifier clipped at 6 (implemented in :mod:`.clipped_relu`)."""
from chainer.functions.activation.clipped_relu import relu6  # NOQA
