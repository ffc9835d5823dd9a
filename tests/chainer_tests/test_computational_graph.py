import os
import re
import stat
import sys

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import computational_graph as c

_NODE = re.compile(r'^(\d+) \[(.*)\];$')
_EDGE = re.compile(r'^(\d+) -> (\d+);$')
_ATTR = re.compile(r'(\w+)="((?:[^"\\]|\\.)*)"')


def parse_dot(text):
    """Reads our DOT dump back: ({id: attrs}, [(tail id, head id)], rankdir)."""
    lines = [ln.strip() for ln in text.strip().splitlines()]
    assert lines[0] == 'digraph graphname {' and lines[-1] == '}'
    nodes, edges, rankdir = {}, [], None
    for ln in lines[1:-1]:
        if ln.startswith('rankdir='):
            rankdir = ln[len('rankdir='):-1]
        elif m := _NODE.match(ln):
            attrs = {k: v.replace('\\"', '"') for k, v in _ATTR.findall(m.group(2))}
            assert m.group(1) not in nodes
            nodes[m.group(1)] = attrs
        elif m := _EDGE.match(ln):
            edges.append((m.group(1), m.group(2)))
        else:
            raise AssertionError(f'unexpected DOT line: {ln!r}')
    for a, b in edges:
        assert a in nodes and b in nodes
    return nodes, edges, rankdir


def labelled_edges(text):
    nodes, edges, _ = parse_dot(text)
    return nodes, sorted((nodes[a]['label'], nodes[b]['label']) for a, b in edges)


@pytest.fixture
def net():
    rng = numpy.random.RandomState(0)
    x = chainer.Variable(rng.randn(2, 3).astype(numpy.float32), name='x')
    w1 = chainer.Variable(rng.randn(3, 4).astype(numpy.float32), name='W1')
    w2 = chainer.Variable(rng.randn(4, 5).astype(numpy.float32), name='W2')
    h = F.matmul(x, w1)
    a = F.tanh(h)
    y = F.matmul(a, w2)
    loss = F.sum(y)
    return {'x': x, 'w1': w1, 'w2': w2, 'h': h, 'a': a, 'y': y, 'loss': loss}


def test_two_layer_net_nodes_and_edges(net):
    g = c.build_computational_graph([net['loss']])
    nodes, edges = labelled_edges(g.dump())
    mm = net['h'].creator.label
    labels = sorted(n['label'] for n in nodes.values())
    assert labels == sorted([
        'x: (2, 3), float32', 'W1: (3, 4), float32', 'W2: (4, 5), float32',
        '(2, 4), float32', '(2, 4), float32', '(2, 5), float32', 'float32',
        mm, mm, 'Tanh', 'Sum'])
    assert edges == sorted([
        ('x: (2, 3), float32', mm), ('W1: (3, 4), float32', mm), (mm, '(2, 4), float32'),
        ('(2, 4), float32', 'Tanh'), ('Tanh', '(2, 4), float32'),
        ('(2, 4), float32', mm), ('W2: (4, 5), float32', mm), (mm, '(2, 5), float32'),
        ('(2, 5), float32', 'Sum'), ('Sum', 'float32')])
    assert len(g.nodes) == 11 and len(g.edges) == 10


def test_graph_objects_are_the_real_nodes(net):
    g = c.build_computational_graph(net['loss'])   # a single Variable is accepted
    assert net['x'].node in g.nodes and net['loss'].node in g.nodes
    assert net['a'].creator in g.nodes
    assert (net['x'].node, net['h'].creator) in g.edges
    assert (net['a'].creator, net['a'].node) in g.edges


def test_default_styles(net):
    nodes, _, rankdir = parse_dot(c.build_computational_graph([net['loss']]).dump())
    assert rankdir == 'TB'
    var = next(n for n in nodes.values() if n['label'].startswith('x:'))
    func = next(n for n in nodes.values() if n['label'] == 'Tanh')
    assert (var['shape'], var['fillcolor'], var['style']) == ('octagon', '#E0E0E0', 'filled')
    assert (func['shape'], func['fillcolor'], func['style']) == ('record', '#6495ED', 'filled')


def test_custom_and_no_styles(net):
    g = c.build_computational_graph([net['loss']], variable_style={'color': 'red'},
                                    function_style=None, rankdir='LR')
    nodes, _, rankdir = parse_dot(g.dump())
    assert rankdir == 'LR'
    var = next(n for n in nodes.values() if n['label'].startswith('x:'))
    func = next(n for n in nodes.values() if n['label'] == 'Tanh')
    assert var == {'label': 'x: (2, 3), float32', 'color': 'red'}
    assert func == {'label': 'Tanh'}


def test_remove_variable_keeps_function_chain(net):
    g = c.build_computational_graph([net['loss']], remove_variable=True)
    assert all(isinstance(n, chainer.FunctionNode) for n in g.nodes)
    nodes, edges = labelled_edges(g.dump())
    mm = net['h'].creator.label
    assert sorted(n['label'] for n in nodes.values()) == sorted([mm, mm, 'Tanh', 'Sum'])
    assert edges == sorted([(mm, 'Tanh'), ('Tanh', mm), (mm, 'Sum')])
    assert 'float32' not in g.dump()


def test_remove_variable_merges_parallel_edges():
    x = chainer.Variable(numpy.ones(3, numpy.float32))
    h = F.tanh(x)
    loss = F.sum(h * h)     # Tanh feeds Mul twice: one edge
    g = c.build_computational_graph([loss], remove_variable=True)
    assert g.dump().count('->') == 2


def test_show_name_false(net):
    text = c.build_computational_graph([net['loss']], show_name=False).dump()
    assert 'x:' not in text and '"(2, 3), float32"' in text


def test_start_from_node_or_function(net):
    n1 = len(c.build_computational_graph([net['a'].node]).nodes)
    assert n1 == 6          # a, Tanh, h, MatMul, x, W1
    g = c.build_computational_graph([net['a'].creator])
    assert len(g.nodes) == 5 and net['a'].node not in g.nodes


def test_start_from_old_style_function():
    class Double(chainer.Function):
        def forward(self, inputs):
            return inputs[0] * 2,

    f = Double()
    x = chainer.Variable(numpy.ones(2, numpy.float32), name='x')
    y = f(x)    # keeps the node (the function holds it weakly) alive
    g = c.build_computational_graph(f)
    assert y.creator is f
    assert g.nodes == [f.node, x.node]
    assert 'label="Double"' in g.dump()


def test_leaf_output_is_a_lone_node():
    x = chainer.Variable(numpy.ones(2, numpy.float32), name='x')
    g = c.build_computational_graph([x])
    assert g.nodes == [x.node] and g.edges == []


def test_unchain_backward_stops_the_walk(net):
    net['a'].unchain_backward()
    g = c.build_computational_graph([net['loss']])
    assert net['x'].node not in g.nodes and net['a'].node in g.nodes


def test_multi_output_function_reached_outputs_only():
    x = chainer.Variable(numpy.arange(6, dtype=numpy.float32).reshape(2, 3))
    y0, y1 = _TwoOut().apply((x,))
    g = c.build_computational_graph([F.sum(y0)])
    assert y0.node in g.nodes and y1.node not in g.nodes


class _TwoOut(chainer.FunctionNode):
    def forward(self, inputs):
        x, = inputs
        return x[:1], x[1:]


class _Weird(chainer.FunctionNode):
    @property
    def label(self):
        return 'a|b {c} <d> "q" \\x'

    def forward(self, inputs):
        return inputs[0] * 1,


def test_labels_are_escaped():
    x = chainer.Variable(numpy.ones(2, numpy.float32))
    y, = _Weird().apply((x,))
    text = c.build_computational_graph([y]).dump()
    nodes, _, _ = parse_dot(text)
    labels = {n['label'] for n in nodes.values()}
    # record shapes treat | { } < > as field syntax: they come out backslash-escaped;
    # a backslash would start a Graphviz escape (\n...), so it is doubled
    assert r'a\|b \{c\} \<d\> "q" \\x' in labels
    text = c.build_computational_graph([y], function_style={'shape': 'box'}).dump()
    labels = {n['label'] for n in parse_dot(text)[0].values()}
    assert r'a|b {c} <d> "q" \\x' in labels


def test_argument_errors(net):
    with pytest.raises(ValueError):
        c.build_computational_graph([net['loss']], remove_split=False)
    with pytest.raises(ValueError):
        c.build_computational_graph([net['loss']], rankdir='XY')
    with pytest.raises(TypeError):
        c.build_computational_graph([net['loss'].array])
    with pytest.raises(NotImplementedError):
        c.build_computational_graph([net['loss']]).dump(format='png')


def test_computational_graph_class_directly():
    x = chainer.Variable(numpy.ones(2, numpy.float32), name='x')
    g = c.ComputationalGraph([x.node], [], rankdir='BT')
    nodes, edges, rankdir = parse_dot(g.dump())
    assert rankdir == 'BT' and edges == [] and len(nodes) == 1


def test_render_without_graphviz(net, monkeypatch, tmp_path):
    monkeypatch.setattr(c.shutil, 'which', lambda name: None)
    g = c.build_computational_graph([net['loss']])
    with pytest.raises(RuntimeError, match='Graphviz'):
        g.render(str(tmp_path / 'g.svg'))


@pytest.mark.skipif(sys.platform == 'win32', reason='uses a shell script as fake dot')
def test_render_runs_dot(net, tmp_path, monkeypatch):
    # A stand-in for Graphviz's dot: records its arguments and copies stdin to -o.
    fake = tmp_path / 'dot'
    fake.write_text('#!/bin/sh\necho "$@" > "$(dirname "$0")/args"\n'
                    'while [ "$1" != "-o" ]; do shift; done\ncat > "$2"\n')
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv('PATH', f'{tmp_path}{os.pathsep}{os.environ.get("PATH", "")}')
    g = c.build_computational_graph([net['loss']])
    out = tmp_path / 'graph.png'
    g.render(str(out))
    assert (tmp_path / 'args').read_text().split()[0] == '-Tpng'
    assert out.read_text() == g.dump()


@pytest.mark.skipif(c.shutil.which('dot') is None, reason='Graphviz is not installed')
def test_render_with_real_graphviz(tmp_path):
    x = chainer.Variable(numpy.ones(2, numpy.float32), name='x')
    y, = _Weird().apply((x,))
    g = c.build_computational_graph([F.sum(y)])
    out = tmp_path / 'g.svg'
    g.render(str(out))
    svg = out.read_text()
    # labels come out literally: escapes were understood by Graphviz as intended
    assert 'a|b {c} &lt;d&gt; &quot;q&quot; \\x' in svg
    assert 'x: (2), float32' in svg
