"""The rnn links against Chainer 7.8.1: parameters written by the reference
(tests/fixtures/make_rnn_links.py) load into our links under the same names
and shapes, and the same inputs give the same outputs. Each rnn link module's test file
runs these checks on its cases."""
import json
import os

import numpy
import chainer
import chainer.links as L

HERE = os.path.join(os.path.dirname(__file__), '..', '..', '..', 'fixtures', 'rnn_links')
IN, OUT = 3, 4


def _stateful(link, io):
    return {f'y{i}': link(io[f'in_x{i}']).array for i in range(3)}


def _stateless_pair(link, io):
    return {'y': link(io['in_h'], io['in_x']).array}


def _stateless_lstm(link, io):
    c1, h1 = link(io['in_c'], io['in_h'], io['in_x'])
    c2, h2 = link(None, None, io['in_x'])
    return {'c1': c1.array, 'h1': h1.array, 'c2': c2.array, 'h2': h2.array}


def _tree(n):
    def run(link, io):
        args = [io[f'in_c{i}'] for i in range(n)] + [io[f'in_h{i}'] for i in range(n)]
        c, h = link(*(args + [io['in_x']]))
        return {'c': c.array, 'h': h.array}
    return run


def _nstep(link, io):
    xs = [io[f'in_x{i}'] for i in range(3)]
    is_lstm = isinstance(link, L.NStepLSTM) or isinstance(link, L.NStepBiLSTM)
    states = [io.get('in_hx')] + ([io.get('in_cx')] if is_lstm else [])
    with chainer.using_config('train', False):
        res = link(*states, xs)
    out = {'hy': res[0].array}
    if is_lstm:
        out['cy'] = res[1].array
    out.update({f'y{i}': y.array for i, y in enumerate(res[-1])})
    return out


def _test_mode(run):
    def wrapped(link, io):
        with chainer.using_config('train', False):
            return run(link, io)
    return wrapped


CASES = {
    'StatefulGRU': (lambda: L.StatefulGRU(IN, OUT), _stateful),
    'StatelessGRU': (lambda: L.StatelessGRU(IN, OUT), _stateless_pair),
    'StatefulMGU': (lambda: L.StatefulMGU(IN, OUT), _stateful),
    'StatelessMGU': (lambda: L.StatelessMGU(IN, OUT), _stateless_pair),
    'LSTM': (lambda: L.LSTM(IN, OUT), _stateful),
    'LSTM_init': (lambda: L.LSTM(IN, OUT), _stateful),
    'StatelessLSTM': (lambda: L.StatelessLSTM(IN, OUT), _stateless_lstm),
    'StatefulPeepholeLSTM': (lambda: L.StatefulPeepholeLSTM(IN, OUT), _stateful),
    'StatefulZoneoutLSTM': (lambda: L.StatefulZoneoutLSTM(IN, OUT, 0.3, 0.6),
                            _test_mode(_stateful)),
    'ChildSumTreeLSTM': (lambda: L.ChildSumTreeLSTM(IN, OUT), _tree(3)),
    'ChildSumTreeLSTM_leaf': (lambda: L.ChildSumTreeLSTM(IN, OUT), _tree(0)),
    'NaryTreeLSTM': (lambda: L.NaryTreeLSTM(IN, OUT, 3), _tree(3)),
}
for _name in ('NStepLSTM', 'NStepBiLSTM', 'NStepGRU', 'NStepBiGRU', 'NStepRNNTanh',
              'NStepRNNReLU', 'NStepBiRNNTanh', 'NStepBiRNNReLU'):
    CASES[_name] = (lambda c=_name: getattr(L, c)(2, IN, OUT, 0.0), _nstep)
    CASES[_name + '_nohx'] = (lambda c=_name: getattr(L, c)(1, IN, OUT, 0.0), _nstep)


def _load(name):
    link = CASES[name][0]()
    chainer.serializers.load_npz(os.path.join(HERE, name + '.params.npz'), link)
    with numpy.load(os.path.join(HERE, name + '.io.npz')) as f:
        io = dict(f)
    return link, io


def check_parameter_names_and_shapes(name):
    with open(os.path.join(HERE, 'params.json')) as f:
        expected = json.load(f)[name]
    link = CASES[name][0]()
    assert [[n, list(p.shape)] for n, p in link.namedparams()] == expected


def check_outputs(name):
    link, io = _load(name)
    outs = CASES[name][1](link, io)
    expected = {k[4:]: v for k, v in io.items() if k.startswith('out_')}
    assert sorted(outs) == sorted(expected)
    for k in expected:
        numpy.testing.assert_allclose(outs[k], expected[k], rtol=1e-5, atol=1e-6, err_msg=k)


def check_fixture_covers_every_case():
    with open(os.path.join(HERE, 'params.json')) as f:
        assert sorted(json.load(f)) == sorted(CASES)
