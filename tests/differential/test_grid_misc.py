"""Initializers, distributions, ``chainer.utils`` and user-defined functions over their grids,
against Chainer 7.8.1's answers (see ``tests/fixtures/reference/grid_misc.py``).
"""
import math

import numpy
import pytest

import chainer
import _grids

# (area in docs/differences.md, qualified name) of each group of cases
_WHERE = {'init': ('link', 'chainer.initializers.{}'),
          'dist': ('function', 'chainer.distributions.{}'),
          'kl': ('function', 'chainer.{}'),
          'conv': ('function', 'chainer.utils.conv.{}'),
          'coo': ('function', 'chainer.utils.{}'),
          'coomatrix': ('function', 'chainer.utils.{}'),
          'typecheck': ('function', 'chainer.utils.{}'),
          'userfn': ('core', 'chainer.FunctionNode:{}')}

CASES = {}
for _case in _grids.recorded('misc')['cases']:
    CASES.setdefault((_case['kind'], _case['id'].split('[')[0]), []).append(_case)


def _is_error(v):
    return (isinstance(v, list) and len(v) == 3 and isinstance(v[0], str)
            and isinstance(v[1], str) and isinstance(v[2], list))


def _stats_close(ref, ours):
    """Statistics of random initial values: mean, std (and orthogonality) of the same law."""
    if len(ref) != len(ours):
        return False
    if not ref:
        return True
    m0, s0, m1, s1 = ref[0], ref[1], ours[0], ours[1]
    if s0 == 0:
        return s1 == 0 and math.isclose(m0, m1, abs_tol=1e-6)
    ok = abs(s1 - s0) <= 0.35 * s0 and abs(m1 - m0) <= 1.5 * s0
    if len(ref) == 4:       # Orthogonal: off-diagonal of the Gram matrix, its diagonal
        ok = ok and (ours[2] < 1e-2) == (ref[2] < 1e-2) and math.isclose(
            ref[3], ours[3], rel_tol=1e-2)
    return ok


def _err(v):
    if isinstance(v, dict) and set(v) == {'err'}:
        return v['err']
    return v if _is_error(v) else None


def compare_tree(ref, ours, path, values, floor):
    er, eo = _err(ref), _err(ours)
    if er is not None or eo is not None:
        if er is None:
            return [('refuses', f'{path}: raised {eo[0]}: {eo[1][:200]}')]
        if eo is None:
            # a member the original leaves unimplemented is ``beyond``; other refusals that
            # rechainer answers are ``accepts``
            cat = 'beyond' if er[0] == 'builtins.NotImplementedError' else 'accepts'
            return [(cat, f'{path}: original raised {er[0]}: {er[1][:150]}')]
        if not _grids.same_error(er, eo):
            return [('error-type', f'{path}: {eo[0]} != {er[0]} ({eo[1][:150]})')]
        return []
    if isinstance(ref, dict) and 'dt' in ref and 'sh' in ref:
        if not isinstance(ours, dict) or 'dt' not in ours:
            return [('values', f'{path}: {ours} != {ref}')]
        if 'stats' in ref:
            if ref['dt'] != ours['dt'] or ref['sh'] != ours['sh'] or not _stats_close(
                    ref['stats'], ours.get('stats', [])):
                return [('values', f'{path}: {ours} != {ref}')]
            return []
        why = _grids.compare_array(ref, ours, _grids.GRAD_SCALE, values, floor)
        if why:
            return [('dtype' if why.startswith('dtype') else 'values', f'{path}: {why}')]
        return []
    if isinstance(ref, dict) and ('var' in ref or 'arr' in ref or 'seq' in ref or 'py' in ref):
        return [('values', m) for m in
                _grids.compare_value(ref, ours, _grids.GRAD_SCALE, values, path, floor)]
    if isinstance(ref, dict):
        if not isinstance(ours, dict) or sorted(ref) != sorted(ours):
            return [('structure', f'{path}: keys {sorted(ours) if isinstance(ours, dict) else ours}'
                                  f' != {sorted(ref)}')]
        out = []
        for k in ref:
            out += compare_tree(ref[k], ours[k], f'{path}.{k}', values, floor)
        return out
    if isinstance(ref, list):
        if not isinstance(ours, list) or len(ref) != len(ours):
            return [('structure', f'{path}: {ours} != {ref}')]
        out = []
        for i, (r, o) in enumerate(zip(ref, ours)):
            out += compare_tree(r, o, f'{path}[{i}]', values, floor)
        return out
    if isinstance(ref, float) and isinstance(ours, float):
        ok = math.isclose(ref, ours, rel_tol=1e-5, abs_tol=1e-8)
    else:
        ok = ref == ours
    return [] if ok else [('values', f'{path}: {ours!r} != {ref!r}')]


@pytest.mark.parametrize('kind,name', sorted(CASES))
def test_misc_grid(kind, name):
    run = _grids.module('grid_misc').run
    area, qual = _WHERE[kind]
    failures = []
    for case in CASES[(kind, name)]:
        numpy.random.seed(0)
        ours = run(chainer, case)
        floor = case.get('dtype') if case.get('dtype') in _grids.TOLERANCE else (
            _grids.input_floor({'args': case.get('params'), 'kwargs': case.get('x')}))
        problems = compare_tree(case['ref'], ours, 'result', True, floor or 'float32')
        failures += _grids.unexpected(area, qual.format(name), case, problems)
    assert not failures, f'{len(failures)} differences from Chainer 7.8.1:\n' + '\n'.join(
        failures)
