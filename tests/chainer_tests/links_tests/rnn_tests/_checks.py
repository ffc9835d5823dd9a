"""Checks that several rnn link test files run on their own links: lazy input sizes,
state setting, copies and serialization. Each file parametrizes its test functions with
its links and calls these."""
import numpy
import pytest

import chainer
import chainer.links as L
from chainer_tests.links_tests import _cases

IN, OUT, B = _cases.IN, _cases.OUT, _cases.B

# The child link whose weight waits for the first input, by link class.
_FIRST_LINEAR = {'LSTM': 'upward', 'StatelessLSTM': 'upward', 'StatefulPeepholeLSTM': 'upward',
                 'StatefulGRU': 'W', 'StatelessGRU': 'W'}


def rand(*shape):
    return numpy.random.uniform(-1, 1, shape).astype(numpy.float32)


def check_lazy_in_size(cls):
    """``cls(None, OUT)`` sizes its input weight at the first call."""
    link = cls(None, OUT)
    first = getattr(link, _FIRST_LINEAR[cls.__name__])
    assert first.W.array is None
    x = rand(B, 5)
    if cls is L.StatelessLSTM:
        link(None, None, x)
    elif cls is L.StatelessGRU:
        link(rand(B, OUT), x)
    else:
        link(x)
    assert first.W.shape[1] == 5


def check_set_and_reset_state(cls, states):
    """``set_state`` stores the Variables named by ``states``, ``reset_state`` drops them
    and arrays (not Variables) are refused with the link's name."""
    link = cls(IN, OUT)
    values = [chainer.Variable(rand(B, OUT)) for _ in states]
    link.set_state(*values)
    for s, v in zip(states, values):
        assert getattr(link, s) is v
    link.reset_state()
    assert all(getattr(link, s) is None for s in states)
    with pytest.raises(TypeError, match=cls.__name__):
        link.set_state(*[rand(B, OUT) for _ in states])


def check_copy_keeps_names(name):
    """A copy of the case ``name`` has new parameters with the same paths and values; an
    n-step link's ``ws``/``bs`` lists point at the copy's own parameters."""
    link = _cases.CASES[name].build()
    dup = link.copy('copy')
    assert [n for n, _ in dup.namedparams()] == [n for n, _ in link.namedparams()]
    for (_, p), (_, q) in zip(link.namedparams(), dup.namedparams()):
        assert p is not q
        numpy.testing.assert_array_equal(p.array, q.array)
    if hasattr(link, 'ws'):
        last = getattr(dup[-1], 'b%d' % (link.n_weights - 1))
        assert dup.ws[0][0] is dup[0].w0 and dup.bs[-1][-1] is last


def check_serialization_round_trip(name, tmp_path):
    """Parameters saved with ``save_npz`` load into a fresh link of the case ``name``."""
    make = _cases.CASES[name].build
    src, dst = make(), make()
    path = str(tmp_path / 'link.npz')
    chainer.serializers.save_npz(path, src)
    chainer.serializers.load_npz(path, dst)
    for (n, p), (m, q) in zip(src.namedparams(), dst.namedparams()):
        assert n == m
        numpy.testing.assert_array_equal(p.array, q.array)
