"""Comparing two descriptions of ONNX models (``_cases.dump_model``) structurally.

Node and intermediate edge names are not compared: each edge is named by the node and output
that write it. Graph inputs, outputs and initializers keep their names, except the names
``v<N>`` that Chainer 7.8.1 gives to constants (their numbers depend on memory addresses
there), which are numbered by first use. Float attributes and constant values compare with
a relative tolerance.
"""
import gzip
import json
import math
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
REFERENCE = os.path.join(HERE, '..', 'fixtures', 'onnx_reference.json.gz')
_V_NAME = re.compile(r'^v\d+$')

_cache = {}


def reference():
    """The recorded answers of Chainer 7.8.1 (``tests/fixtures/make_onnx_reference.py``)."""
    if 'data' not in _cache:
        with gzip.open(REFERENCE, 'rt', encoding='utf-8') as f:
            _cache['data'] = json.load(f)
    return _cache['data']


def _values_close(a, b):
    if isinstance(a, float) or isinstance(b, float):
        if not isinstance(a, (int, float)) or not isinstance(b, (int, float)):
            return False
        if math.isnan(a) and math.isnan(b):
            return True
        return abs(a - b) <= 1e-6 * max(1.0, abs(a), abs(b))
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_values_close(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_values_close(a[k], b[k]) for k in a)
    return a == b


def canonical(dump):
    """Returns the dump with edge names replaced as described in the module docstring."""
    renames = {}
    for node in dump['node']:
        for name in node[2]:
            if _V_NAME.match(name) and name not in renames:
                renames[name] = 'v#{}'.format(len(renames))
    for v in dump['input']:
        if _V_NAME.match(v[0]) and v[0] not in renames:
            renames[v[0]] = 'v#{}'.format(len(renames))
    graph_outputs = {v[0] for v in dump['output']}
    produced = {}
    nodes = []
    for i, node in enumerate(dump['node']):
        op, _, inputs, outputs, domain, attrs = node
        ins = [produced.get(n, renames.get(n, n)) for n in inputs]
        outs = []
        for j, n in enumerate(outputs):
            ref = n if n in graph_outputs else '#{}.{}'.format(i, j)
            produced[n] = ref
            outs.append(ref)
        nodes.append([op, ins, outs, domain, attrs])

    def rename(vs):
        return [[renames.get(v[0], v[0])] + list(v[1:]) for v in vs]
    return {
        'opset_import': dump['opset_import'],
        'producer': dump['producer'],
        'graph_name': dump['graph_name'],
        'input': sorted(rename(dump['input']), key=str),
        'output': rename(dump['output']),
        'initializer': sorted(rename(dump['initializer']), key=str),
        'node': nodes,
    }


def differences(ours, theirs):
    """Lists the differences between two dumps (empty when they match)."""
    a, b = canonical(ours), canonical(theirs)
    out = []
    for key in ('opset_import', 'producer', 'graph_name', 'input', 'output', 'initializer'):
        if a[key] != b[key]:
            out.append('{}: ours {} != {}'.format(key, a[key], b[key]))
    if len(a['node']) != len(b['node']):
        out.append('{} nodes != {}: ours {} != {}'.format(
            len(a['node']), len(b['node']), [n[0] for n in a['node']],
            [n[0] for n in b['node']]))
        return out
    for i, (x, y) in enumerate(zip(a['node'], b['node'])):
        if x[:4] != y[:4] or not _values_close(x[4], y[4]):
            out.append('node {}: ours {} != {}'.format(i, x, y))
    return out


def normalize_message(text):
    """A message reduced to its letters and digits, for comparing wordings."""
    return re.sub(r'[^0-9A-Za-z]+', '', text).lower()
