"""Same seed, same numbers: rechainer draws from NumPy's global generator as Chainer 7.8.1.

Every case of ``_seed_cases`` (initializers, links, random functions, distributions, hooks,
iterators...) runs on both frameworks after ``numpy.random.seed(0)``: the results agree within
float32 rounding and the generator ends at the same place (the next number it gives is the
same), so everything a script draws afterwards agrees too. A seeded Trainer run with dropout
and a shuffling iterator (``_seed_training``) gives the same parameters after 20 iterations;
snapshots resume exactly in rechainer, and each framework resumes from the other's snapshot
as from its own.
"""
import numpy
import pytest

import _differences
from differential import _reference_run
from differential import _seed_cases
from differential import _seed_runner
from differential import _seed_training

KINDS = ('serial', 'thread')


def _arrays(results, name):
    keys = sorted((k for k in results if k.startswith(name + '/out/')),
                  key=lambda k: int(k.rsplit('/', 1)[1]))
    return [results[k] for k in keys]


@pytest.fixture(scope='module')
def seed_results(tmp_path_factory):
    python = _reference_run.require_reference()
    path = tmp_path_factory.mktemp('same-seed') / 'reference.npz'
    _reference_run.run(python, '_seed_runner.py', path)
    with numpy.load(path) as f:
        reference = {k: f[k] for k in f.files}
    return reference, _seed_runner.run()


@pytest.mark.parametrize('name', sorted(_seed_cases.CASES))
def test_same_draws(seed_results, name):
    reference, ours = seed_results
    if f'{name}/error' in reference or f'{name}/error' in ours:
        # A case either framework refuses must be refused by both, with the same type.
        errors = [str(r.get(f'{name}/error', 'no error')).split(':')[0] for r in seed_results]
        assert errors[0] == errors[1], errors
        return
    expected, got = _arrays(reference, name), _arrays(ours, name)
    assert len(expected) == len(got)
    for i, (e, g) in enumerate(zip(expected, got)):
        assert g.shape == e.shape and g.dtype == e.dtype, (i, g.shape, g.dtype, e.shape, e.dtype)
        if e.dtype.kind in 'fc':
            numpy.testing.assert_allclose(g, e, rtol=1e-4, atol=1e-5, err_msg=f'out {i}')
        else:
            numpy.testing.assert_array_equal(g, e, err_msg=f'out {i}')
    # The generator has moved by exactly as much: later draws agree too.
    assert float(ours[f'{name}/next']) == float(reference[f'{name}/next'])


def _load(path):
    with numpy.load(path) as f:
        return {k: f[k] for k in f.files}


@pytest.fixture(scope='module')
def training(tmp_path_factory):
    python = _reference_run.require_reference()
    work = tmp_path_factory.mktemp('seed-training')
    ours = ['full:' + k for k in KINDS] + ['first:' + k for k in KINDS]
    _seed_training.main(str(work), ours)
    jobs = ours + [f'resume:{k}:{work / f"{k}-{side}.snapshot"}'
                   for k in KINDS for side in ('chainer', 'rechainer')]
    _reference_run.run(python, '_seed_training.py', work, *jobs)
    _seed_training.main(str(work), [job for job in jobs if job.startswith('resume')])

    def result(job, side):
        return _load(work / f'{job}-{side}.npz')
    return result


def _assert_same(got, expected, atol=1e-4):
    assert sorted(got) == sorted(expected)
    for key in expected:
        numpy.testing.assert_allclose(got[key], expected[key], rtol=0, atol=atol, err_msg=key)
    assert float(got['next']) == float(expected['next'])


@pytest.mark.parametrize('kind', KINDS)
def test_seeded_training_gives_the_same_parameters(training, kind):
    # Dropout and shuffling through a Trainer for 20 iterations, then the next draw.
    _assert_same(training(f'full-{kind}', 'rechainer'), training(f'full-{kind}', 'chainer'))


@pytest.mark.parametrize('kind', KINDS)
def test_snapshot_resumes_exactly(training, kind):
    # The snapshot holds the global generator's state; Chainer 7.8.1 resumes elsewhere.
    assert _differences.expected('random:chainer.training.Trainer.serialize:global-generator')
    resumed = training(f'resume-{kind}-from-{kind}-rechainer.snapshot', 'rechainer')
    _assert_same(resumed, training(f'full-{kind}', 'rechainer'), atol=0)


@pytest.mark.parametrize('kind', KINDS)
def test_chainer_snapshot_resumes_as_in_chainer(training, kind):
    name = f'resume-{kind}-from-{kind}-chainer.snapshot'
    _assert_same(training(name, 'rechainer'), training(name, 'chainer'))


@pytest.mark.parametrize('kind', KINDS)
def test_chainer_resumes_our_snapshot_as_its_own(training, kind):
    # Our extra keys (the generator's state) are ignored by the original.
    _assert_same(training(f'resume-{kind}-from-{kind}-rechainer.snapshot', 'chainer'),
                 training(f'resume-{kind}-from-{kind}-chainer.snapshot', 'chainer'))


def test_cases_cover_every_random_path():
    # The families that draw random numbers each have cases (see _seed_cases).
    prefixes = {name.split('-')[0] for name in _seed_cases.CASES}
    assert {'initializer', 'link', 'dropout', 'distribution', 'iterator', 'function'} <= prefixes
