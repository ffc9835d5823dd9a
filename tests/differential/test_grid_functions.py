"""Every ``chainer.functions`` function (and Python's operators on Variables) over its
generated grid, against Chainer 7.8.1's answers.

Outputs (dtype, shape, values), first- and second-order gradients, and for inputs the original
refuses, the exception type. The cases and the original's answers are recorded by
``tests/fixtures/reference/record_grids.py``.
"""
import numpy
import pytest

import chainer
import _grids

CASES = _grids.by_name('functions', 'fn')


def _qualname(name):
    # operator cases (``op:add``) stand for the Variable's special methods
    if name.startswith('op:'):
        return f'chainer.Variable.__{name[3:]}__'
    return f'chainer.functions.{name}'


@pytest.mark.parametrize('name', sorted(CASES))
def test_function_grid(name):
    run = _grids.gridlib().run_function
    failures = []
    for case in CASES[name]:
        numpy.random.seed(0)
        ours = run(chainer, case)
        problems = _grids.compare_case(case, ours)
        failures += _grids.unexpected('function', _qualname(name), case, problems)
    assert not failures, f'{len(failures)} differences from Chainer 7.8.1:\n' + '\n'.join(
        failures)
