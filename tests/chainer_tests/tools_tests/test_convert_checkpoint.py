"""chainer.tools.convert_checkpoint: every layer it knows, converted both ways, computes the same
outputs in Chainer and in PyTorch (float32, rtol 1e-5, atol 1e-6); files written by Chainer
7.8.1 convert; unknown and refused layers are clear errors; files never run code."""
import os
import subprocess
import sys

import numpy
import pytest

import chainer
import chainer.links as L
from chainer.serializers import _files
from chainer.serializers import npz

torch = pytest.importorskip('torch', reason='PyTorch is not installed')
nn = torch.nn
from chainer.tools import convert_checkpoint as cc  # NOQA  (after the skip: needs torch)

pytestmark = pytest.mark.torch

TOL = dict(rtol=1e-5, atol=1e-6)
FIXTURES = os.path.join(os.path.dirname(__file__), '..', '..', 'fixtures')
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))


def _t(a):
    a = numpy.asarray(a)
    return torch.from_numpy(a.astype(numpy.int64) if a.dtype.kind in 'iu' else a)


def _np(t):
    return t.detach().numpy()


# ---- how each kind of layer is called on both sides ----------------------------------------
# chainer(link, inputs) and torch(module, inputs) return lists of arrays to compare.

def _call_chainer(link, xs):
    return [link(*xs).array]


def _call_torch(module, xs):
    return [_np(module(*[_t(x) for x in xs]))]


def _bn_chainer(train):
    def run(link, xs):
        with chainer.using_config('train', train):
            y = link(*xs).array
        return [y, link.avg_mean.copy(), link.avg_var.copy()]
    return run


def _bn_torch(train):
    def run(module, xs):
        module.train(train)
        y = _np(module(*[_t(x) for x in xs]))
        return [y, _np(module.running_mean).copy(), _np(module.running_var).copy()]
    return run


def _lstm_chainer(link, xs):
    link.reset_state()
    return [link(x).array for x in xs]


def _lstm_torch(module, xs):
    state, out = None, []
    for x in xs:
        state = module(_t(x), state)
        out.append(_np(state[0]))
    return out


def _stateless_lstm_chainer(link, xs):
    c, h, x = xs
    return [a.array for a in link(c, h, x)]


def _stateless_lstm_torch(module, xs):
    c, h, x = xs
    h1, c1 = module(_t(x), (_t(h), _t(c)))
    return [_np(c1), _np(h1)]


def _nstep_chainer(link, xs):
    hx, cx, seqs = xs
    if isinstance(link, (L.NStepLSTM, L.NStepBiLSTM)):
        hy, cy, ys = link(hx, cx, seqs)
        return [hy.array, cy.array] + [y.array for y in ys]
    hy, ys = link(hx, seqs)
    return [hy.array] + [y.array for y in ys]


def _nstep_torch(module, xs):
    hx, cx, seqs = xs
    packed = nn.utils.rnn.pack_sequence([_t(s) for s in seqs])
    state = (_t(hx), _t(cx)) if isinstance(module, nn.LSTM) else _t(hx)
    out, state = module(packed, state)
    padded, lengths = nn.utils.rnn.pad_packed_sequence(out, batch_first=True)
    ys = [_np(padded[i, :n]) for i, n in enumerate(lengths)]
    states = list(state) if isinstance(module, nn.LSTM) else [state]
    return [_np(s) for s in states] + ys


def _randn(*shape):
    return lambda rng: rng.randn(*shape).astype(numpy.float32)


def _nstep_inputs(layers, in_size, hidden):
    def make(rng):
        seqs = [rng.randn(n, in_size).astype(numpy.float32) for n in (4, 3, 3)]
        hx = rng.randn(layers, 3, hidden).astype(numpy.float32)
        cx = rng.randn(layers, 3, hidden).astype(numpy.float32)
        return [hx, cx, seqs]
    return make


CALL = (_call_chainer, _call_torch)
# id: (Chainer link, PyTorch module, inputs, (chainer run, torch run), torch_module kwargs)
CASES = {
    'Linear': (lambda: L.Linear(3, 4), lambda: nn.Linear(3, 4),
               lambda rng: [_randn(2, 3)(rng)], CALL, {}),
    'Linear_nobias': (lambda: L.Linear(3, 4, nobias=True), lambda: nn.Linear(3, 4, bias=False),
                      lambda rng: [_randn(5, 3)(rng)], CALL, {}),
    'Convolution2D': (lambda: L.Convolution2D(3, 4, 3, stride=2, pad=1),
                      lambda: nn.Conv2d(3, 4, 3, 2, 1),
                      lambda rng: [_randn(2, 3, 7, 6)(rng)], CALL, {}),
    'Convolution2D_groups_dilate': (
        lambda: L.Convolution2D(4, 6, (3, 2), pad=(2, 1), nobias=True, dilate=2, groups=2),
        lambda: nn.Conv2d(4, 6, (3, 2), padding=(2, 1), dilation=2, groups=2, bias=False),
        lambda rng: [_randn(2, 4, 8, 7)(rng)], CALL, {}),
    'DilatedConvolution2D': (lambda: L.DilatedConvolution2D(3, 4, 3, pad=2, dilate=2),
                             lambda: nn.Conv2d(3, 4, 3, padding=2, dilation=2),
                             lambda rng: [_randn(2, 3, 7, 7)(rng)], CALL, {}),
    'Convolution1D': (lambda: L.Convolution1D(3, 4, 3, stride=2, pad=1),
                      lambda: nn.Conv1d(3, 4, 3, 2, 1),
                      lambda rng: [_randn(2, 3, 9)(rng)], CALL, {}),
    'Convolution3D': (lambda: L.Convolution3D(2, 3, 2, pad=1),
                      lambda: nn.Conv3d(2, 3, 2, padding=1),
                      lambda rng: [_randn(2, 2, 4, 3, 5)(rng)], CALL, {}),
    'ConvolutionND': (lambda: L.ConvolutionND(2, 3, 4, 3, stride=2),
                      lambda: nn.Conv2d(3, 4, 3, 2),
                      lambda rng: [_randn(2, 3, 7, 8)(rng)], CALL, {}),
    'Deconvolution2D': (lambda: L.Deconvolution2D(3, 4, 3, stride=2, pad=1),
                        lambda: nn.ConvTranspose2d(3, 4, 3, 2, 1),
                        lambda rng: [_randn(2, 3, 5, 4)(rng)], CALL, {}),
    'Deconvolution2D_groups': (lambda: L.Deconvolution2D(4, 6, 3, stride=2, groups=2),
                               lambda: nn.ConvTranspose2d(4, 6, 3, 2, groups=2),
                               lambda rng: [_randn(2, 4, 3, 3)(rng)], CALL, {}),
    'Deconvolution1D': (lambda: L.Deconvolution1D(3, 4, 3, stride=2),
                        lambda: nn.ConvTranspose1d(3, 4, 3, 2),
                        lambda rng: [_randn(2, 3, 5)(rng)], CALL, {}),
    'DeconvolutionND_3d': (lambda: L.DeconvolutionND(3, 2, 3, 2, stride=2, pad=1),
                           lambda: nn.ConvTranspose3d(2, 3, 2, 2, 1),
                           lambda rng: [_randn(1, 2, 3, 4, 3)(rng)], CALL, {}),
    'EmbedID': (lambda: L.EmbedID(7, 3), lambda: nn.Embedding(7, 3),
                lambda rng: [rng.randint(0, 7, (2, 5)).astype(numpy.int32)], CALL, {}),
    'BatchNormalization': (lambda: L.BatchNormalization(4),
                           lambda: nn.BatchNorm1d(4, eps=2e-5),
                           lambda rng: [_randn(6, 4)(rng)],
                           (_bn_chainer(False), _bn_torch(False)), {'dims': 1}),
    'BatchNormalization_train': (lambda: L.BatchNormalization(3, eps=1e-3, decay=0.8),
                                 lambda: nn.BatchNorm2d(3, eps=1e-3, momentum=0.2),
                                 lambda rng: [_randn(2, 3, 4, 5)(rng)],
                                 (_bn_chainer(True), _bn_torch(True)), {}),
    'LSTM': (lambda: L.LSTM(3, 4), lambda: nn.LSTMCell(3, 4),
             lambda rng: [[_randn(2, 3)(rng) for _ in range(3)]],
             (lambda link, xs: _lstm_chainer(link, xs[0]),
              lambda module, xs: _lstm_torch(module, xs[0])), {}),
    'StatelessLSTM': (lambda: L.StatelessLSTM(3, 4), lambda: nn.LSTMCell(3, 4),
                      lambda rng: [_randn(2, 4)(rng), _randn(2, 4)(rng), _randn(2, 3)(rng)],
                      (_stateless_lstm_chainer, _stateless_lstm_torch), {}),
    'NStepLSTM': (lambda: L.NStepLSTM(2, 3, 4, 0.0), lambda: nn.LSTM(3, 4, 2),
                  _nstep_inputs(2, 3, 4), (_nstep_chainer, _nstep_torch), {}),
    'NStepBiLSTM': (lambda: L.NStepBiLSTM(2, 3, 4, 0.0),
                    lambda: nn.LSTM(3, 4, 2, bidirectional=True),
                    _nstep_inputs(4, 3, 4), (_nstep_chainer, _nstep_torch), {}),
    'NStepGRU': (lambda: L.NStepGRU(2, 3, 4, 0.0), lambda: nn.GRU(3, 4, 2),
                 _nstep_inputs(2, 3, 4), (_nstep_chainer, _nstep_torch), {}),
    'NStepBiGRU': (lambda: L.NStepBiGRU(1, 3, 4, 0.0),
                   lambda: nn.GRU(3, 4, 1, bidirectional=True),
                   _nstep_inputs(2, 3, 4), (_nstep_chainer, _nstep_torch), {}),
    'NStepRNNTanh': (lambda: L.NStepRNNTanh(2, 3, 4, 0.0), lambda: nn.RNN(3, 4, 2),
                     _nstep_inputs(2, 3, 4), (_nstep_chainer, _nstep_torch), {}),
    'NStepBiRNNReLU': (lambda: L.NStepBiRNNReLU(1, 3, 4, 0.0),
                       lambda: nn.RNN(3, 4, 1, nonlinearity='relu', bidirectional=True),
                       _nstep_inputs(2, 3, 4), (_nstep_chainer, _nstep_torch), {}),
}


def _random_chainer(make, seed=0):
    rng = numpy.random.RandomState(seed)
    link = make()
    for p in link.params():
        p.array[...] = rng.uniform(-1, 1, p.shape)
    if isinstance(link, L.BatchNormalization):
        link.avg_mean[...] = rng.randn(*link.avg_mean.shape)
        link.avg_var[...] = rng.uniform(0.5, 2, link.avg_var.shape)
    return link


def _random_torch(make, seed=0):
    torch.manual_seed(seed)
    module = make()
    with torch.no_grad():
        for p in module.parameters():
            p.uniform_(-1, 1)
        for name, b in module.named_buffers():
            if name == 'running_mean':
                b.normal_()
            elif name == 'running_var':
                b.uniform_(0.5, 2)
    return module


def _assert_same(got, expected):
    assert len(got) == len(expected)
    for i, (a, b) in enumerate(zip(got, expected)):
        numpy.testing.assert_allclose(a, b, err_msg=f'output #{i}', **TOL)


def _load_torch(module, state):
    module.load_state_dict({k: torch.from_numpy(v) for k, v in state.items()})   # strict


@pytest.mark.parametrize('mode', ['model', 'file'])
@pytest.mark.parametrize('case', sorted(CASES))
def test_chainer_to_torch_computes_the_same(case, mode):
    make_link, make_module, make_inputs, (run_c, run_t), _ = CASES[case]
    link = _random_chainer(make_link)
    source = link if mode == 'model' else npz.serialize(link)
    state = cc.chainer_to_torch(source)
    module = make_module()
    _load_torch(module, state)
    inputs = make_inputs(numpy.random.RandomState(1))
    _assert_same(run_t(module, inputs), run_c(link, inputs))


@pytest.mark.parametrize('mode', ['model', 'file'])
@pytest.mark.parametrize('case', sorted(CASES))
def test_torch_to_chainer_computes_the_same(case, mode):
    make_link, make_module, make_inputs, (run_c, run_t), _ = CASES[case]
    module = _random_torch(make_module)
    link = make_link()
    arrays = cc.torch_to_chainer(module.state_dict(), model=link if mode == 'model' else None)
    npz.NpzDeserializer(arrays).load(link)      # strict: every entry of the link is there
    inputs = make_inputs(numpy.random.RandomState(1))
    _assert_same(run_c(link, inputs), run_t(module, inputs))


@pytest.mark.parametrize('case', sorted(CASES))
def test_torch_module_of_a_link_computes_the_same(case):
    make_link, _, make_inputs, (run_c, run_t), kwargs = CASES[case]
    link = _random_chainer(make_link)
    module = cc.torch_module(link, **kwargs)
    inputs = make_inputs(numpy.random.RandomState(1))
    _assert_same(run_t(module, inputs), run_c(link, inputs))


@pytest.mark.parametrize('case', sorted(CASES))
def test_round_trip_gives_the_same_arrays(case):
    link = _random_chainer(CASES[case][0])
    saved = npz.serialize(link)
    back = cc.torch_to_chainer(cc.chainer_to_torch(saved), model=link)
    assert sorted(back) == sorted(saved)
    for key, value in saved.items():
        numpy.testing.assert_array_equal(back[key], value, err_msg=key)
        assert back[key].dtype == value.dtype and back[key].shape == value.shape, key


def test_lstm_gate_layout():
    # Chainer's L.LSTM rows are (unit, gate) with gates a, i, f, o; PyTorch's are (gate,
    # unit) with gates i, f, g, o. Row 4u + k of upward/W goes to row
    # [i, f, g, o].index(k's gate) * units + u.
    link = L.LSTM(2, 3)
    units = 3
    link.upward.W.array[...] = numpy.arange(4 * units)[:, None]
    state = cc.chainer_to_torch(link)
    gate_rows = state['weight_ih'][:, 0].reshape(4, units)
    chainer_gate = {'a': 0, 'i': 1, 'f': 2, 'o': 3}
    for block, gate in enumerate('ifao'):
        numpy.testing.assert_array_equal(
            gate_rows[block], [4 * u + chainer_gate[gate] for u in range(units)])


def test_lstm_biases_are_added_coming_back():
    cell = _random_torch(lambda: nn.LSTMCell(3, 4))
    arrays = cc.torch_to_chainer(cell.state_dict())
    state = cc.chainer_to_torch(arrays)
    numpy.testing.assert_allclose(state['bias_ih'], _np(cell.bias_ih + cell.bias_hh), rtol=1e-6)
    numpy.testing.assert_array_equal(state['bias_hh'], 0)


def test_batch_normalization_without_gamma_or_beta():
    link = _random_chainer(lambda: L.BatchNormalization(4, use_gamma=False))
    state = cc.chainer_to_torch(link)
    numpy.testing.assert_array_equal(state['weight'], 1)    # the identity scale
    module = nn.BatchNorm1d(4, eps=2e-5)
    _load_torch(module, state)
    x = _randn(5, 4)(numpy.random.RandomState(0))
    _assert_same(_bn_torch(False)(module, [x]), _bn_chainer(False)(link, [x]))
    back = cc.torch_to_chainer(module.state_dict(), model=link)
    assert 'gamma' not in back
    with torch.no_grad():
        module.weight.fill_(2)
    with pytest.raises(ValueError, match='no gamma'):
        cc.torch_to_chainer(module.state_dict(), model=link)
    with pytest.raises(ValueError, match='only one of gamma and beta'):
        cc.torch_module(link)


# ---- files written by Chainer 7.8.1 -----------------------------------------------------------


def _fixture(name):
    return _files.read_npz(os.path.join(FIXTURES, 'rnn_links', name))


def test_lstm_written_by_chainer_781_converts():
    # tests/fixtures/rnn_links/LSTM.*: L.LSTM(3, 4) of Chainer 7.8.1, its parameters and its
    # outputs over three steps (the last with a smaller batch, which keeps the first rows).
    params, io = _fixture('LSTM.params.npz'), _fixture('LSTM.io.npz')
    cell = nn.LSTMCell(3, 4)
    _load_torch(cell, cc.chainer_to_torch(params))
    state = None
    for i in range(3):
        x = _t(io[f'in_x{i}'])
        if state is not None:
            state = tuple(s[:len(x)] for s in state)
        state = cell(x, state)
        numpy.testing.assert_allclose(_np(state[0]), io[f'out_y{i}'], **TOL)


NSTEP_FIXTURES = {
    'NStepLSTM': lambda: nn.LSTM(3, 4, 2),
    'NStepBiLSTM': lambda: nn.LSTM(3, 4, 2, bidirectional=True),
    'NStepGRU': lambda: nn.GRU(3, 4, 2),
    'NStepBiGRU': lambda: nn.GRU(3, 4, 2, bidirectional=True),
    'NStepRNNTanh': lambda: nn.RNN(3, 4, 2),
    'NStepRNNReLU': lambda: nn.RNN(3, 4, 2, nonlinearity='relu'),
    'NStepBiRNNTanh': lambda: nn.RNN(3, 4, 2, bidirectional=True),
}


@pytest.mark.parametrize('name', sorted(NSTEP_FIXTURES))
def test_nstep_written_by_chainer_781_converts(name):
    params, io = _fixture(f'{name}.params.npz'), _fixture(f'{name}.io.npz')
    module = NSTEP_FIXTURES[name]()
    _load_torch(module, cc.chainer_to_torch(params))
    seqs = [io[f'in_x{i}'] for i in range(3)]
    got = _nstep_torch(module, [io['in_hx'], io.get('in_cx'), seqs])
    expected = [io['out_hy']] + ([io['out_cy']] if 'out_cy' in io else [])
    expected += [io[f'out_y{i}'] for i in range(3)]
    _assert_same(got, expected)


class _Net(nn.Module):
    # tests/fixtures/make_serializer_files.py's Net, in PyTorch.
    def __init__(self):
        super().__init__()
        self.enc = nn.Module()
        self.enc.l = nn.Linear(3, 4)
        self.bn = nn.BatchNorm1d(4, eps=2e-5)
        self.stack = nn.ModuleList([nn.Linear(4, 4), nn.Linear(4, 2)])
        self.head = nn.Linear(2, 2, bias=False)

    def forward(self, x):
        h = self.bn(torch.relu(self.enc.l(x)))
        h = torch.tanh(self.stack[0](h))
        return self.head(self.stack[1](h))


def test_model_written_by_chainer_781_converts_with_its_statistics():
    path = os.path.join(FIXTURES, 'chainer781_files', 'model.npz')
    io = _files.read_npz(os.path.join(FIXTURES, 'chainer781_files', 'io.npz'))
    with pytest.raises(cc.UnknownLayerError, match=r'layer at the root \(entries: calls\)'):
        cc.chainer_to_torch(_files.read_npz(path))
    with pytest.raises(ValueError, match="'unused/W' is not initialized"):
        cc.chainer_to_torch(_files.read_npz(path), skip=['calls'])
    state = cc.chainer_to_torch(_files.read_npz(path), skip=['calls', 'unused'])
    net = _Net()
    _load_torch(net, state)
    net.eval()
    numpy.testing.assert_allclose(_np(net(_t(io['x']))), io['y'], **TOL)


def test_trainer_snapshot_needs_the_model_prefix():
    path = os.path.join(FIXTURES, 'chainer781_files', 'snapshot_iter_4')
    with pytest.raises(cc.UnknownLayerError):
        cc.chainer_to_torch(_files.read_npz(path))
    with pytest.raises(ValueError, match='no entry starts with the prefix'):
        cc.chainer_to_torch(_files.read_npz(path), prefix='model')
    state = cc.chainer_to_torch(_files.read_npz(path), prefix='updater/model:main/predictor/',
                                skip=['calls', 'unused'])
    _load_torch(_Net(), state)


def test_extra_entries_name_the_snapshot_prefix():
    entries = {'updater/model:main/l/W': numpy.ones((2, 2), numpy.float32)}
    with pytest.raises(ValueError, match='updater/model:main/'):
        cc.chainer_to_torch(entries, model=chainer.Sequential(L.Linear(2, 2)))


# ---- refused and unknown layers -----------------------------------------------------------


@pytest.mark.parametrize('name', ['StatefulGRU', 'StatelessGRU'])
def test_gru_written_by_chainer_781_is_refused_with_the_reason(name):
    with pytest.raises(cc.UnknownLayerError, match=r'reset gate.*NStepGRU'):
        cc.chainer_to_torch(_fixture(f'{name}.params.npz'))


@pytest.mark.parametrize('make', [lambda: L.GRU(3, 4), lambda: L.StatelessGRU(3, 4)])
def test_gru_link_is_refused_with_the_reason(make):
    model = chainer.Sequential(L.Linear(2, 3), make())
    with pytest.raises(cc.UnknownLayerError, match=r"GRU at '1'.*reset gate"):
        cc.chainer_to_torch(model)
    with pytest.raises(cc.UnknownLayerError, match='reset gate'):
        cc.torch_module(model[1])


def test_unknown_link_is_named():
    model = chainer.Sequential(L.Linear(3, 3), L.PReLU((3,)))
    with pytest.raises(cc.UnknownLayerError,
                       match=r"chainer\.links\.activation\.prelu\.PReLU at '1'"):
        cc.chainer_to_torch(model)
    with pytest.raises(cc.UnknownLayerError, match=r"layer at '1' \(entries: W\)"):
        cc.chainer_to_torch(npz.serialize(model))


def test_unknown_torch_module_is_named():
    module = nn.Sequential(nn.Linear(3, 3), nn.LayerNorm(3))
    with pytest.raises(cc.UnknownLayerError, match=r"module at '1' \(entries: bias, weight\)"):
        cc.torch_to_chainer(module.state_dict())


def test_uninitialized_parameter_is_an_error():
    with pytest.raises(ValueError, match="'W' is not initialized"):
        cc.chainer_to_torch(L.Linear(None, 3))


def test_ambiguous_nstep_direction_asks():
    model = chainer.Sequential(L.NStepLSTM(2, 4, 4, 0.0))
    saved = npz.serialize(model)
    with pytest.raises(ValueError, match='--bidirectional 0 or --unidirectional 0'):
        cc.chainer_to_torch(saved)
    assert 'weight_ih_l1' in '\n'.join(cc.chainer_to_torch(saved, unidirectional=['0']))
    assert '0.weight_ih_l0_reverse' in cc.chainer_to_torch(saved, bidirectional=['0'])
    assert '0.weight_ih_l1' in cc.chainer_to_torch(model)       # the model says


@pytest.mark.parametrize('link, message', [
    (lambda: L.EmbedID(4, 3, ignore_label=-1), 'ignore_label=-1'),
    (lambda: L.Convolution3D(2, 3, 2, cover_all=True), 'cover_all=True'),
    (lambda: L.Deconvolution2D(2, 3, 2, outsize=(5, 5)), 'outsize'),
    (lambda: L.BatchNormalization(3, axis=(0, 2)), 'axis'),
])
def test_torch_module_refuses_what_torch_cannot_compute(link, message):
    with pytest.raises(ValueError, match=message):
        cc.torch_module(link())


# ---- files and the command line ---------------------------------------------------------------


def test_command_line_round_trip(tmp_path, capsys):
    model = _random_chainer(lambda: chainer.Sequential(
        L.Convolution2D(1, 2, 3), L.BatchNormalization(2)))
    src = str(tmp_path / 'model.npz')
    chainer.serializers.save_npz(src, model)
    pt = str(tmp_path / 'model.pt')
    assert cc.main([src, pt]) == 0
    out = capsys.readouterr().out
    assert 'PyTorch state_dict' in out and 'eps=2e-5' in out
    assert cc.file_format(pt) == 'torch'
    assert sorted(torch.load(pt, weights_only=True)) == [
        '0.bias', '0.weight', '1.bias', '1.num_batches_tracked', '1.running_mean',
        '1.running_var', '1.weight']
    back = str(tmp_path / 'back')          # no suffix: formats go by contents
    assert cc.main([pt, back]) == 0
    assert cc.file_format(back) == 'npz'
    other = chainer.Sequential(L.Convolution2D(1, 2, 3), L.BatchNormalization(2))
    chainer.serializers.load_npz(back, other)
    for (name, a), (_, b) in zip(model.namedparams(), other.namedparams()):
        numpy.testing.assert_array_equal(a.array, b.array, err_msg=name)
    numpy.testing.assert_array_equal(model[1].avg_var, other[1].avg_var)


def test_command_line_errors_are_one_line(tmp_path, capsys):
    assert cc.main([str(tmp_path / 'missing.npz'), str(tmp_path / 'x.pt')]) == 1
    assert 'no such file' in capsys.readouterr().err


def test_module_runs_as_a_script(tmp_path):
    src = str(tmp_path / 'm.npz')
    chainer.serializers.save_npz(src, L.Linear(2, 3))
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, 'src'))
    out = subprocess.run([sys.executable, '-m', 'chainer.tools.convert_checkpoint', src,
                          str(tmp_path / 'm.pt')], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    assert sorted(torch.load(str(tmp_path / 'm.pt'), weights_only=True)) == ['bias', 'weight']


class _Evil:
    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (open, (self.marker, 'w'))


def test_pytorch_file_never_runs_code(tmp_path):
    marker = str(tmp_path / 'ran')
    path = str(tmp_path / 'evil.pt')
    torch.save({'weight': torch.ones(2, 2), 'x': _Evil(marker)}, path)
    with pytest.raises(ValueError, match='never pickled code'):
        cc.read_torch(path)
    assert not os.path.exists(marker)
    assert cc.main([path, str(tmp_path / 'out.npz')]) == 1
    assert not os.path.exists(marker) and not os.path.exists(str(tmp_path / 'out.npz'))


def test_checkpoint_of_several_things_needs_the_key(tmp_path):
    path = str(tmp_path / 'ckpt.pt')
    module = nn.Linear(2, 3)
    torch.save({'model': module.state_dict(), 'epoch': 3}, path)
    with pytest.raises(ValueError, match='pass --key with one of model'):
        cc.read_torch(path)
    arrays = cc.torch_to_chainer(cc.read_torch(path, key='model'))
    numpy.testing.assert_array_equal(arrays['W'], _np(module.weight))


def test_npz_file_is_read_without_pickles(tmp_path):
    path = str(tmp_path / 'bad.npz')
    numpy.savez(path, W=numpy.array([_Evil(str(tmp_path / 'ran'))], dtype=object))
    with pytest.raises(ValueError, match='pickled'):
        cc.convert(path, str(tmp_path / 'out.pt'))
    assert not os.path.exists(str(tmp_path / 'ran'))
