"""No chain of imports between the core's modules closes a loop, at any level.

The graph is read from the source: every ``import`` statement of every module of the
``chainer`` package, at module level or inside a function. The packages' ``__init__``
modules are left out as nodes: ``import chainer`` and ``from chainer import config`` name the
package namespace, which every module of a package reaches; a loop through it is no loop
between the core's modules.
"""
import ast
import os

import pytest

import chainer

CORE = ('chainer.variable', 'chainer.function_node', 'chainer._backprop',
        'chainer._backprop_utils')
# Other modules that once imported each other, and must not again.
NO_LOOPS = CORE + ('chainer.utils.conv', 'chainer.utils.conv_nd')


def _modules(root):
    # name -> (path, is_package) for every module under the package at root.
    base = os.path.dirname(root)
    found = {}
    for folder, _, files in os.walk(root):
        for f in files:
            if f.endswith('.py'):
                path = os.path.join(folder, f)
                name = os.path.relpath(path, base)[:-3].replace(os.sep, '.')
                package = name.endswith('.__init__')
                found[name[:-len('.__init__')] if package else name] = (path, package)
    return found


def import_graph(root):
    """Returns ``{module: set of modules it imports}`` over the package at ``root``.

    Imports of names resolve to the module that defines them when that is a module, else
    to the package (``from chainer.utils import conv`` -> ``chainer.utils.conv``).
    """
    modules = _modules(root)

    def resolve(name):
        while name and name not in modules:
            name = name.rpartition('.')[0]
        return name

    graph = {}
    for name, (path, package) in modules.items():
        with open(path, encoding='utf-8') as f:
            tree = ast.parse(f.read(), path)
        here = name if package else name.rpartition('.')[0]
        targets = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                targets.update(resolve(a.name) for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ''
                if node.level:
                    parts = here.split('.')[:len(here.split('.')) - node.level + 1]
                    base = '.'.join(parts + ([node.module] if node.module else []))
                for a in node.names:
                    full = f'{base}.{a.name}'
                    targets.add(full if full in modules else resolve(base))
        graph[name] = {t for t in targets if t and t != name}
    packages = {name for name, (_, package) in modules.items() if package}
    return {m: deps - packages for m, deps in graph.items() if m not in packages}


def loops_through(graph, start):
    """Returns the import chains that lead from ``start`` back to it (shortest first)."""
    chains = []
    seen = {start}
    frontier = [(start,)]
    while frontier:
        following = []
        for chain in frontier:
            for dep in sorted(graph.get(chain[-1], ())):
                if dep == start:
                    chains.append(chain + (start,))
                elif dep not in seen:
                    seen.add(dep)
                    following.append(chain + (dep,))
        frontier = following
    return chains


@pytest.fixture(scope='module')
def graph():
    return import_graph(os.path.dirname(chainer.__file__))


@pytest.mark.parametrize('module', NO_LOOPS)
def test_no_import_loop(graph, module):
    assert module in graph
    loops = loops_through(graph, module)
    assert not loops, 'import loop: ' + '; '.join(' -> '.join(c) for c in loops[:3])


def test_the_check_finds_loops(tmp_path):
    # A loop through a function-level import, and one through a module of another package.
    pkg = tmp_path / 'pkg'
    (pkg / 'sub').mkdir(parents=True)
    (pkg / '__init__.py').write_text('from pkg import a\n')
    (pkg / 'sub' / '__init__.py').write_text('')
    (pkg / 'a.py').write_text('from pkg import b\n')
    (pkg / 'b.py').write_text('def f():\n    from pkg.sub import c\n')
    (pkg / 'sub' / 'c.py').write_text('from .. import a\n')
    (pkg / 'd.py').write_text('import pkg\n')
    g = import_graph(str(pkg))
    assert loops_through(g, 'pkg.a') == [('pkg.a', 'pkg.b', 'pkg.sub.c', 'pkg.a')]
    assert loops_through(g, 'pkg.d') == []     # only through the package namespace
