"""Every module, public name, signature and subclass relation of Chainer 7.8.1, checked here.

The rows come from the original itself (``tests/fixtures/reference/record_surface.py`` wrote
``surface.json.gz`` on Chainer 7.8.1), not from a hand-picked list: one test per recorded
module checks each of its names, and the packages' attribute paths and add-on names get one
test each. What is compared (``tests/fixtures/reference/_surface.py`` describes both sides in
the same words):

- the module imports, and each of its names is there: a submodule as the same module (by
  ``__name__``), a class as a class, a function as a callable, a value with the same type;
- at the home of each class and function (the module that defines it, else its first public
  place), its signature by ``inspect.signature`` (names, order, kinds, defaults); every other
  place of a class names the same class, as in the original;
- each class derives from the original's public ancestors, and has each method, property,
  class- or staticmethod that the original class defines itself, of the same kind, with the
  same signature;
- names in the original's ``__all__`` are in ours (``from m import *``);
- right after ``import <package>`` (a fresh interpreter), the submodules the original reaches
  as attributes are reachable the same way;
- the names that ChainerRL 0.8.0, ChainerCV 0.13.1 and ChainerUI import from ``chainer``,
  underscored ones included, resolve.

What is not compared, and why:

- modules with an underscored part (``chainer.utils._collections``): the original's
  implementation, not its surface (the names add-ons use from them are checked);
- a plain module's imports (``import chainer`` at the top of a module), and the modules and
  objects a package below the top one imports from outside itself (see ``_required``);
- the methods of FunctionNode and old-style Function subclasses (``forward_cpu``, helpers): how
  a node is written; their constructor's signature and ancestors are compared;
- classes' data attributes (``is_elementwise = True``): rechainer may set them per instance;
- dunder methods' parameters (``__exit__``...), which Python passes positionally: only that
  they exist; trailing keyword parameters of ours named with a leading underscore
  (``_source``), which are our implementation's;
- default values that are text streams (``file=sys.stdout``) are compared as "a text stream".

Extra names are fine. A difference listed in ``docs/differences.md`` under ``name:<dotted>``
(a name, a kind, an ancestor, an identity) or ``signature:<dotted>`` (a signature, a member's
signature) is expected. ``chainermn`` and ``onnx_chainer`` are checked where they import; the
static-graph package and ChainerMN's part 2 are pending
(``PENDING_PACKAGES``, ``PENDING_NAMES``).
"""
import functools
import gzip
import importlib
import json
import os
import subprocess
import sys
import types

import pytest

import _differences
from fixtures.reference import _surface as S

DATA = os.path.join(os.path.dirname(__file__), os.pardir, 'fixtures', 'reference',
                    'surface.json.gz')

# The static-graph mode (``chainer.graph_optimizations``, ``chainer.static_graph``...) comes with
# its own issue. Until that package exists, its modules and every name that points into it are
# expected to be missing; the issue that builds it deletes this list, and the rows are checked
# like any other from then on.
PENDING_PACKAGES = {}
PENDING_NAMES = {}


@functools.lru_cache(maxsize=None)
def _data():
    with gzip.open(DATA, 'rt', encoding='utf-8') as f:
        return json.load(f)


def _importable(name):
    try:
        importlib.import_module(name)
        return True
    except Exception:
        return False


@functools.lru_cache(maxsize=None)
def _resolvable(dotted):
    """Whether ``dotted`` is a module, or an attribute of the module its prefix names."""
    if _importable(dotted):
        return True
    modname, _, name = dotted.rpartition('.')
    try:
        return hasattr(importlib.import_module(modname), name)
    except Exception:
        return False


def _pending(dotted):
    """The reason ``dotted`` is expected to be missing, or None."""
    for prefix, reason in {**PENDING_PACKAGES, **PENDING_NAMES}.items():
        if S.in_roots(dotted, (prefix,)) and not _resolvable(prefix):
            return reason
    return None


def _private(modname):
    # A module with an underscored part (``chainer.utils._collections``) is the original's
    # implementation, not its surface: only the names add-ons use from such modules are checked.
    return any(part.startswith('_') for part in modname.split('.'))


def _skip_package(root):
    if root != 'chainer' and not _importable(root):
        pytest.skip(f'{root} is not importable in rechainer yet (built by another issue)')


class _Package:
    """One package's recorded surface, with each object's home (module, name)."""

    def __init__(self, root):
        self.root = root
        rec = _data()['packages'][root]
        self.modules = rec['modules']
        self.objects = rec['objects']
        self.home = {}
        places = {}
        for modname in sorted(self.modules):
            for name, row in self.modules[modname].get('names', {}).items():
                if row['kind'] in ('class', 'function'):
                    places.setdefault(row['target'], []).append((modname, name))
        # The home is where the class or function is defined, else its first place.
        for key, where in places.items():
            defining = key.split('#')[0].rsplit('.', 1)[0]
            own = [p for p in where if p[0] == defining]
            self.home[key] = (own or where)[0]

    def resolve(self, key):
        """Our object for the original's class or function ``key`` (via its home), or None."""
        where = self.home.get(key)
        if where is None:
            return None
        try:
            return getattr(importlib.import_module(where[0]), where[1])
        except Exception:
            return None


@functools.lru_cache(maxsize=None)
def _package(root):
    return _Package(root)


def _module_cases():
    out = []
    for root, rec in sorted(_data()['packages'].items()):
        for modname in sorted(rec['modules']):
            if not _private(modname):
                out.append(pytest.param(root, modname, id=modname))
    return out


def _required(modname, module_rec, row):
    # A package's namespace is its surface (``chainer.cuda``, ``chainer.functions.relu``),
    # except, below the top package, the modules and objects it imports from outside itself
    # (``import chainer`` in ``chainer/utils/__init__.py``). A plain module's imports (``import
    # chainer`` at the top of ``chainer.distributions.normal``) are how it is written, not what
    # it offers: only the names it defines are required. Names add-ons use always are.
    if row.get('type') == '__future__._Feature':
        return False        # ``from __future__ import absolute_import``: Python 2's
    if row.get('addon') or not row.get('imported'):
        return True
    if not module_rec['package']:
        return False
    if '.' not in modname or row['kind'] == 'value':
        return True
    target = row['target']
    home = target if row['kind'] == 'module' else target.split('#')[0].rsplit('.', 1)[0]
    return S.in_roots(home, (modname,))


class _Problems:

    def __init__(self):
        self.items = []

    def add(self, area, dotted, text):
        if _differences.expected(f'{area}:{dotted}'):
            return
        reason = _pending(dotted)
        if reason is None:
            self.items.append(f'{dotted}: {text}')

    def check(self):
        if self.items:
            pytest.fail(f'{len(self.items)} difference(s) from Chainer 7.8.1:\n  '
                        + '\n  '.join(self.items), pytrace=False)


def _kind_of(value):
    if isinstance(value, types.ModuleType):
        return 'module'
    if isinstance(value, type):
        return 'class'
    if callable(value):
        return 'function'
    return 'value'


def _comparable(rows, dunder):
    """A described signature as the check compares it.

    Trailing keyword parameters of ours whose names start with ``_`` (``_source``) are our
    implementation's and dropped. A dunder method (``__exit__``, ``__getitem__``) is only ever
    called by Python, positionally: its parameter names are dropped.
    """
    if rows is None:
        return None
    rows = [list(r) for r in rows]
    while rows and rows[-1][0].startswith('_') and rows[-1][2] is not None:
        rows.pop()
    if dunder:
        rows = [[None, kind, default] for _, kind, default in rows]
    return rows


def _check_signature(problems, dotted, recorded, ours, dunder=False):
    got = S.describe_signature(ours)
    if _comparable(got, dunder) != _comparable(recorded, dunder):
        problems.add('signature', dotted, f'signature {S.format_signature(got)}, '
                     f'the original has {S.format_signature(recorded)}')


def _check_object(problems, pkg, dotted, desc, ours):
    if desc['kind'] == 'function' or desc['signature'] is not None:
        if not (desc['kind'] == 'class' and desc['signature'] is None):
            _check_signature(problems, dotted, desc['signature'], ours)
    if desc['kind'] != 'class' or not isinstance(ours, type):
        return
    for key in desc['ancestors']:
        base = pkg.resolve(key)
        if base is None:
            continue      # an ancestor with no public place (checked where it has one)
        if isinstance(base, type) and not issubclass(ours, base):
            where = '.'.join(pkg.home[key])
            problems.add('name', dotted, f'is not a subclass of {where}')
    for name in desc['builtin_ancestors']:
        base = getattr(__import__('builtins'), name.split('.', 1)[1])
        if not issubclass(ours, base):
            problems.add('name', dotted, f'is not a subclass of {name}')
    node = _is_node_class(ours)
    for name, (kind, detail) in sorted(desc['members'].items()):
        member = f'{dotted}.{name}'
        if kind == 'attr' or node:
            continue
        got = S.member_kind(ours, name)
        if got is None:
            problems.add('name', member, f'missing {kind} (the original class defines it)')
            continue
        if kind in ('method', 'staticmethod', 'classmethod'):
            dunder = name.startswith('__')
            if dunder and name != '__call__':
                # (Python calls these positionally: that they exist is what matters; the
                # class's own signature stands for __init__)
                continue
            if got[0] != kind:
                problems.add('name', member, f'is a {got[0]}, the original has a {kind}')
            elif _comparable(got[1], dunder) != _comparable(detail, dunder):
                problems.add('signature', member, f'signature {S.format_signature(got[1])}, '
                             f'the original has {S.format_signature(detail)}')
        elif kind == 'property' and got[0] not in ('property', 'attr'):
            problems.add('name', member, f'is a {got[0]}, the original has a property')


# A FunctionNode or old-style Function subclass (``F.activation.relu.ReLU``) is used through
# its constructor and ``apply`` (or call); its other methods (``forward_cpu``, helpers) are how
# the node is written, and are not compared. Neither are the original classes' data attributes
# (``is_elementwise = True``): rechainer may set such values per instance, which is the same to
# users of instances.
def _is_node_class(cls):
    import chainer
    return (issubclass(cls, (chainer.FunctionNode, chainer.Function))
            and cls not in (chainer.FunctionNode, chainer.Function))


@pytest.mark.parametrize('root,modname', _module_cases())
def test_module(root, modname):
    _skip_package(root)
    pkg = _package(root)
    rec = pkg.modules[modname]
    if 'error' in rec:
        pytest.skip(f'does not import on the original either ({rec["error"]})')
    problems = _Problems()
    try:
        ours = importlib.import_module(modname)
    except Exception as e:
        problems.add('name', modname, f'does not import ({type(e).__name__}: {e})')
        problems.check()
        return
    for name, row in sorted(rec['names'].items()):
        dotted = f'{modname}.{name}'
        target = row.get('target', '')
        if _pending(target) or not _required(modname, rec, row):
            continue
        if not hasattr(ours, name):
            problems.add('name', dotted, f'missing (a {row["kind"]} in the original)')
            continue
        value = getattr(ours, name)
        kind = _kind_of(value)
        if row['kind'] == 'module':
            if kind != 'module' or value.__name__ != target:
                problems.add('name', dotted, f'is {value!r}, the original has module {target}')
            continue
        if row['kind'] == 'value':
            if S.value_type(value) != row['type']:
                problems.add('name', dotted, f'is a {S.value_type(value)}, '
                             f'the original has a {row["type"]}')
            continue
        if row['kind'] == 'class' and kind != 'class' or kind not in ('class', 'function'):
            problems.add('name', dotted, f'is a {kind}, the original has a {row["kind"]}')
            continue
        if pkg.home.get(target) == (modname, name):
            _check_object(problems, pkg, dotted, pkg.objects[target], value)
        else:
            home = pkg.resolve(target)
            if home is not None and home is not value and row['kind'] == 'class':
                problems.add('name', dotted, f'is not the same class as {".".join(pkg.home[target])}'
                             ' (it is in the original)')
    if 'all' in rec:
        star = getattr(ours, '__all__', None)
        if star is None:
            star = [n for n in dir(ours) if not n.startswith('_')]
        for name in rec['all']:
            if name not in star and not _pending(f'{modname}.{name}'):
                problems.add('name', f'{modname}.{name}', 'not in __all__ (it is in the original)')
    problems.check()


_REACHABLE = r'''
import importlib, sys, json
root, paths = sys.argv[1], json.loads(sys.stdin.read())
importlib.import_module(root)
bad = []
for path, name in paths.items():
    obj = sys.modules[root]
    try:
        for part in path.split('.')[1:]:
            obj = getattr(obj, part)
    except Exception as e:
        bad.append(f'{path}: not reachable as an attribute ({type(e).__name__}: {e})')
        continue
    if getattr(obj, '__name__', None) != name:
        bad.append(f'{path}: reaches {obj!r}, the original module {name}')
print(json.dumps(bad))
'''


@pytest.mark.parametrize('root', ['chainer', 'chainermn', 'onnx_chainer'])
def test_submodules_reachable_after_import(root):
    """``chainer.functions.math.exponential`` after a bare ``import chainer``, as in the original."""
    _skip_package(root)
    paths = {p: n for p, n in _data()['packages'][root]['reachable_after_import'].items()
             if not _pending(p) and not _private(p)}
    proc = subprocess.run([sys.executable, '-c', _REACHABLE, root], input=json.dumps(paths),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    problems = _Problems()
    for line in json.loads(proc.stdout.splitlines()[-1]):
        path, _, text = line.partition(': ')
        problems.add('name', path, text)
    problems.check()


@pytest.mark.parametrize('root', ['chainer', 'chainermn', 'onnx_chainer'])
def test_addon_names(root):
    """The names ChainerRL, ChainerCV and ChainerUI reach in Chainer (underscored ones too)."""
    _skip_package(root)
    problems = _Problems()
    for modname, path in _data()['packages'][root]['addon_names']:
        dotted = f'{modname}.{path}' if path else modname
        try:
            obj = importlib.import_module(modname)
            for part in filter(None, path.split('.')):
                obj = getattr(obj, part)
        except Exception as e:
            problems.add('name', dotted, f'does not resolve ({type(e).__name__}: {e})')
    problems.check()


def test_recording_covers_the_package():
    """The recording is complete: every public module of Chainer 7.8.1 imported there."""
    rec = _data()['packages']['chainer']
    failed = sorted(m for m, r in rec['modules'].items() if 'error' in r)
    assert not failed, f'modules the recording could not import on the original: {failed}'
    assert len(rec['modules']) > 400 and len(rec['objects']) > 1000
