"""L.InceptionBN: the case table and its argument errors."""
import pytest

import chainer.links as L
from chainer_tests.links_tests import _cases


@_cases.cases('InceptionBN', 'InceptionBN_avg')
class TestInceptionBN(_cases.LinkTest):
    pass


TestInceptionBNChecks = _cases.checks('InceptionBN', 'InceptionBN_avg')


def test_errors():
    with pytest.raises(NotImplementedError):
        L.InceptionBN(3, 2, 2, 3, 2, 3, 'median', 2)
    with pytest.raises(AssertionError):
        L.InceptionBN(3, 2, 2, 3, 2, 3, 'max', 2, stride=2)
    with pytest.raises(AssertionError):
        L.InceptionBN(3, 2, 2, 3, 2, 3, 'max')


def test_module_path():
    assert L.InceptionBN.__module__ == 'chainer.links.connection.inceptionbn'
