"""The examples in the docstrings of the rnn links and vision models run as shown."""
import doctest
import importlib
import pkgutil

import numpy
import pytest

import chainer
import chainer.links as L


def _modules():
    names = []
    for family in ('rnn', 'model.vision'):
        pkg = importlib.import_module(f'chainer.links.{family}')
        names += [f'{pkg.__name__}.{m.name}' for m in pkgutil.iter_modules(pkg.__path__)]
    return names


@pytest.mark.parametrize('name', _modules())
def test_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, extraglobs={'np': numpy, 'L': L, 'chainer': chainer},
                             optionflags=doctest.NORMALIZE_WHITESPACE, report=True)
    assert result.failed == 0, f'{result.failed} docstring example(s) of {name} failed'
