"""Every ``chainer.links`` class over its constructor options, against Chainer 7.8.1's answers.

Parameter and persistent names, shapes and dtypes; initial statistics (random initial values
by distribution, since the random streams are checked elsewhere); forward outputs and
gradients with seeded parameters; ``copy``, ``repeat``, ``serialize`` and ``to_device``.
"""
import math

import numpy
import pytest

import chainer
import _grids

CASES = _grids.by_name('links', 'cls')


def _compare_stats(name, ref, ours, shape):
    """Initial values: equal where the original's are constant, else of the same distribution."""
    if ref is None or ours is None:
        return [] if ref == ours else [f'{name}: stats {ours} != {ref}']
    if any(isinstance(v, str) for v in ref + ours):      # 'nan'/'inf' (an uninitialised value)
        return [] if ref == ours else [f'{name}: stats {ours} != {ref}']
    (m0, s0), (m1, s1) = ref[:2], ours[:2]     # (min and max are recorded too)
    if s0 == 0:
        ok = s1 == 0 and math.isclose(m0, m1, rel_tol=1e-3, abs_tol=1e-6)
    else:
        # sampling error of a mean and a standard deviation over n draws, 4 sigmas
        n = max(int(numpy.prod(shape)), 1)
        ok = (abs(s1 - s0) <= s0 * (4 / math.sqrt(2 * n) + 0.02)
              and abs(m1 - m0) <= 4 * s0 / math.sqrt(n) + 1e-6)
    return [] if ok else [f'{name}: mean/std {m1:.4g}/{s1:.4g} != {m0:.4g}/{s0:.4g}']


def _compare_described(what, ref, ours):
    out = []
    if sorted(ref) != sorted(ours):
        return [f'{what}: names {sorted(ours)} != {sorted(ref)}']
    for name, r in ref.items():
        o = ours[name]
        if set(r) != set(o) or r.get('dt') != o.get('dt') or r.get('sh') != o.get('sh'):
            out.append(f'{what} {name}: {o} != {r}')
        elif 'st' in r:
            out += [f'{what} {m}' for m in _compare_stats(name, r['st'], o['st'], r['sh'])]
        elif r != o:
            out.append(f'{what} {name}: {o} != {r}')
    return out


def compare_link(case, ours):
    ref = case['ref']
    values = not case.get('rnd')
    if 'err' in ref or 'err' in ours:
        if not _grids.same_error(ref.get('err'), ours.get('err')):
            return [('construct', f'{ours.get("err")} != {ref.get("err")}')]
        return []
    out = [('params', m) for m in _compare_described('init', ref['init'], ours['init'])]
    if 'after' in ref or 'after' in ours:
        out += [('params', m) for m in
                _compare_described('after forward', ref.get('after', {}), ours.get('after', {}))]
    if not _grids.same_error(ref.get('ferr'), ours.get('ferr')):
        out.append(('forward', f'{ours.get("ferr")} != {ref.get("ferr")}'))
    elif 'ferr' not in ref:
        for key in ('out', 'out2'):
            if key in ref:
                out += [('forward', m) for m in
                        _grids.compare_value(ref[key], ours.get(key), 1, values, key)]
        if 'g' in ref:
            out += _grids.compare_grads(ref['g'], ours.get('g', []), _grids.GRAD_SCALE, values,
                                        'grad', 'grad')
    for key, r in ref.get('extra', {}).items():
        o = ours.get('extra', {}).get(key)
        if isinstance(r, list) and len(r) == 3 and isinstance(r[2], list):   # an error
            if not (isinstance(o, list) and len(o) == 3 and _grids.same_error(r, o)):
                out.append((key, f'{o} != {r}'))
        elif r != o:
            out.append((key, f'{o} != {r}'))
    return out


# whole vision models take seconds each to build (VGG: 140M parameters); they run with -m slow
# (their names and shapes are also checked by links_tests/model_tests/vision_tests/)
_MODELS = {'VGG16Layers', 'VGG19Layers', 'GoogLeNet', 'ResNet50Layers', 'ResNet101Layers',
           'ResNet152Layers'}


@pytest.mark.parametrize('name', [pytest.param(n, marks=pytest.mark.slow) if n in _MODELS
                                  else n for n in sorted(CASES)])
def test_link_grid(name):
    run = _grids.module('grid_links').run
    failures = []
    for case in CASES[name]:
        numpy.random.seed(0)
        ours = run(chainer, case)
        failures += _grids.unexpected('link', f'chainer.links.{name}', case,
                                      compare_link(case, ours))
    assert not failures, f'{len(failures)} differences from Chainer 7.8.1:\n' + '\n'.join(
        failures)
