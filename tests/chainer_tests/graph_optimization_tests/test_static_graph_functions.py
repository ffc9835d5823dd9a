"""Functions under a static graph: each replay equals define-by-run, bitwise.

Each row is a chain whose ``forward`` applies one function (or a few); the static and the
plain version run three calls on new inputs, forward and backward, and must agree exactly.
The functions whose backward computes arrays outside function nodes fall back to
define-by-run with a warning: still equal, but not replayed.
"""
import warnings

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.graph_optimizations.static_graph import static_graph


def sym(rs, *shape):
    return (rs.rand(*shape) * 2 - 1).astype(numpy.float32)


def pos(rs, *shape):
    return (rs.rand(*shape) + 0.5).astype(numpy.float32)


def labels(rs, n, k):
    return rs.randint(0, k, n).astype(numpy.int32)


CASES = {
    'relu': (F.relu, lambda rs: [sym(rs, 3, 4)]),
    'leaky_relu': (F.leaky_relu, lambda rs: [sym(rs, 3, 4)]),
    'elu': (F.elu, lambda rs: [sym(rs, 3, 4)]),
    'clipped_relu': (lambda x: F.clipped_relu(x, 0.5), lambda rs: [sym(rs, 3, 4)]),
    'hard_sigmoid': (lambda x: F.hard_sigmoid(x * 3), lambda rs: [sym(rs, 3, 4)]),
    'crelu': (F.crelu, lambda rs: [sym(rs, 3, 4)]),
    'maxout': (lambda x: F.maxout(x, 2), lambda rs: [sym(rs, 3, 4)]),
    'prelu': (F.prelu, lambda rs: [sym(rs, 3, 4), sym(rs, 4)]),
    'sigmoid_tanh_softplus': (lambda x: F.sigmoid(x) + F.tanh(x) + F.softplus(x),
                              lambda rs: [sym(rs, 3, 4)]),
    'softmax': (F.softmax, lambda rs: [sym(rs, 3, 4)]),
    'log_softmax': (F.log_softmax, lambda rs: [sym(rs, 3, 4)]),
    'maximum_minimum': (lambda x, y: F.maximum(x, y) * F.minimum(x, y),
                        lambda rs: [sym(rs, 3, 4), sym(rs, 3, 4)]),
    'max_min': (lambda x: F.max(x, axis=1) + F.min(x, axis=1), lambda rs: [sym(rs, 3, 4)]),
    'arithmetic': (lambda x, y: (abs(x) ** 3 + 2 ** x) / y - x * y,
                   lambda rs: [sym(rs, 3, 4), pos(rs, 3, 4)]),
    'exp_log_sqrt': (lambda x: F.log(F.exp(x) + 1) + F.sqrt(x) + F.rsqrt(x),
                     lambda rs: [pos(rs, 3, 4)]),
    'clip': (lambda x: F.clip(x, -0.5, 0.5), lambda rs: [sym(rs, 3, 4)]),
    'fmod': (F.fmod, lambda rs: [sym(rs, 3, 4) * 3, pos(rs, 3, 4)]),
    'prod_cumsum': (lambda x: F.prod(x, axis=1) + F.sum(F.cumsum(x, axis=1), axis=1),
                    lambda rs: [sym(rs, 3, 4)]),
    'matmul': (F.matmul, lambda rs: [sym(rs, 2, 3, 4), sym(rs, 2, 4, 2)]),
    'linear': (F.linear, lambda rs: [sym(rs, 3, 4), sym(rs, 2, 4), sym(rs, 2)]),
    'reductions': (lambda x: F.sum(x, axis=1) * F.mean(x, axis=1) + F.logsumexp(x, axis=1),
                   lambda rs: [sym(rs, 3, 4)]),
    'where': (lambda x, y: F.where(numpy.arange(12).reshape(3, 4) % 3 == 0, x, y),
              lambda rs: [sym(rs, 3, 4), sym(rs, 3, 4)]),
    'reshape_transpose': (lambda x: F.transpose(F.reshape(x, (4, 3))), lambda rs: [sym(rs, 3, 4)]),
    'concat_split': (lambda x, y: F.split_axis(F.concat((x, y), axis=1), [3], axis=1)[1],
                     lambda rs: [sym(rs, 3, 4), sym(rs, 3, 4)]),
    'separate_stack': (lambda x: F.stack(F.separate(x, axis=0)[:2]), lambda rs: [sym(rs, 3, 4)]),
    'getitem_broadcast': (lambda x, y: x[1:, ::2] + F.broadcast_to(y, (2, 2)),
                          lambda rs: [sym(rs, 3, 4), sym(rs, 2)]),
    'pad_tile_flip': (lambda x: F.pad(x, 1, 'constant') + F.flip(F.tile(x, (1, 1)), 1)[0, 0],
                      lambda rs: [sym(rs, 3, 4)]),
    'cast': (lambda x: F.cast(x, numpy.float64), lambda rs: [sym(rs, 3, 4)]),
    'select_item': (F.select_item, lambda rs: [sym(rs, 3, 4), labels(rs, 3, 4)]),
    'embed_id': (F.embed_id, lambda rs: [labels(rs, 3, 5), sym(rs, 5, 2)]),
    'convolution_2d': (lambda x, W: F.convolution_2d(x, W, pad=1),
                       lambda rs: [sym(rs, 2, 3, 5, 5), sym(rs, 4, 3, 3, 3)]),
    'deconvolution_2d': (F.deconvolution_2d,
                         lambda rs: [sym(rs, 2, 3, 4, 4), sym(rs, 3, 2, 3, 3)]),
    'pooling': (lambda x: F.max_pooling_2d(x, 2) + F.average_pooling_2d(x, 2),
                lambda rs: [sym(rs, 2, 3, 4, 4)]),
    'batch_normalization': (F.batch_normalization,
                            lambda rs: [sym(rs, 5, 4), pos(rs, 4), sym(rs, 4)]),
    'layer_normalization': (F.layer_normalization,
                            lambda rs: [sym(rs, 5, 4), pos(rs, 4), sym(rs, 4)]),
    'group_normalization': (lambda x, g, b: F.group_normalization(x, 2, g, b),
                            lambda rs: [sym(rs, 5, 4, 3), pos(rs, 4), sym(rs, 4)]),
    'normalize': (F.normalize, lambda rs: [sym(rs, 3, 4)]),
    'local_response_normalization': (F.local_response_normalization,
                                     lambda rs: [pos(rs, 2, 4, 3, 3)]),
    'dropout': (lambda x: F.dropout(x, 0.5), lambda rs: [sym(rs, 3, 4)]),
    'gaussian': (F.gaussian, lambda rs: [sym(rs, 3, 4), sym(rs, 3, 4)]),
    'lstm': (lambda c, x: sum(F.lstm(c, x)), lambda rs: [sym(rs, 3, 4), sym(rs, 3, 16)]),
    'softmax_cross_entropy': (F.softmax_cross_entropy,
                              lambda rs: [sym(rs, 3, 4), labels(rs, 3, 4)]),
    'sigmoid_cross_entropy': (F.sigmoid_cross_entropy,
                              lambda rs: [sym(rs, 3, 4), rs.randint(0, 2, (3, 4)).astype(
                                  numpy.int32)]),
    'regression_losses': (lambda x, y: F.mean_squared_error(x, y) + F.mean_absolute_error(x, y)
                          + F.huber_loss(x, y, 0.5, reduce='no')[0, 0],
                          lambda rs: [sym(rs, 3, 4), sym(rs, 3, 4)]),
    'hinge': (F.hinge, lambda rs: [sym(rs, 3, 4), labels(rs, 3, 4)]),
    'gaussian_kl_divergence': (F.gaussian_kl_divergence, lambda rs: [sym(rs, 3, 4),
                                                                     sym(rs, 3, 4)]),
    'erf': (lambda x: F.erf(x) + F.erfc(x), lambda rs: [sym(rs, 3, 4)]),
    'inv_det': (lambda x: F.sum(F.inv(x)) + F.det(x),
                lambda rs: [(numpy.eye(3) * 2 + rs.rand(3, 3) * 0.1).astype(numpy.float32)]),
    # Their backward computes arrays in Python: define-by-run, with a warning.
    'contrastive': (F.contrastive, lambda rs: [sym(rs, 3, 4), sym(rs, 3, 4), labels(rs, 3, 2)]),
    'triplet': (F.triplet, lambda rs: [sym(rs, 3, 4), sym(rs, 3, 4), sym(rs, 3, 4)]),
}
FALLS_BACK = {'contrastive', 'triplet'}


def chain(fn, static):
    class C(chainer.Chain):
        def forward(self, *xs):
            return fn(*xs)
    if static:
        C.forward = static_graph(C.forward)
    return C()


@pytest.mark.parametrize('name', sorted(CASES))
def test_replay_equals_define_by_run(name):
    fn, make_inputs = CASES[name]
    plain, static = chain(fn, False), chain(fn, True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        for it in range(3):
            inputs = make_inputs(numpy.random.RandomState(it))
            results = []
            for model in (plain, static):
                numpy.random.seed(7 + it)
                xs = [chainer.Variable(x) if x.dtype.kind == 'f' else x for x in inputs]
                y = model(*xs)
                y.grad = numpy.asarray(numpy.random.RandomState(9).rand(*y.shape)).astype(
                    y.dtype)
                y.backward()
                results.append([y.array] + [x.grad for x in xs
                                            if isinstance(x, chainer.Variable)])
            for a, b in zip(*results):
                assert a.dtype == b.dtype and numpy.array_equal(a, b, equal_nan=True), \
                    (name, it, a, b)
    reported = [str(w.message) for w in caught if 'static_graph' in str(w.message)]
    if name in FALLS_BACK:
        assert static.schedule_manager._define_by_run
        assert any('computed outside any function node' in m for m in reported)
    else:
        assert not reported and not static.schedule_manager._define_by_run
