"""Every bad call of a ``chainer.functions`` function fails, with an error that names it.

The table of bad calls is that of ``tests/fixtures/reference/_calls.py``: for each public
function, one accepted call, and from it, for every array argument, another dtype, an axis more
or fewer, a wrong size, ``None``, a Python list, NaN and inf, labels and indices out of range,
and per function an empty batch and out-of-range values for the axis parameters of its
signature. ``messages.json.gz`` holds what Chainer 7.8.1 did with each.

The calls that must fail are those the original refuses, and those that rechainer refuses by a
departure listed in ``docs/differences.md`` (``function:<name>:refuses``,
``function:<name>:label-range``, ``message:<name>:<case>``). For each of them:

- rechainer raises: a call the original refuses may return only where docs/differences.md lists
  the acceptance (``function:<name>:accepts``, ``message:<name>:<case>``, or a crash of the
  original that ``function:chainer.functions:crash`` lists); nothing else is accepted silently;
- the exception's type and the original's words, compared as
  ``tests/differential/test_messages.py`` does (the same comparison, ``_messages.compare``);
- the message names the function: its name (``softmax_cross_entropy``), or the name of its
  node, which Chainer's type-check messages give (``SoftmaxCrossEntropy``,
  ``Convolution2DFunction``);
- where the case replaces an argument that has a name (``x``, ``W``, ``axis``), the message
  names that argument;
- no call fails with an error of the code itself (NameError, RecursionError, SystemError...) or
  runs longer than :data:`HANG_SECONDS`.

Run this file as a script for the figures (the issue's measure: the share of the calls that must
fail whose error names the function): ``PYTHONPATH=tests python
tests/differential/test_bad_calls.py``.
"""
import collections
import functools
import inspect
import re
import signal
import sys

import pytest

import _differences
import _messages
from fixtures.reference import _calls

HANG_SECONDS = 30
_TOKEN = re.compile(r'[A-Za-z_][A-Za-z0-9_]*')
_CRASHES = ('RecursionError', 'SystemError', 'MemoryError', 'NameError', 'UnboundLocalError')
# The labels of cases that change one positional argument: ``1:none``, ``0[0]:dtype``.
_POSITIONAL = re.compile(r'^(\d+)(\[\d+\])?:')


def _qualname(function):
    return f'chainer.functions.{function}'


def names_function(message, function):
    """Whether ``message`` names ``function``: its name, or its node's CamelCase name (with a
    ``Function`` suffix, as ``LinearFunction``), as a word of its own."""
    want = function.replace('_', '').lower()
    for token in _TOKEN.findall(message):
        token = token.replace('_', '').lower()
        if token == want or token == want + 'function':
            return True
    return False


@functools.lru_cache(maxsize=None)
def _parameters(function):
    import chainer.functions as F
    return list(inspect.signature(getattr(F, function)).parameters.values())


def argument_of(case):
    """The name of the argument that ``case`` replaces, or None (an empty batch changes them
    all)."""
    label = case['case']
    if label.startswith('axis:'):
        return label[len('axis:'):].split('=')[0]
    m = _POSITIONAL.match(label)
    if not m:
        return None
    i = int(m.group(1))
    params = _parameters(case['function'])
    for k, p in enumerate(params):
        if p.kind == p.VAR_POSITIONAL or k == i:
            return p.name
    return None


def names_argument(message, name):
    return name in _TOKEN.findall(message)


class _Hang(Exception):
    pass


def _on_alarm(signum, frame):
    raise _Hang(f'no answer after {HANG_SECONDS} s')


def run(case):
    """Our outcome of ``case`` (as ``_calls.outcome_of``), under a time limit."""
    can_alarm = hasattr(signal, 'SIGALRM') and \
        __import__('threading').current_thread() is __import__('threading').main_thread()
    if can_alarm:
        previous = signal.signal(signal.SIGALRM, _on_alarm)
        signal.alarm(HANG_SECONDS)
    try:
        return _calls.run_case(case, with_types=True)
    finally:
        if can_alarm:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, previous)


def _crash_of_the_original(case):
    """Whether the original's error is one of its own failures that rechainer fixes by
    computing the result (``function:chainer.functions:crash``)."""
    import _grids
    error = case['outcome'].get('error')
    return _grids.crashed(error) and _differences.expected('function:chainer.functions:crash')


def judge(case, got):
    """``(kind, text)`` for one case: ``kind`` is ``None`` for a call that need not fail,
    ``'ok'`` for a must-fail call whose error is as it should be, and otherwise what is wrong:
    ``'crash'``, ``'hang'``, ``'accepted'`` (silently), ``'documented'`` (accepted, as listed),
    ``'unnamed'`` (the function is not named), ``'argument'`` (the argument is not named),
    ``'differs'`` (type or words: the comparison of test_messages), the first that applies."""
    recorded = case['outcome']
    if 'original_broken' in recorded:
        return None, ''
    qual = _qualname(case['function'])
    if 'error' in got and got['error'][0] in _CRASHES:
        return 'crash', f'{got["error"][0]}: {got["error"][1]}'
    if 'error' in got and got['error'][0] == f'{__name__}._Hang' or \
            'error' in got and got['error'][0].endswith('._Hang'):
        return 'hang', got['error'][1]
    diff = _messages.compare(recorded, got)
    if 'ok' in recorded:
        if 'ok' in got:
            return None, ''     # the original's behaviour, kept
        if not (diff and _messages.expected(qual, case['case'], diff[0])):
            return None, ''     # an unlisted refusal: test_messages reports it
    elif 'ok' in got:
        if _messages.expected(qual, case['case'], 'accepts') or _crash_of_the_original(case):
            return 'documented', got['ok']
        return 'accepted', f'returns {got["ok"]}; the original raises {recorded["error"]}'
    message = got['error'][1]
    if not names_function(message, case['function']):
        return 'unnamed', f'{got["error"][0]}: {message!r}'
    arg = argument_of(case)
    if arg is not None and not names_argument(message, arg):
        return 'argument', f'no {arg!r} in {got["error"][0]}: {message!r}'
    if diff and not _messages.expected(qual, case['case'], diff[0]):
        return 'differs', diff[1]
    return 'ok', ''


def _cases_by_function():
    groups = collections.defaultdict(list)
    for case in _messages.data()['functions']:
        if case['case'] != 'base':
            groups[case['function']].append(case)
    return sorted(groups.items())


@pytest.mark.parametrize('function,cases', [pytest.param(f, c, id=f)
                                            for f, c in _cases_by_function()])
def test_bad_calls_fail_naming_the_function(function, cases):
    problems = []
    for case in cases:
        kind, text = judge(case, run(case))
        if kind not in (None, 'ok', 'documented'):
            problems.append(f'{function} {case["case"]}: {kind}: {text}')
    if problems:
        pytest.fail('\n'.join(problems), pytrace=False)


def figures():
    """``{kind: count}`` over every case, and the share of the must-fail calls whose error
    names the function."""
    counts = collections.Counter()
    for _, cases in _cases_by_function():
        for case in cases:
            kind, _ = judge(case, run(case))
            counts[kind] += 1
    must_fail = sum(n for k, n in counts.items() if k is not None and k != 'documented')
    named = counts['ok'] + counts['argument'] + counts['differs']
    return counts, must_fail, named


def test_judge_tells_the_kinds_apart():
    # (a check that can fail: each kind of problem is recognised)
    refused = {'function': 'relu', 'case': '0:none', 'args': [None], 'kwargs': {},
               'outcome': {'error': ['TypeError', 'bad']}}
    named = {'error': ['TypeError', 'relu: argument x is bad'], 'types': ['TypeError']}
    assert judge(refused, named)[0] == 'ok'
    assert judge(refused, {'error': ['TypeError', 'x is bad'],
                           'types': ['TypeError']})[0] == 'unnamed'
    assert judge(refused, {'error': ['TypeError', 'relu: bad'],
                           'types': ['TypeError']})[0] == 'argument'
    assert judge(refused, {'ok': [[2], 'float32']})[0] == 'accepted'
    assert judge(refused, {'error': ['ValueError', 'relu: x'], 'types': ['ValueError']})[0] \
        == 'differs'
    assert judge(refused, {'error': ['ValueError', 'x'], 'types': ['ValueError']})[0] \
        == 'unnamed'
    assert judge(refused, {'error': ['RecursionError', 'deep'], 'types': []})[0] == 'crash'
    assert names_function('Invalid operation is performed in: ReLU (Forward)', 'relu')
    assert names_function('in LinearFunction', 'linear')
    assert not names_function('in _ + _', 'add')


def main():
    counts, must_fail, named = figures()
    print(f'bad calls: {sum(counts.values())}; must fail: {must_fail}')
    for kind in ('ok', 'argument', 'differs', 'unnamed', 'accepted', 'documented', 'crash',
                 'hang', None):
        print(f'  {str(kind):10} {counts[kind]}')
    print(f'errors naming the function: {named}/{must_fail} = {named / must_fail:.1%}')
    print(f'naming the function and the argument: {counts["ok"]}/{must_fail} = '
          f'{counts["ok"] / must_fail:.1%}')


if __name__ == '__main__':
    sys.exit(main())
