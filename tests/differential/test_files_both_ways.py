"""Files both ways: what rechainer saves, Chainer 7.8.1 loads, and the other way round.

Every case of ``_file_cases`` (every class of Chainer 7.8.1 that serializes: links, optimizers
with hooks, updaters, iterators of each kind with and without shuffling, triggers, extensions,
the reporter's summaries, trainers) is saved by both frameworks from the same seeded run, in
the middle of an epoch and at an epoch's end, as ``.npz`` and HDF5. Then:

- both files hold the same keys with the same dtypes (an integer stays an integer) and the same
  values, apart from keys rechainer adds, each a listed departure (``docs/differences.md``);
- each framework loads the other's file and carries on as it does from its own;
- rechainer carries on from its own file exactly as the run that was never saved.

The work is batched: rechainer writes; one call of the reference writes, reads rechainer's files
and its own, and lists its classes; rechainer reads. Set ``RECHAINER_FILES_WORKDIR`` to an
empty folder to keep the files for a look (it is reused when it already holds a run).
"""
import json
import math
import os
import re

import numpy
import pytest

import _differences
from chainer.serializers import _files
from differential import _file_cases
from differential import _reference_run

# Keys rechainer adds to Chainer's layout, each with the departure that lists it.
EXTRA_KEYS = (
    (re.compile(r'(^|/)_random_state/'),
     'random:chainer.training.Trainer.serialize:global-generator'),
    (re.compile(r'(^|/)order_sampler/'),
     'random:chainer.iterators.ShuffleOrderSampler.serialize:generator-state'),
    (re.compile(r'(^|/)MicroAverage/_trigger/'),
     'file:chainer.training.extensions.MicroAverage:trigger'),
    (re.compile(r'(^|/)PlotReport/_(trigger|summary)/'),
     'file:chainer.training.extensions.PlotReport:trigger-summary'),
    (re.compile(r'(^|/)parameter_statistics/_(trigger|summary)/'),
     'file:chainer.training.extensions.ParameterStatistics:trigger-summary'),
    (re.compile(r'(^|/)VariableStatisticsPlot/(_trigger/|_xs$|_samples/)'),
     'file:chainer.training.extensions.VariableStatisticsPlot:trigger-samples'),
)
# Values that depend on the clock.
TIMED = re.compile(r'(^|/)(_snapshot_elapsed_time|next_time)$')
# JSON text (a log, a summary's names, plotted points): compared as data.
JSON_KEY = re.compile(r'(^|/)(_log|_names|_plot_[^/]*)$')

# Cases Chainer 7.8.1 cannot save, and the departure that says rechainer can.
NOT_SAVED_BY_CHAINER = {
    'iterator-multiprocess-noshuffle': 'serializer:chainer.iterators.MultiprocessIterator:no-shuffle',
}
# Cases whose files Chainer 7.8.1 cannot load even when it wrote them itself (a float sum
# loaded into an int), and the departure that says rechainer can.
NOT_LOADED_BY_CHAINER = {
    'extension-MicroAverage': 'serializer:chainer.training.extensions.MicroAverage:float-sums',
    'trainer-everything': 'serializer:chainer.training.extensions.MicroAverage:float-sums',
    'reporter-Summary-weighted': 'serializer:chainer.reporter.Summary:float-count',
}
HDF5_TEXT = 'file:chainer.serializers.save_hdf5:text'
# Where Chainer 7.8.1 does not carry on from its own file as its uninterrupted run does (it
# leaves some state out), rechainer carries on exactly: those observations (all when None)
# are compared with rechainer's uninterrupted run instead, under a listed departure.
CHAINER_RESUMES_OTHERWISE = {
    'optimizer-MSVAG': (None, 'optimizer:chainer.optimizers.MSVAG:resume'),
    'reporter-Summary-weighted': (None, 'serializer:chainer.reporter.Summary:float-count'),
    'extension-MultistepShift': (None,
                                 'serializer:chainer.training.extensions.MultistepShift:resume'),
    'extension-WarmupShift': (None, 'serializer:chainer.training.extensions.WarmupShift:resume'),
    'updater-ParallelUpdater': (None,
                                'serializer:chainer.training.updaters.ParallelUpdater:resume'),
}
# Observations a resumed run differs in by design: OnceTrigger(call_on_resume=True) fires
# once more after a load.
RESUME_DIFFERS = {'trigger-OnceTrigger': ('<fired>/1',)}


def _run_all(work, slow=False):
    python = _reference_run.require_reference()
    ours = _reference_run.ours()
    select = ['slow'] if slow else []
    _reference_run.run(ours, '_file_runner.py', work, 'write', *select)
    _reference_run.run(python, '_file_runner.py', work, 'write', *select, '--',
                       'read', 'rechainer', *select, '--', 'read', 'chainer', *select, '--',
                       'surface')
    _reference_run.run(ours, '_file_runner.py', work, 'read', 'chainer', *select, '--',
                       'read', 'rechainer', *select)


@pytest.fixture(scope='module')
def work(tmp_path_factory):
    _reference_run.require_reference()
    kept = os.environ.get('RECHAINER_FILES_WORKDIR')
    if kept:
        os.makedirs(kept, exist_ok=True)
        if not os.path.exists(os.path.join(kept, 'chainer', 'surface.json')):
            _run_all(kept)
        return kept
    path = str(tmp_path_factory.mktemp('files-both-ways'))
    _run_all(path)
    return path


# ---- reading files ------------------------------------------------------------------------------

def read_file(path):
    """``{key: array}`` of a saved file (``None`` as the string ``'<None>'``)."""
    if path.endswith('.npz'):
        out = {}
        for key, value in _files.read_npz(path).items():
            out[key] = numpy.array('<None>') if value.dtype == object else value
        return out
    h5py = pytest.importorskip('h5py')
    out = {}

    def visit(name, obj):
        if not isinstance(obj, h5py.Dataset):
            return
        if obj.shape is None:
            out[name] = numpy.array('<None>')
        elif h5py.check_string_dtype(obj.dtype) is not None:
            out[name] = numpy.asarray(obj.asstr()[()], dtype=str)
        else:
            out[name] = numpy.asarray(obj[()])

    with h5py.File(path, 'r') as f:
        f.visititems(visit)
    return out


def _load(path):
    with numpy.load(path) as f:
        return {k: f[k] for k in f.files}


def _text(path):
    with open(path) as f:
        return f.read()


# ---- comparing ----------------------------------------------------------------------------------

def _same_json(got, expected, where):
    if isinstance(expected, dict):
        expected = {k: v for k, v in expected.items() if k != 'elapsed_time'}
        got = {k: v for k, v in got.items() if k != 'elapsed_time'}
        assert sorted(got) == sorted(expected), where
        for k in expected:
            _same_json(got[k], expected[k], f'{where}/{k}')
    elif isinstance(expected, list):
        assert len(got) == len(expected), where
        for i, (g, e) in enumerate(zip(got, expected)):
            _same_json(g, e, f'{where}[{i}]')
    elif isinstance(expected, float) or isinstance(got, float):
        assert math.isclose(got, expected, rel_tol=1e-4, abs_tol=1e-5), (where, got, expected)
    else:
        assert got == expected, (where, got, expected)


def _same_value(key, got, expected, rtol=1e-4, atol=1e-5):
    if got.dtype.kind == 'U' or expected.dtype.kind == 'U':
        assert got.dtype.kind == expected.dtype.kind == 'U', (key, got.dtype, expected.dtype)
        if JSON_KEY.search(key):
            _same_json(json.loads(str(got)), json.loads(str(expected)), key)
        else:
            assert str(got) == str(expected), key
        return
    assert got.dtype == expected.dtype, f'{key}: dtype {got.dtype}, Chainer has {expected.dtype}'
    assert got.shape == expected.shape, f'{key}: shape {got.shape}, Chainer has {expected.shape}'
    if TIMED.search(key):
        return
    if got.dtype.kind in 'fc':
        numpy.testing.assert_allclose(got, expected, rtol=rtol, atol=atol, equal_nan=True,
                                      err_msg=key)
    else:
        numpy.testing.assert_array_equal(got, expected, err_msg=key)


def _departure_of_extra(key):
    for pattern, departure in EXTRA_KEYS:
        if pattern.search(key):
            return departure
    return None


def assert_same_layout(ours, theirs):
    """Our file holds the original's keys, dtypes and values, and only listed extras."""
    missing = sorted(set(theirs) - set(ours))
    assert not missing, f'keys Chainer 7.8.1 writes and rechainer does not: {missing}'
    for key in sorted(set(ours) - set(theirs)):
        departure = _departure_of_extra(key)
        assert departure is not None and _differences.expected(departure), \
            f'rechainer writes {key!r}, which Chainer 7.8.1 does not (no listed departure)'
    for key in sorted(theirs):
        _same_value(key, ours[key], theirs[key])


def assert_same_observations(got, expected, what, rtol=1e-4, atol=1e-5, only=None,
                             skip=()):
    assert sorted(got) == sorted(expected), what
    for key in sorted(expected):
        if (only is not None and key not in only) or key in skip:
            continue
        g, e = got[key], expected[key]
        if g.dtype.kind == 'U' or e.dtype.kind == 'U':
            _same_value(key, g, e)
            continue
        assert g.shape == e.shape, f'{what}: {key} has shape {g.shape}, expected {e.shape}'
        if TIMED.search(key):
            continue
        numpy.testing.assert_allclose(g, e, rtol=rtol, atol=atol, equal_nan=True,
                                      err_msg=f'{what}: {key}')


# ---- the tests ----------------------------------------------------------------------------------

def _params(slow=False):
    return [pytest.param(name, point, fmt, id=f'{name}.{point}.{fmt}')
            for name, case in _file_cases.CASES.items() if case.slow == slow
            for point in case.points for fmt in case.formats]


def _paths(work, side, name, point):
    return os.path.join(work, side, f'{name}.{point}')


def check_written_alike(work, name, point, fmt):
    if fmt == 'h5':
        pytest.importorskip('h5py')
    ours_base = _paths(work, 'rechainer', name, point)
    theirs_base = _paths(work, 'chainer', name, point)
    assert not os.path.exists(ours_base + '.write-error'), _text(ours_base + '.write-error')
    assert os.path.exists(f'{ours_base}.{fmt}')
    ours = read_file(f'{ours_base}.{fmt}')
    if os.path.exists(theirs_base + '.write-error'):
        departure = NOT_SAVED_BY_CHAINER.get(name)
        assert departure is not None and _differences.expected(departure), \
            _text(theirs_base + '.write-error')
        return
    if fmt == 'h5' and os.path.exists(theirs_base + '.h5.refused'):
        # Chainer's HDF5 writer refuses text; rechainer stores it, and is compared with
        # what Chainer writes to .npz.
        assert 'dtype' in _text(theirs_base + '.h5.refused')
        assert _differences.expected(HDF5_TEXT)
        assert any(v.dtype.kind == 'U' for v in ours.values())
        theirs = read_file(theirs_base + '.npz')
    else:
        theirs = read_file(f'{theirs_base}.{fmt}')
    assert_same_layout(ours, theirs)


def check_carries_on(work, name, point, fmt):
    if fmt == 'h5':
        pytest.importorskip('h5py')
    case = _file_cases.CASES[name]
    ours = _paths(work, 'rechainer', name, point)
    theirs = _paths(work, 'chainer', name, point)
    for side in (ours, theirs):
        for origin in ('chainer', 'rechainer'):
            run_error = f'{side}.{fmt}.from-{origin}.run-error'
            assert not os.path.exists(run_error), _text(run_error)
    if os.path.exists(theirs + '.write-error'):
        return  # Chainer cannot save it (checked above); rechainer resumes from its own file
    full = _load(ours + '.obs.npz')
    if not case.racy:
        # Same seed, same numbers: the uninterrupted runs agree.
        assert_same_observations(full, _load(theirs + '.obs.npz'), 'uninterrupted runs')
    # rechainer carries on from its own file exactly as the run that was never saved.
    own = f'{ours}.{fmt}.from-rechainer'
    assert not os.path.exists(own + '.error'), _text(own + '.error')
    skip = RESUME_DIFFERS.get(name, ())
    assert_same_observations(_load(own + '.obs.npz'), full, 'resumed from its own file',
                             rtol=1e-6, atol=1e-7, skip=skip)
    if not os.path.exists(f'{theirs}.{fmt}'):
        return  # Chainer refused to write it (HDF5 text, checked above)
    # From Chainer's file, rechainer carries on as Chainer does.
    from_theirs = f'{ours}.{fmt}.from-chainer'
    assert not os.path.exists(from_theirs + '.error'), _text(from_theirs + '.error')
    theirs_own = f'{theirs}.{fmt}.from-chainer'
    if os.path.exists(theirs_own + '.error'):
        departure = NOT_LOADED_BY_CHAINER.get(name)
        assert departure is not None and _differences.expected(departure), \
            _text(theirs_own + '.error')
        if case.reseed:
            assert_same_observations(_load(from_theirs + '.obs.npz'), full,
                                     "rechainer resumed from Chainer's file")
        return
    expected = _load(theirs_own + '.obs.npz')
    got = _load(from_theirs + '.obs.npz')
    exact_keys, departure = CHAINER_RESUMES_OTHERWISE.get(name, ((), None))
    if departure is not None:
        assert _differences.expected(departure), departure
        # rechainer carries on exactly where Chainer 7.8.1 does not (a case where that can
        # be seen: reseeded, or without random draws).
        assert case.reseed or case.deterministic, name
        assert_same_observations(got, full, "rechainer resumed from Chainer's file",
                                 only=exact_keys, skip=skip)
    if exact_keys is not None:
        assert_same_observations(got, expected, "rechainer resumed from Chainer's file",
                                 skip=exact_keys or ())
    # And Chainer carries on from our file as from its own.
    theirs_from_ours = f'{theirs}.{fmt}.from-rechainer'
    assert not os.path.exists(theirs_from_ours + '.error'), \
        f"Chainer 7.8.1 cannot load rechainer's file: {_text(theirs_from_ours + '.error')}"
    assert_same_observations(_load(theirs_from_ours + '.obs.npz'), expected,
                             "Chainer resumed from rechainer's file")


@pytest.mark.parametrize('name,point,fmt', _params())
def test_written_alike(work, name, point, fmt):
    check_written_alike(work, name, point, fmt)


@pytest.mark.parametrize('name,point,fmt', _params())
def test_carries_on(work, name, point, fmt):
    check_carries_on(work, name, point, fmt)


def test_every_serializable_class_has_a_case(work):
    # The classes of Chainer 7.8.1's public surface with a `serialize` method, listed by
    # the reference itself; each needs a case (or a reason it cannot be built here).
    with open(os.path.join(work, 'chainer', 'surface.json')) as f:
        surface = set(json.load(f))
    covered = {c for case in _file_cases.CASES.values() for c in case.covers}
    unknown = covered - surface
    assert not unknown, f'cases name classes Chainer 7.8.1 does not have: {sorted(unknown)}'
    missing = surface - covered - set(_file_cases.NOT_BUILDABLE)
    assert not missing, f'classes that serialize without a case: {sorted(missing)}'


@pytest.mark.slow
def test_big_models_both_ways(tmp_path):
    # The vision models: only more of the same links, but hundreds of megabytes.
    work = str(tmp_path)
    _run_all(work, slow=True)
    for name, point, fmt in (p.values for p in _params(slow=True)):
        check_written_alike(work, name, point, fmt)
        check_carries_on(work, name, point, fmt)
