"""Theano interoperation (not supported by rechainer)."""
from chainer.links.theano.theano_function import TheanoFunction  # NOQA
