"""L.TheanoFunction: not supported by rechainer."""
import pytest

import chainer.links as L


def test_not_supported():
    with pytest.raises(RuntimeError, match='not supported by rechainer'):
        L.TheanoFunction([], [])
