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
import pytest

import _messages
from _messages import compare
from fixtures.reference import _calls, _core_errors


def _function_cases():
    groups = {}
    for case in _messages.data()['functions']:
        groups.setdefault(case['function'], []).append(case)
    return sorted(groups.items())


@pytest.mark.parametrize('function,cases', [pytest.param(f, c, id=f) for f, c in
                                            _function_cases()])
def test_function_messages(function, cases):
    problems = []
    for case in cases:
        got = _calls.run_case(case, with_types=True)
        diff = compare(case['outcome'], got)
        if diff and not _messages.expected(f'chainer.functions.{function}', case['case'], diff[0]):
            problems.append(f"{function} {case['case']}: {diff[1]}")
    if problems:
        pytest.fail('\n'.join(problems), pytrace=False)


@pytest.mark.parametrize('case', [pytest.param(c, id=c['name']) for c in _messages.data()['core']])
def test_core_messages(case, tmp_path):
    if case['name'].startswith('hdf5_'):
        # the recorded outcomes are h5py's; h5py is the optional 'hdf5' extra
        pytest.importorskip('h5py')
    got = _core_errors.run(case['name'], str(tmp_path), with_types=True)
    diff = compare(case['outcome'], got, tmp=str(tmp_path))
    if diff and not _messages.expected(case['subject'], case['name'], diff[0]):
        pytest.fail(f"{case['name']} ({case['subject']}): {diff[1]}", pytrace=False)


def test_recording_covers_every_function():
    """Every public function of chainer.functions has its cases in the recording."""
    import inspect
    import chainer.functions as F
    recorded = {c['function'] for c in _messages.data()['functions']}
    ours = {n for n in F.__all__ if inspect.isfunction(getattr(F, n))}
    assert recorded <= ours | {n for n in recorded if hasattr(F, n)}
    assert len(recorded) >= 200 and len(_messages.data()['core']) >= 30


def test_compare_names_the_kind_of_difference():
    # (what _expected matches listed behaviours against)
    got_error = {'error': ['TypeError', 'bad x'], 'types': {'TypeError'}}
    assert compare({'ok': [[2], 'float32']}, got_error)[0] == 'refuses'
    assert compare({'error': ['TypeError', 'bad x']}, {'ok': [[2], 'float32']})[0] == 'accepts'
    assert compare({'error': ['ValueError', 'bad x']}, got_error)[0] == 'outcome'
    assert compare({'error': ['TypeError', 'bad x']}, got_error) is None
