"""Every optimizer and optimizer hook over its options, against Chainer 7.8.1's answers.

Parameters and the optimizer's state (as ``serialize`` writes it) after one and after several
updates; float16 parameters with ``use_fp32_update``; static and dynamic loss scaling.
"""
import math

import numpy
import pytest

import chainer
import _grids

CASES = {}
for _case in _grids.recorded('optimizers')['cases']:
    CASES.setdefault(_case['id'].split('[')[0], []).append(_case)


def _qualname(name):
    if hasattr(chainer.optimizer_hooks, name) and not hasattr(chainer.optimizers, name):
        return 'optimizer', f'chainer.optimizer_hooks.{name}'
    return 'optimizer', f'chainer.optimizers.{name}'


def _compare_step(i, ref, ours, values, floor):
    out = []
    for key in ('t', 'epoch'):
        if ref[key] != ours[key]:
            out.append(('state', f'step {i} {key}: {ours[key]} != {ref[key]}'))
    if (ref['lr'] is None) != (ours['lr'] is None) or (
            ref['lr'] is not None and values and
            not math.isclose(ref['lr'], ours['lr'], rel_tol=1e-4, abs_tol=1e-9)):
        out.append(('state', f'step {i} lr: {ours["lr"]} != {ref["lr"]}'))
    for what in ('params', 'state'):
        r, o = ref[what], ours[what]
        if sorted(r) != sorted(o):
            out.append((what, f'step {i} {what} keys {sorted(o)} != {sorted(r)}'))
            continue
        for k in r:
            if isinstance(r[k], dict):
                why = (_grids.compare_array(r[k], o[k], _grids.GRAD_SCALE, values, floor)
                       if isinstance(o[k], dict) else f'{o[k]!r}')
                if why:
                    out.append((what, f'step {i} {k}: {why}'))
            elif r[k] != o[k]:
                out.append((what, f'step {i} {k}: {o[k]!r} != {r[k]!r}'))
    return out


def compare_optimizer(case, ours):
    ref = case['ref']
    for key in ('err', 'uerr'):
        if not _grids.same_error(ref.get(key), ours.get(key)):
            return [('error-type', f'{key}: {ours.get(key)} != {ref.get(key)}')]
    if 'err' in ref:
        return []
    if len(ref['steps']) != len(ours['steps']):
        return [('update', f'{len(ours["steps"])} steps != {len(ref["steps"])}')]
    out = []
    for i, (r, o) in enumerate(zip(ref['steps'], ours['steps'])):
        out += _compare_step(i, r, o, not case.get('rnd'), case.get('dtype', 'float32'))
    return out


@pytest.mark.parametrize('name', sorted(CASES))
def test_optimizer_grid(name):
    run = _grids.module('grid_optimizers').run
    area, qualname = _qualname(name)
    failures = []
    for case in CASES[name]:
        numpy.random.seed(0)
        ours = run(chainer, case)
        failures += _grids.unexpected(area, qualname, case, compare_optimizer(case, ours))
    assert not failures, f'{len(failures)} differences from Chainer 7.8.1:\n' + '\n'.join(
        failures)
