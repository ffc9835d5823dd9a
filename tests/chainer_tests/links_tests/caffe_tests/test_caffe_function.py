"""chainer.links.caffe.CaffeFunction: not supported by rechainer."""
import pytest


def test_not_supported():
    from chainer.links import caffe
    with pytest.raises(RuntimeError, match='not supported by rechainer'):
        caffe.CaffeFunction('model.caffemodel')
