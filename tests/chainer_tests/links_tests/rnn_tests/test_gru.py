"""L.StatelessGRU, L.StatefulGRU and L.GRU: the case table, Chainer's outputs, lazy sizes, states,
copies, arguments."""
import numpy
import pytest

import chainer
import chainer.links as L
from chainer_tests.links_tests import _cases
from chainer_tests.links_tests.rnn_tests import _reference

IN, OUT, B = _cases.IN, _cases.OUT, _cases.B


def _rand(*shape):
    return numpy.random.uniform(-1, 1, shape).astype(numpy.float32)


@_cases.cases('StatelessGRU', 'StatefulGRU', 'StatefulGRU_first')
class TestGRU(_cases.LinkTest):
    # The outputs are checked against Chainer 7.8.1 below (test_outputs_equal_chainer).
    pass


@pytest.mark.parametrize('name', ['StatefulGRU', 'StatelessGRU'])
def test_parameter_names_and_shapes_equal_chainer(name):
    _reference.check_parameter_names_and_shapes(name)


@pytest.mark.parametrize('name', ['StatefulGRU', 'StatelessGRU'])
def test_outputs_equal_chainer(name):
    _reference.check_outputs(name)


@pytest.mark.parametrize('cls', [L.StatefulGRU, L.StatelessGRU])
def test_lazy_in_size(cls):
    link = cls(None, OUT)
    first = {'LSTM': 'upward', 'StatelessLSTM': 'upward', 'StatefulPeepholeLSTM': 'upward',
             'StatefulGRU': 'W', 'StatelessGRU': 'W'}[cls.__name__]
    assert getattr(link, first).W.array is None
    x = _rand(B, 5)
    if cls is L.StatelessLSTM:
        link(None, None, x)
    elif cls is L.StatelessGRU:
        link(_rand(B, OUT), x)
    else:
        link(x)
    assert getattr(link, first).W.shape[1] == 5


@pytest.mark.parametrize('cls,states', [(L.StatefulGRU, 'h')])
def test_set_and_reset_state(cls, states):
    link = cls(IN, OUT)
    values = [chainer.Variable(_rand(B, OUT)) for _ in states]
    link.set_state(*values)
    for s, v in zip(states, values):
        assert getattr(link, s) is v
    link.reset_state()
    assert all(getattr(link, s) is None for s in states)
    with pytest.raises(TypeError, match=cls.__name__):
        link.set_state(*[_rand(B, OUT) for _ in states])


@pytest.mark.parametrize('name', ['StatefulGRU'])
def test_copy_keeps_names_and_nstep_lists(name):
    link = _cases.CASES[name].build()
    dup = link.copy('copy')
    assert [n for n, _ in dup.namedparams()] == [n for n, _ in link.namedparams()]
    for (_, p), (_, q) in zip(link.namedparams(), dup.namedparams()):
        assert p is not q
        numpy.testing.assert_array_equal(p.array, q.array)
    if hasattr(link, 'ws'):
        assert dup.ws[0][0] is dup[0].w0 and dup.bs[-1][-1] is getattr(dup[-1], 'b%d' % (
            link.n_weights - 1))


@pytest.mark.parametrize('name', ['StatelessGRU'])
def test_serialization_round_trip(name, tmp_path):
    make = _cases.CASES[name].build
    src, dst = make(), make()
    path = str(tmp_path / 'link.npz')
    chainer.serializers.save_npz(path, src)
    chainer.serializers.load_npz(path, dst)
    for (n, p), (m, q) in zip(src.namedparams(), dst.namedparams()):
        assert n == m
        numpy.testing.assert_array_equal(p.array, q.array)


def test_gru_takes_exactly_one_argument():
    gru = L.GRU(IN, OUT)
    with pytest.raises(ValueError, match='StatelessGRU'):
        gru(_rand(B, OUT), _rand(B, IN))
    with pytest.raises(ValueError):
        gru()
    assert gru(_rand(B, IN)).shape == (B, OUT)


def test_module_path():
    for name in ('GRU', 'StatelessGRU', 'StatefulGRU'):
        assert getattr(L, name).__module__ == 'chainer.links.rnn.gru'
