"""The examples in the docstrings of the links' modules run as shown."""
import doctest
import importlib
import pkgutil

import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L


def _modules():
    names = []
    for family in ('activation', 'connection', 'loss', 'model', 'model.vision', 'normalization',
                   'rnn'):
        pkg = importlib.import_module(f'chainer.links.{family}')
        names += [f'{pkg.__name__}.{m.name}' for m in pkgutil.iter_modules(pkg.__path__)
                  if not m.name.startswith('_')]
    return names


@pytest.mark.parametrize('name', _modules())
def test_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(
        module, extraglobs={'np': numpy, 'F': F, 'L': L, 'chainer': chainer},
        optionflags=doctest.NORMALIZE_WHITESPACE, report=True)
    assert result.failed == 0, f'{result.failed} docstring example(s) of {name} failed'
