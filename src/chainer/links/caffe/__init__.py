"""Caffe model import (not supported by rechainer)."""
from chainer.links.caffe.caffe_function import CaffeFunction  # NOQA
