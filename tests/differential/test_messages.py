"""The exceptions of Chainer 7.8.1, checked here: the same type, and the original's words.

``tests/fixtures/reference/record_surface.py`` ran every case of
``tests/fixtures/reference/_calls.py`` (bad calls of each ``chainer.functions`` function,
generated from one accepted call: an array argument of another dtype, with one axis more or
fewer, ``None``, a Python list) and of ``_core_errors.py`` (misuse of FunctionNode, Optimizer,
Link and the serializers) on the original, and stored what each did in ``messages.json.gz``.
Here each case runs again on rechainer, from the recorded arguments:

- where the original raised, we raise the same type (or a subclass of it, so that an
  ``except`` for the original's type catches ours), and our message contains the original's,
  after normalisation (below); we may say more (the function, the argument, what was expected);
  where the original's message is Python's or NumPy's own words about the object it tripped over
  (``'NoneType' object has no attribute 'dtype'``, ``tuple index out of range``: the patterns in
  ``_INTERPRETER``), only the type is compared, those words being an accident of where the
  original's code happened to fail rather than anything Chainer says; where rechainer refuses
  such an argument itself, with a clear error of another type (``CLEAR_REFUSALS``), that is the
  departure ``message:chainer:accidental-errors`` of docs/differences.md;
- where the original returned, we return too, results of the same shapes and dtypes.

Normalisation, applied to both messages before the containment test: a KeyError's message loses
the quotes that ``str(KeyError(m))`` adds; runs of whitespace become
one space and ends are stripped (line breaks and indentation are layout); NumPy 2's scalar
reprs become NumPy 1's (``np.float32(0.5)`` -> ``0.5``) and NumPy 1's ``numpy.bool_`` type is
written as NumPy 2's ``numpy.bool``; memory addresses (`` at 0x7f...``) are
dropped; the case's temporary directory becomes ``<tmp>``.

A departure listed in ``docs/differences.md`` as ``message:<function or name>`` (its words differ
in every case; its exception types must still be Chainer's), ``message:<function or
name>:<case>`` (anything about that case), or ``function:<function>:accepts`` /
``function:<function>:refuses`` (the function takes inputs the original refuses, or the
reverse: those cases may return, or raise, where the original does not) is expected.
"""
import functools
import gzip
import json
import os
import re

import pytest

import _differences
from fixtures.reference import _calls, _core_errors

DATA = os.path.join(os.path.dirname(__file__), os.pardir, 'fixtures', 'reference',
                    'messages.json.gz')

_SPACE = re.compile(r'\s+')
# The exceptions with which rechainer refuses a bad argument itself (see the entry
# ``message:chainer:accidental-errors`` of docs/differences.md).
CLEAR_REFUSALS = frozenset((
    'TypeError', 'ValueError', 'IndexError', 'RuntimeError', 'KeyError', 'AttributeError',
    'chainer.utils.type_check.InvalidType'))
# Messages that Python or NumPy wrote when the original tripped over a wrong kind of object
# (``None.dtype``, ``len(None)``, an index out of a shape tuple...): they say where the original's
# code happened to fail, not something Chainer says, so only their type is compared.
_INTERPRETER = re.compile('|'.join((
    r"^'[\w.]+' object has no attribute '\w+'$",
    r"^'[\w.]+' object is not (subscriptable|iterable|callable)$",
    r"^object of type '\w+' has no len\(\)$",
    r"^unsupported operand type\(s\) for .*$",
    r"^'[<>=!]+' not supported between instances of .*$",
    r"^(tuple|list) index out of range$",
    r"^axis -?\d+ is out of bounds for array of dimension \d+$",
    r"^must be real number, not \w+$",
    r"^operands could not be broadcast together with shapes .*$",
    r"^could not broadcast input array from shape .*$",
    r"^.* argument after \* must be an iterable, not \w+$",
    r"^cannot reshape array of size \d+ into shape .*$",
    r"^too many indices for array.*$",
    r"^index -?\d+ is out of bounds for axis \d+ with size \d+$",
    # NumPy's own words
    r"^(too many|not enough) values to unpack .*$",
    r"^\w+: axis -?\d+ is out of bounds for array of dimension \d+$",
    r"^shape mismatch$",
    r"^operand has more dimensions than subscripts given in einstein sum.*$",
    r"^arrays used as indices must be of integer \(or boolean\) type$",
    # Chainer 7.8.1's type check failing on its own expression (a bug of the original)
    r"^An Expr instance cannot be evaluated as bool\..*$",
    # an ``assert`` of the original's code (no words at all)
    r"^$",
    # h5py's own words (they vary between h5py versions)
    r'^"?Unable to (synchronously )?open object .*$',
    r"^Can't broadcast .* -> .*$",
)))
_NP_SCALAR = re.compile(r'np\.(?:float|int|uint|bool|complex|str)\w*\((.*?)\)')
_ADDRESS = re.compile(r' at 0x[0-9a-fA-F]+')


def normalise(message, tmp=None, etype=None):
    """A message as the containment test reads it (see the module docstring)."""
    if etype == 'KeyError' and len(message) >= 2 and message[0] == message[-1] \
            and message[0] in '\'"':
        message = message[1:-1]     # str(KeyError(m)) is repr(m)
    if tmp:
        message = message.replace(tmp, '<tmp>')
    message = _NP_SCALAR.sub(r'\1', message)
    message = message.replace("<class 'numpy.bool_'>", "<class 'numpy.bool'>")
    message = _ADDRESS.sub('', message)
    return _SPACE.sub(' ', message).strip()


@functools.lru_cache(maxsize=None)
def _data():
    with gzip.open(DATA, 'rt', encoding='utf-8') as f:
        return json.load(f)


def _type_names(exc):
    return {_calls.exception_name_of_type(k) for k in type(exc).__mro__}


def compare(recorded, got, tmp=None):
    """What differs between the original's outcome and ours: ``None``, or ``(kind, text)``
    with ``kind`` ``'words'`` (same type, the message lacks the original's words),
    ``'outcome'`` (another exception type, or other results), ``'refuses'`` (we raise where the
    original returns) or ``'accepts'`` (we return where the original raises)."""
    if 'original_broken' in recorded:
        return None
    if 'ok' in recorded:
        if 'error' in got:
            return 'refuses', f'raises {got["error"][0]}: {got["error"][1]!r}; the original returns'
        if got['ok'] != recorded['ok']:
            return 'outcome', f'returns {got["ok"]}, the original {recorded["ok"]}'
        return None
    etype, emsg = recorded['error']
    if 'ok' in got:
        return 'accepts', f'returns {got["ok"]}; the original raises {etype}: {emsg!r}'
    want = normalise(emsg, tmp, etype)
    accident = _INTERPRETER.match(want)
    if etype not in got['types']:
        if accident and got['error'][0] in CLEAR_REFUSALS and \
                _differences.expected('message:chainer:accidental-errors'):
            return None
        return 'outcome', (f'raises {got["error"][0]}: {got["error"][1]!r}; the original '
                           f'{etype}: {emsg!r}')
    if accident:
        return None
    if want not in normalise(got['error'][1], tmp, got['error'][0]):
        return 'words', f'message {got["error"][1]!r} lacks the original\'s {emsg!r}'
    return None


def _expected(name, case, kind):
    """Whether a difference of ``kind`` is listed: ``message:<name>`` (a function whose words
    differ: its exception types must still be Chainer's), ``message:<name>:<case>`` (anything
    about that case), or a function's listed behaviour: ``function:<name>:accepts`` (it takes
    inputs the original refuses) or ``function:<name>:refuses`` (the reverse)."""
    return ((kind == 'words' and _differences.expected(f'message:{name}'))
            or _differences.expected(f'message:{name}:{case}')
            or (kind in ('accepts', 'refuses')
                and _differences.expected(f'function:{name}:{kind}')))


def _function_cases():
    groups = {}
    for case in _data()['functions']:
        groups.setdefault(case['function'], []).append(case)
    return sorted(groups.items())


@pytest.mark.parametrize('function,cases', [pytest.param(f, c, id=f) for f, c in
                                            _function_cases()])
def test_function_messages(function, cases):
    problems = []
    for case in cases:
        got = _calls.run_case(case, with_types=True)
        diff = compare(case['outcome'], got)
        if diff and not _expected(f'chainer.functions.{function}', case['case'], diff[0]):
            problems.append(f"{function} {case['case']}: {diff[1]}")
    if problems:
        pytest.fail('\n'.join(problems), pytrace=False)


@pytest.mark.parametrize('case', [pytest.param(c, id=c['name']) for c in _data()['core']])
def test_core_messages(case, tmp_path):
    if case['name'].startswith('hdf5_'):
        # the recorded outcomes are h5py's; h5py is the optional 'hdf5' extra
        pytest.importorskip('h5py')
    got = _core_errors.run(case['name'], str(tmp_path), with_types=True)
    diff = compare(case['outcome'], got, tmp=str(tmp_path))
    if diff and not _expected(case['subject'], case['name'], diff[0]):
        pytest.fail(f"{case['name']} ({case['subject']}): {diff[1]}", pytrace=False)


def test_recording_covers_every_function():
    """Every public function of chainer.functions has its cases in the recording."""
    import inspect
    import chainer.functions as F
    recorded = {c['function'] for c in _data()['functions']}
    ours = {n for n in F.__all__ if inspect.isfunction(getattr(F, n))}
    assert recorded <= ours | {n for n in recorded if hasattr(F, n)}
    assert len(recorded) >= 200 and len(_data()['core']) >= 30


def test_compare_names_the_kind_of_difference():
    # (what _expected matches listed behaviours against)
    got_error = {'error': ['TypeError', 'bad x'], 'types': {'TypeError'}}
    assert compare({'ok': [[2], 'float32']}, got_error)[0] == 'refuses'
    assert compare({'error': ['TypeError', 'bad x']}, {'ok': [[2], 'float32']})[0] == 'accepts'
    assert compare({'error': ['ValueError', 'bad x']}, got_error)[0] == 'outcome'
    assert compare({'error': ['TypeError', 'bad x']}, got_error) is None
