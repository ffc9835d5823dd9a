"""Loads the recorded grids of Chainer 7.8.1 and compares rechainer's answers with them.

The recorded cases and ``gridlib`` (the code that runs a case, the same on both sides) live in
``tests/fixtures/reference/``; ``record_grids.py`` there rewrites the recordings.
"""
import functools
import gzip
import importlib.util
import json
import math
import os
import pathlib
import re
import sys

import numpy

import _differences

REF_DIR = pathlib.Path(__file__).resolve().parent / 'fixtures' / 'reference'

# (atol, rtol) by dtype, for forward values; gradients get GRAD_SCALE times as much (they chain
# more roundings), second-order gradients GRAD2_SCALE times.
TOLERANCE = {
    'float16': (1e-2, 1e-2),
    'float32': (1e-5, 1e-4),
    'float64': (1e-10, 1e-8),
}
GRAD_SCALE = 3
GRAD2_SCALE = 10


@functools.lru_cache(maxsize=None)
def gridlib():
    spec = importlib.util.spec_from_file_location('_gridlib', REF_DIR / 'gridlib.py')
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@functools.lru_cache(maxsize=None)
def module(name):
    """A module of tests/fixtures/reference (``grid_links``...), which imports ``gridlib``."""
    sys.modules.setdefault('gridlib', gridlib())
    spec = importlib.util.spec_from_file_location(f'_{name}', REF_DIR / f'{name}.py')
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@functools.lru_cache(maxsize=None)
def recorded(section):
    with gzip.open(REF_DIR / 'grids' / f'{section}.json.gz', 'rb') as f:
        return json.loads(f.read().decode())


@functools.lru_cache(maxsize=None)
def surface():
    """The public names each grid must cover, as Chainer 7.8.1 has them, read from the surface
    that ``record_surface.py`` recorded (``surface.json.gz``): ``functions``, ``links``,
    ``optimizers``, ``optimizer_hooks``, ``initializers``, ``distributions`` (sorted names), and
    ``function_signatures``, ``link_signatures``, ``optimizer_signatures`` (each name's
    ``positional`` parameters and the ``options`` that have defaults)."""
    with gzip.open(REF_DIR / 'surface.json.gz', 'rb') as f:
        chainer = json.loads(f.read().decode())['packages']['chainer']
    modules, objects = chainer['modules'], chainer['objects']

    def public(module, base=None, kind='class'):
        # a class counts if it is ``base`` or derives from it (``base=None``: any class)
        return sorted(n for n, row in modules[module]['names'].items()
                      if not n.startswith('_') and row['kind'] == kind and
                      (base is None or base == row['target'] or
                       base in objects[row['target']]['ancestors']))

    def signatures(module, names):
        out = {}
        for n in names:
            rows = objects[modules[module]['names'][n]['target']]['signature']
            out[n] = {'positional': [r[0] for r in rows if r[1] in ('P', 'PK')],
                      'options': [r[0] for r in rows if r[2] is not None]}
        return out

    out = {
        'functions': public('chainer.functions', kind='function'),
        'links': public('chainer.links', 'chainer.link.Link'),
        'optimizers': public('chainer.optimizers', 'chainer.optimizer.Optimizer'),
        'optimizer_hooks': public('chainer.optimizer_hooks'),
        'initializers': public('chainer.initializers', 'chainer.initializer.Initializer'),
        'distributions': public('chainer.distributions', 'chainer.distribution.Distribution'),
    }
    for group, module in (('function', 'chainer.functions'), ('link', 'chainer.links'),
                          ('optimizer', 'chainer.optimizers')):
        out[f'{group}_signatures'] = signatures(module, out[f'{group}s'])
    return out


def by_name(section, key):
    out = {}
    for case in recorded(section)['cases']:
        out.setdefault(case[key], []).append(case)
    return out


def _num(v):
    return float(v) if not isinstance(v, list) else complex(float(v[0]), float(v[1]))


def _close(a, b, atol, rtol):
    a = numpy.array([_num(v) for v in a])
    b = numpy.array([_num(v) for v in b])
    return numpy.allclose(a, b, atol=atol, rtol=rtol, equal_nan=True)


def compare_array(ref, ours, scale=1, values=True, floor=None):
    """None when the encoded arrays agree, else a short reason.

    ``floor``: the least precise float dtype among the case's inputs; an output is compared at
    that precision when it is coarser than the output's own (a float64 result of a float32
    input holds only float32 precision).
    """
    if ref['dt'] != ours['dt']:
        return f'dtype {ours["dt"]} != {ref["dt"]}'
    if ref['sh'] != ours['sh']:
        return f'shape {tuple(ours["sh"])} != {tuple(ref["sh"])}'
    if not values or 'obj' in ref:
        return None
    if 'v' not in ref and 'sm' not in ref:       # described without values (a sample's shape)
        return None if ref == ours else f'{ours} != {ref}'
    atol, rtol = TOLERANCE.get(ref['dt'], (0, 0))
    if floor in TOLERANCE and ref['dt'] in TOLERANCE:
        atol, rtol = max(atol, TOLERANCE[floor][0]), max(rtol, TOLERANCE[floor][1])
    atol, rtol = atol * scale, rtol * scale
    if 'v' in ref:
        if not _close(ref['v'], ours['v'], atol, rtol):
            return f'values {_short(ours["v"])} != {_short(ref["v"])}'
        return None
    if 'h' in ref and ref['h'] != ours.get('h'):
        return 'values differ (hash)'
    if not _close(ref['sm'], ours['sm'], atol, rtol):
        return f'sampled values {_short(ours["sm"])} != {_short(ref["sm"])}'
    (s_ref, n_ref), (s_ours, n_ours) = ref['st'], ours['st']
    if n_ref != n_ours or not math.isclose(s_ref, s_ours, rel_tol=rtol * 10,
                                           abs_tol=atol * max(n_ref, 1)):
        return f'sum |x| {s_ours} != {s_ref} ({n_ours} vs {n_ref} finite)'
    return None


def _short(v, n=6):
    s = ', '.join(str(x) for x in v[:n])
    return f'[{s}{", ..." if len(v) > n else ""}]'


def compare_value(ref, ours, scale=1, values=True, path='out', floor=None):
    """Compares encoded outputs (Variables, arrays, sequences, Python values)."""
    if ref is None or ours is None:
        return [] if ref is ours else [f'{path}: {ours!r} != {ref!r}']
    kind_ref, kind_ours = _kind(ref), _kind(ours)
    if kind_ref != kind_ours:
        return [f'{path}: {kind_ours} != {kind_ref}']
    if kind_ref in ('var', 'arr'):
        why = compare_array(ref[kind_ref], ours[kind_ours], scale, values, floor)
        return [f'{path}: {why}'] if why else []
    if kind_ref == 'seq':
        if ref['type'] != ours['type'] or len(ref['seq']) != len(ours['seq']):
            return [f'{path}: {ours["type"]} of {len(ours["seq"])} != '
                    f'{ref["type"]} of {len(ref["seq"])}']
        out = []
        for i, (r, o) in enumerate(zip(ref['seq'], ours['seq'])):
            out += compare_value(r, o, scale, values, f'{path}[{i}]', floor)
        return out
    if kind_ref == 'py':
        if ref['type'] != ours['type']:
            return [f'{path}: {ours["type"]} != {ref["type"]}']
        r, o = ref['py'], ours['py']
        if values and r != o and not (isinstance(r, float) and isinstance(o, float)
                                      and math.isclose(r, o, rel_tol=1e-6, abs_tol=1e-9)):
            return [f'{path}: {o!r} != {r!r}']
        return []
    if ref != ours:
        return [f'{path}: {ours} != {ref}']
    return []


def _kind(x):
    return next(iter(k for k in ('var', 'arr', 'seq', 'py', 'obj') if k in x))


def compare_grads(ref, ours, scale, values, what, category, floor=None):
    """[(category, reason)]; a gradient of another dtype is ``grad-dtype``."""
    if len(ref) != len(ours):
        return [(category, f'{what}: {len(ours)} gradients != {len(ref)}')]
    out = []
    for i, (r, o) in enumerate(zip(ref, ours)):
        if (r is None) != (o is None):
            out.append((category, f'{what}[{i}]: {"None" if o is None else "array"} != '
                                  f'{"None" if r is None else "array"}'))
        elif r is not None:
            why = compare_array(r, o, scale, values, floor)
            if why:
                cat = 'grad-dtype' if why.startswith('dtype') else category
                out.append((cat, f'{what}[{i}]: {why}'))
    return out


_PRECISION = ('float16', 'float32', 'float64')


def input_floor(case):
    """The least precise float dtype among the arrays a case feeds."""
    found = [_PRECISION.index(spec['dtype'])
             for spec in gridlib().iter_specs([case.get('args'), case.get('kwargs')])
             if spec['dtype'] in _PRECISION]
    return _PRECISION[min(found)] if found else None


# Messages of the original's internal failures, as opposed to the errors it raises on purpose:
# NumPy failing inside it on a size-0 batch, a NumPy alias removed since, its own "has a bug"
# and backward-arity guards, its type-check DSL misused on itself. Where the original fails so,
# the grid files the difference as ``crash``.
_CRASHES = re.compile('|'.join((
    r'zero-size array to reduction operation', r'cannot reshape array of size 0',
    r"module 'numpy' has no attribute", r'division by zero', r'modulo by zero',
    r'\) has a bug\.', r'number of gradients returned from backward is incorrect',
    r'An Expr instance cannot be evaluated as bool',
    r'array type float16 is unsupported in linalg', r'out of bounds for axis \d+ with size 0')))


def crashed(err):
    """Whether a recorded exception is one of the original's internal failures."""
    return err is not None and bool(_CRASHES.search(err[1]))


def same_error(ref, ours):
    """Whether our exception is caught where the original's is: of its type or a subtype."""
    if ref is None or ours is None:
        return ref is ours
    return ref[0] == ours[0] or (len(ours) > 2 and ref[0] in ours[2])


def compare_case(case, ours):
    """[(category, reason)] where rechainer's result differs from the recorded one."""
    ref = case['ref']
    values = not case.get('rnd')
    floor = input_floor(case)
    if 'err' in ref or 'err' in ours:
        if 'err' not in ours:
            cat = 'crash' if crashed(ref['err']) else 'accepts'
            return [(cat, f'original raised {ref["err"][0]}: {ref["err"][1][:200]}')]
        if 'err' not in ref:
            return [('refuses', f'raised {ours["err"][0]}: {ours["err"][1][:300]}')]
        if not same_error(ref['err'], ours['err']):
            cat = 'crash' if crashed(ref['err']) else 'error-type'
            return [(cat, f'{ours["err"][0]} != {ref["err"][0]} '
                          f'(ours: {ours["err"][1][:200]})')]
        return []
    out = [('forward', r) for r in compare_value(ref['out'], ours['out'], 1, values,
                                                 floor=floor)]
    if 'gerr' in ref or 'gerr' in ours:
        if not same_error(ref.get('gerr'), ours.get('gerr')):
            cat = 'crash' if crashed(ref.get('gerr')) else 'grad-error'
            out.append((cat, f'{ours.get("gerr")} != {ref.get("gerr")}'))
        return out
    if ('g' in ref) != ('g' in ours):
        out.append(('grad', f'gradients {"present" if "g" in ours else "absent"} '
                            f'(original: {"present" if "g" in ref else "absent"})'))
        return out
    if 'g' in ref:
        out += compare_grads(ref['g'], ours['g'], GRAD_SCALE, values, 'gx', 'grad', floor)
    if isinstance(ref.get('g2'), list):
        if 'g2err' in ours:
            out.append(('double-backprop', f'raised {ours["g2err"][0]}: {ours["g2err"][1][:200]}'))
        elif not isinstance(ours.get('g2'), list):
            out.append(('double-backprop', f'{ours.get("g2")!r} (original: gradients)'))
        else:
            out += compare_grads(ref['g2'], ours['g2'], GRAD2_SCALE, values, 'ggx',
                                 'double-backprop', floor)
    return out


def case_tag(case):
    cid = case['id']
    return cid[cid.index('[') + 1:-1] if '[' in cid else ''


# Entries of docs/differences.md written before the grids, with aspects of their own: the
# (category, tag) of the grid's cases that each one covers.
ALIASES = {
    'function:chainer.functions.softmax_cross_entropy:label-range': ('refuses', 'ignore_label=0'),
}


def unexpected(area, qualname, case, problems):
    """The problems of a case that no docs/differences.md entry makes expected."""
    tag = case_tag(case)
    out = []
    module = qualname.rsplit('.', 1)[0]
    listed = [k.split(':', 2)[2] for k in _differences.keys(f'{area}:{qualname}:')]
    for category, reason in problems:
        # an entry's aspect names the kind of difference (``grad``), or a case variant (a tag
        # or a part of it: ``loss-scale`` covers ``SGD-0.1-loss-scale``); an entry for the
        # whole module (``function:chainer.functions:grad-dtype``) covers every member
        if not (category in listed or any(a == tag or a in tag.split('-') or
                                          (len(a) > 3 and a in tag) for a in listed)
                or _differences.expected(f'{area}:{module}:{category}')
                or any(_differences.expected(k) and category == c and tag.startswith(t)
                       for k, (c, t) in ALIASES.items()
                       if k.startswith(f'{area}:{qualname}:'))):
            out.append(f'{case["id"]} [{category}] {reason}')
    _tally(area, qualname, case, problems)
    return out


def _tally(area, qualname, case, problems):
    path = os.environ.get('RECHAINER_GRID_TALLY')
    if path and problems:
        with open(path, 'a') as f:
            for category, reason in problems:
                f.write(json.dumps([area, qualname, case['id'], category, reason]) + '\n')
