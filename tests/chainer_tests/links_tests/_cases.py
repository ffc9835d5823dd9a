"""The links' case table, and the checks that every case goes through.

A case builds a link (float64 where it has a dtype, so that the numerical gradients are
sharp) and its inputs, names the output shape, says how to call the link when the call needs
fixed options or fixed randomness, and, where it can, what the link computes (``expected``:
the same computation on the link's parameters, written with chainer.functions or NumPy).

A link module's test file takes its cases in two ways::

    @_cases.cases('Bias', 'Bias_2inputs')
    class TestBias(_cases.LinkTest):
        pass                            # LinkTestCase: forward against `expected`,
                                        # gradients of the inputs and every parameter

    TestBiasChecks = _cases.checks('Bias', 'Bias_2inputs')
                                        # output shape and dtype, copies, device and
                                        # serialization round trips (and with lazy=...,
                                        # lazy initialization)
"""
import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import testing
from chainer.utils import type_check


class Case:
    """One row of the table.

    Args:
        build: ``() -> link``, under ``config.dtype = float64``.
        inputs: ``() -> tuple of arrays``.
        shape (tuple): The output's shape (``None``: several outputs).
        call: ``link -> callable`` used instead of the link (``None``: the link itself).
        expected: ``(link, inputs) -> array``, what the call computes (``None``: the
            link module's test file checks that in its own way).
    """

    def __init__(self, build, inputs, shape, call=None, expected=None):
        self.build, self.inputs, self.shape = build, inputs, shape
        self.call, self.expected = call, expected


def _u(*shape, low=-1, high=1):
    return numpy.random.uniform(low, high, shape)


def _seeded(link, seed=3):
    # Links that draw samples draw the same ones on every call.
    def call(*xs):
        numpy.random.seed(seed)
        return link(*xs)
    return call


def _fixed_stats(link):
    # Each training call moves the running statistics, which batch renormalization
    # reads: every call of the gradient check starts from the same ones.
    saved = link.avg_mean.copy(), link.avg_var.copy()

    def call(x):
        link.avg_mean[...], link.avg_var[...] = saved
        return link(x)
    return call


def _with_W(link):
    # BlackOut's W starts as NaN (as in Chainer); both get random weights here.
    link.W.array = numpy.random.uniform(-1, 1, link.W.shape)
    return link


def _a(v):
    return v.array if isinstance(v, chainer.Variable) else v


# What the links compute, on their own parameters (the same functions they are built on).
def _conv(**options):
    return lambda link, xs: F.convolution_nd(xs[0], link.W, link.b, **options).array


def _deconv(**options):
    return lambda link, xs: F.deconvolution_nd(xs[0], link.W, link.b, **options).array


def _bias(link, xs):
    b = xs[1] if len(xs) > 1 else link.b.array
    return xs[0] + b.reshape((1,) + b.shape + (1,) * (xs[0].ndim - 1 - b.ndim))


def _scale(link, xs):
    w = xs[1] if len(xs) > 1 else link.W.array
    y = xs[0] * w.reshape((1,) + w.shape + (1,) * (xs[0].ndim - 1 - w.ndim))
    return y if getattr(link, 'bias', None) is None else _bias(link.bias, (y,))


def _highway(link, xs):
    x, = xs
    plain = F.relu(link.plain(x)).array
    t = F.sigmoid(link.transform(x)).array
    return plain * t + x * (1 - t)


def _mlp_conv(link, xs):
    h = xs[0]
    for i, conv in enumerate(link):
        h = conv(h)
        if i < len(link) - 1:
            h = link.activation(h)
    return h.array


def _deformable(link, xs):
    x, = xs
    offset = link.offset_conv(x)
    return F.deformable_convolution_2d_sampler(x, offset, link.deform_conv.W,
                                               link.deform_conv.b, pad=1).array


def _dropconnect_mask():
    return numpy.arange(60).reshape(5, 4, 3) % 3 > 0


def _dropconnect(link, xs):
    # mask keeps an entry of W per example; kept entries are scaled by 1 / (1 - ratio)
    W = link.W.array[None] * _dropconnect_mask() / (1 - link.ratio)
    return numpy.einsum('nij,nj->ni', W, xs[0]) + link.b.array


def _batch_norm(axis):
    def expected(link, xs):
        return F.batch_normalization(xs[0], link.gamma, link.beta, eps=link.eps,
                                     axis=axis).array
    return expected


_HUFFMAN = L.BinaryHierarchicalSoftmax.create_huffman_tree({0: 5, 1: 3, 2: 2, 3: 1})

# id: Case(build, inputs, output shape, call, expected)
CASES = {
    'Bias': Case(lambda: L.Bias(1, (3,)), lambda: (_u(2, 3, 4),), (2, 3, 4), None, _bias),
    'Bias_2inputs': Case(lambda: L.Bias(1), lambda: (_u(2, 3, 4), _u(3)), (2, 3, 4), None,
                         _bias),
    'Bilinear': Case(lambda: L.Bilinear(2, 3, 4), lambda: (_u(5, 2), _u(5, 3)), (5, 4), None,
                     lambda l, xs: F.bilinear(*xs, l.W, l.V1, l.V2, l.b).array),
    'Bilinear_nobias': Case(lambda: L.Bilinear(2, 3, 4, nobias=True),
                            lambda: (_u(5, 2), _u(5, 3)), (5, 4), None,
                            lambda l, xs: F.bilinear(*xs, l.W).array),
    'Convolution1D': Case(lambda: L.Convolution1D(2, 3, 3, pad=1), lambda: (_u(2, 2, 5),),
                          (2, 3, 5), None, _conv(pad=1)),
    'Convolution2D': Case(lambda: L.Convolution2D(2, 3, 3, stride=2, pad=1),
                          lambda: (_u(2, 2, 5, 5),), (2, 3, 3, 3), None,
                          _conv(stride=2, pad=1)),
    'Convolution2D_groups': Case(lambda: L.Convolution2D(4, 6, 3, groups=2),
                                 lambda: (_u(1, 4, 4, 4),), (1, 6, 2, 2), None,
                                 _conv(groups=2)),
    'Convolution2D_dilate': Case(lambda: L.Convolution2D(2, 3, 3, dilate=2),
                                 lambda: (_u(1, 2, 6, 6),), (1, 3, 2, 2), None,
                                 _conv(dilate=2)),
    'Convolution3D': Case(lambda: L.Convolution3D(2, 3, 2), lambda: (_u(1, 2, 3, 3, 3),),
                          (1, 3, 2, 2, 2), None, _conv()),
    'ConvolutionND': Case(lambda: L.ConvolutionND(2, 2, 3, 3, nobias=True),
                          lambda: (_u(1, 2, 4, 4),), (1, 3, 2, 2), None, _conv()),
    'Deconvolution1D': Case(lambda: L.Deconvolution1D(2, 3, 3), lambda: (_u(2, 2, 4),),
                            (2, 3, 6), None, _deconv()),
    'Deconvolution2D': Case(lambda: L.Deconvolution2D(2, 3, 3, stride=2, pad=1),
                            lambda: (_u(2, 2, 3, 3),), (2, 3, 5, 5), None,
                            _deconv(stride=2, pad=1)),
    'Deconvolution2D_outsize': Case(
        lambda: L.Deconvolution2D(2, 3, 3, stride=2, outsize=(8, 8)),
        lambda: (_u(1, 2, 3, 3),), (1, 3, 8, 8), None, _deconv(stride=2, outsize=(8, 8))),
    'Deconvolution3D': Case(lambda: L.Deconvolution3D(2, 3, 2), lambda: (_u(1, 2, 2, 2, 2),),
                            (1, 3, 3, 3, 3), None, _deconv()),
    'DeconvolutionND': Case(lambda: L.DeconvolutionND(2, 4, 6, 3, groups=2),
                            lambda: (_u(1, 4, 2, 2),), (1, 6, 4, 4), None, _deconv(groups=2)),
    'DeformableConvolution2D': Case(
        lambda: L.DeformableConvolution2D(2, 3, 3, pad=1, offset_initialW=0.01,
                                          deform_initialW=chainer.initializers.Normal(0.5)),
        lambda: (_u(1, 2, 4, 4),), (1, 3, 4, 4), None, _deformable),
    'DepthwiseConvolution2D': Case(
        lambda: L.DepthwiseConvolution2D(2, 3, 3), lambda: (_u(2, 2, 4, 4),), (2, 6, 2, 2),
        None, lambda l, xs: F.depthwise_convolution_2d(xs[0], l.W, l.b).array),
    'DilatedConvolution2D': Case(
        lambda: L.DilatedConvolution2D(2, 3, 3, pad=2, dilate=2), lambda: (_u(1, 2, 5, 5),),
        (1, 3, 5, 5), None,
        lambda l, xs: F.dilated_convolution_2d(xs[0], l.W, l.b, pad=2, dilate=2).array),
    'Highway': Case(lambda: L.Highway(3), lambda: (_u(4, 3),), (4, 3), None, _highway),
    'Inception': Case(lambda: L.Inception(3, 2, 2, 3, 2, 3, 2), lambda: (_u(1, 3, 5, 5),),
                      (1, 10, 5, 5)),
    'InceptionBN': Case(
        lambda: L.InceptionBN(3, 2, 2, 3, 2, 3, 'max', 2, dtype=numpy.float64),
        lambda: (_u(3, 3, 4, 4),), (3, 10, 4, 4)),
    'InceptionBN_avg': Case(
        lambda: L.InceptionBN(3, 0, 2, 3, 2, 3, 'avg', stride=2, dtype=numpy.float64),
        lambda: (_u(3, 3, 5, 5),), (3, 9, 3, 3)),
    'LocalConvolution2D': Case(
        lambda: L.LocalConvolution2D(2, 3, (4, 5), 3), lambda: (_u(2, 2, 4, 5),),
        (2, 3, 2, 3), None, lambda l, xs: F.local_convolution_2d(xs[0], l.W, l.b).array),
    'MLPConvolution2D': Case(lambda: L.MLPConvolution2D(2, (3, 4), 3),
                             lambda: (_u(1, 2, 4, 4),), (1, 4, 2, 2), None, _mlp_conv),
    'Scale': Case(lambda: L.Scale(1, (3,), bias_term=True), lambda: (_u(2, 3, 4),), (2, 3, 4),
                  None, _scale),
    'Scale_2inputs': Case(lambda: L.Scale(1), lambda: (_u(2, 3, 4), _u(3)), (2, 3, 4), None,
                          _scale),
    'PReLU': Case(lambda: L.PReLU((3,), init=0.3), lambda: (_u(2, 3, 4),), (2, 3, 4), None,
                  lambda l, xs: F.prelu(xs[0], l.W).array),
    'Swish': Case(lambda: L.Swish((3,)), lambda: (_u(2, 3),), (2, 3), None,
                  lambda l, xs: F.swish(xs[0], l.beta).array),
    'Maxout': Case(lambda: L.Maxout(3, 4, 2), lambda: (_u(5, 3),), (5, 4), None,
                   lambda l, xs: F.maxout(l.linear(xs[0]), 2).array),
    'SimplifiedDropconnect': Case(
        lambda: L.SimplifiedDropconnect(3, 4), lambda: (_u(5, 3),), (5, 4),
        lambda link: lambda x: link(x, mask=_dropconnect_mask()), _dropconnect),
    'BatchNormalization': Case(lambda: L.BatchNormalization(3, dtype=numpy.float64),
                               lambda: (_u(6, 3, 2),), (6, 3, 2), None, _batch_norm(None)),
    'BatchNormalization_axis': Case(
        lambda: L.BatchNormalization((3, 2), axis=0, dtype=numpy.float64),
        lambda: (_u(6, 3, 2),), (6, 3, 2), None, _batch_norm(0)),
    # The corrections r and d are constants to backprop (as in the paper): with the
    # default bounds they stay 1 and 0, so the numerical gradient agrees.
    'BatchRenormalization': Case(lambda: L.BatchRenormalization(3, dtype=numpy.float64),
                                 lambda: (_u(6, 3),), (6, 3), _fixed_stats),
    'DecorrelatedBatchNormalization': Case(
        lambda: L.DecorrelatedBatchNormalization(4, groups=2, dtype=numpy.float64),
        lambda: (_u(12, 4),), (12, 4)),
    'GroupNormalization': Case(
        lambda: L.GroupNormalization(2, 4), lambda: (_u(3, 4, 2),), (3, 4, 2), None,
        lambda l, xs: F.group_normalization(xs[0], 2, l.gamma, l.beta, l.eps).array),
    'LayerNormalization': Case(
        lambda: L.LayerNormalization(3), lambda: (_u(4, 3),), (4, 3), None,
        lambda l, xs: F.layer_normalization(xs[0], l.gamma, l.beta, l.eps).array),
    'BinaryHierarchicalSoftmax': Case(
        lambda: L.BinaryHierarchicalSoftmax(3, _HUFFMAN, dtype=numpy.float64),
        lambda: (_u(4, 3), numpy.array([0, 1, 2, 3], numpy.int32)), ()),
    'BlackOut': Case(lambda: _with_W(L.BlackOut(3, [3, 2, 1, 4], 2)),
                     lambda: (_u(4, 3), numpy.array([0, 1, 2, 3], numpy.int32)), (), _seeded),
    'NegativeSampling': Case(
        lambda: _with_W(L.NegativeSampling(3, [3, 2, 1, 4], 2, dtype=numpy.float64)),
        lambda: (_u(4, 3), numpy.array([0, 1, 2, 3], numpy.int32)), (), _seeded),
    'CRF1d': Case(lambda: L.CRF1d(3, initial_cost=chainer.initializers.Normal(1.)),
                  lambda: (_u(3, 2, 3), numpy.array([[0, 1], [2, 0], [1, 1]], numpy.int32)),
                  (), lambda link: lambda xs, ys: link(list(xs), list(ys))),
}


# ---- the rnn links: several inputs (states first) and, for the n-step ones, several outputs
IN, OUT, B = 3, 4, 2


def _stateful_with_state(states):
    def call(link):
        def run(*args):
            vs = [chainer.as_variable(a) for a in args[:len(states)]]
            link.reset_state()
            if vs:
                link.set_state(*vs)
            return link(args[-1])
        return run
    return call


def _test_mode(f):
    # zoneout draws its masks in training only
    with chainer.using_config('train', False):
        return f()


def _twice(link):
    # a stateful link's second step, from the state its first step left
    return lambda x: (link.reset_state(), link(x), link(x))[-1]


def _nstep(link):
    def run(hx, *xs):
        with chainer.using_config('train', False):
            if isinstance(link, (L.NStepLSTM, L.NStepBiLSTM)):
                hy, cy, ys = link(hx, hx * 0.5, list(xs))
                return (hy, cy) + tuple(ys)
            hy, ys = link(hx, list(xs))
            return (hy,) + tuple(ys)
    return run


def _halved(link):
    # (ReLU n-step links: smaller weights keep fewer pre-activations near the kink)
    for p in link.params():
        p.array[...] = p.array * 0.5
    return link


def _inputs(*shapes):
    return lambda: tuple(_u(*s) for s in shapes)


CASES.update({
    'StatelessLSTM': Case(lambda: L.StatelessLSTM(IN, OUT),
                          _inputs((B, OUT), (B, OUT), (B, IN)), None,
                          lambda link: lambda c, h, x: link(c, h, x)),
    'LSTM': Case(lambda: L.LSTM(IN, OUT), _inputs((B, OUT), (B, OUT), (B, IN)), None,
                 _stateful_with_state('ch')),
    'StatelessGRU': Case(lambda: L.StatelessGRU(IN, OUT), _inputs((B, OUT), (B, IN)), None,
                         lambda link: lambda h, x: link(h, x)),
    'StatefulGRU': Case(lambda: L.StatefulGRU(IN, OUT), _inputs((B, OUT), (B, IN)), None,
                        _stateful_with_state('h')),
    'StatefulGRU_first': Case(lambda: L.StatefulGRU(IN, OUT), _inputs((B, IN)), None,
                              _stateful_with_state('')),
    'StatelessMGU': Case(lambda: L.StatelessMGU(IN, OUT), _inputs((B, OUT), (B, IN)), None,
                         lambda link: lambda h, x: link(h, x)),
    'StatefulMGU': Case(lambda: L.StatefulMGU(IN, OUT), _inputs((B, OUT), (B, IN)), None,
                        _stateful_with_state('h')),
    'StatefulPeepholeLSTM': Case(lambda: L.StatefulPeepholeLSTM(IN, OUT), _inputs((B, IN)),
                                 None, _twice),
    'StatefulZoneoutLSTM': Case(lambda: L.StatefulZoneoutLSTM(IN, OUT), _inputs((B, IN)),
                                None, lambda link: lambda x: _test_mode(lambda: _twice(link)(x))),
    'ChildSumTreeLSTM': Case(lambda: L.ChildSumTreeLSTM(IN, OUT),
                             _inputs(*[(B, OUT)] * 4, (B, IN)), None,
                             lambda link: lambda *a: link(*a)),
    'NaryTreeLSTM': Case(lambda: L.NaryTreeLSTM(IN, OUT, 2), _inputs(*[(B, OUT)] * 4, (B, IN)),
                         None, lambda link: lambda *a: link(*a)),
})
for _name in ('NStepLSTM', 'NStepBiLSTM', 'NStepGRU', 'NStepBiGRU', 'NStepRNNTanh',
              'NStepBiRNNReLU'):
    _dirs = 2 if 'Bi' in _name else 1
    CASES[_name] = Case(
        (lambda c=_name: _halved(getattr(L, c)(2, IN, OUT, 0.0))) if 'ReLU' in _name
        else (lambda c=_name: getattr(L, c)(2, IN, OUT, 0.0)),
        _inputs((2 * _dirs, 3, OUT), (2, IN), (3, IN), (1, IN)), None, _nstep)


def _build(case_id, seed=0):
    numpy.random.seed(seed)
    case = CASES[case_id]
    with chainer.using_config('dtype', numpy.float64):
        link = case.build()
    return link, case.inputs()


def _caller(case_id, link):
    call = CASES[case_id].call
    return link if call is None else call(link)


def _outputs(case_id, link, xs):
    with chainer.using_config('train', False):
        y = _caller(case_id, link)(*xs)
    return y.array


# ---- LinkTestCase over the table --------------------------------------------------------
def cases(*case_ids):
    """Parameterizes a :class:`LinkTest` over the given cases, on NumPy and CuPy."""
    def decorate(cls):
        cls = testing.inject_backend_tests(None, [{}, {'use_cuda': True}])(cls)
        return testing.parameterize(*[{'case_id': i} for i in case_ids])(cls)
    return decorate


class LinkTest(testing.LinkTestCase):
    """The harness's link test for a case of the table: the forward against the case's
    ``expected``, and the gradients of the inputs and of every parameter."""

    __test__ = False
    case_id = None
    # float64 links: central differences with this step are exact to ~1e-8.
    check_backward_options = {'eps': 1e-4}

    def before_test(self, test_name):
        if test_name == 'test_forward' and CASES[self.case_id].expected is None:
            pytest.skip(f'{self.case_id}: no reference in the case table; the test file of '
                        'its module checks what it computes')

    def generate_params(self):
        return ()

    def create_link(self, initializers):
        link, _ = _build(self.case_id)
        self.param_names = tuple(sorted(name for name, _ in link.namedparams()))
        return link

    def generate_inputs(self):
        return CASES[self.case_id].inputs()

    def forward(self, link, inputs, device):
        y = _caller(self.case_id, link)(*inputs)
        return y if isinstance(y, tuple) else (y,)

    def forward_expected(self, link, inputs):
        return numpy.asarray(CASES[self.case_id].expected(link, inputs)),


# ---- the other checks of every case -----------------------------------------------------
def checks(*case_ids, lazy=()):
    """Returns a test class with the table's other checks for the given cases: output shape
    and dtype, copies, device and serialization round trips; and lazy initialization for the
    ``lazy`` ids of ``LAZY``."""
    lazy_ids = lazy

    class Checks:

        @pytest.mark.parametrize('case_id', case_ids)
        def test_output_shape_and_dtype(self, case_id):
            link, xs = _build(case_id)
            y = _caller(case_id, link)(*xs)
            assert y.shape == CASES[case_id].shape
            assert y.dtype == numpy.float64

        @pytest.mark.parametrize('case_id', case_ids)
        def test_copy_round_trips(self, case_id):
            _check_copies(case_id)

        @pytest.mark.parametrize('case_id', case_ids)
        def test_to_device_round_trip(self, case_id):
            link, xs = _build(case_id)
            expected = _outputs(case_id, link, xs)
            link.to_device('@numpy')
            assert link.device == chainer.get_device('@numpy')
            for name, p in link.namedparams():
                assert isinstance(p.array, numpy.ndarray), name
            testing.assert_allclose(_outputs(case_id, link, xs), expected)

        @pytest.mark.parametrize('case_id', case_ids)
        def test_serialization_round_trip(self, case_id):
            _check_serialization(case_id)

        if lazy_ids:
            @pytest.mark.parametrize('case_id', lazy_ids)
            def test_lazy_initialization(self, case_id):
                _check_lazy(case_id)

            @pytest.mark.parametrize('case_id', lazy_ids)
            def test_lazy_copy_before_initialization(self, case_id):
                _check_lazy_copy(case_id)

    return Checks


def _check_copies(case_id):
    link, xs = _build(case_id)
    expected = _outputs(case_id, link, xs)
    deep = link.copy('copy')
    testing.assert_allclose(_outputs(case_id, deep, xs), expected)
    shared = link.copy()
    for (name, p), (_, q) in zip(sorted(link.namedparams()), sorted(shared.namedparams())):
        assert q is not p and q.array is p.array, name
    for (name, p), (_, q) in zip(sorted(link.namedparams()), sorted(deep.namedparams())):
        assert q.array is not p.array, name
        q.array[...] = 0
    testing.assert_allclose(_outputs(case_id, link, xs), expected)


def _check_serialization(case_id):
    link, xs = _build(case_id)
    if 'Normalization' in case_id or case_id.startswith('InceptionBN'):
        with chainer.using_config('train', True):
            _caller(case_id, link)(*xs)     # moves the running statistics off their start
    expected = _outputs(case_id, link, xs)
    other, _ = _build(case_id, seed=1)
    testing.save_and_load_npz(link, other)
    testing.assert_allclose(_outputs(case_id, other, xs), expected)
    for (name, p), (_, q) in zip(sorted(link.namedparams()), sorted(other.namedparams())):
        testing.assert_allclose(q.array, p.array)


# Lazily initialized links: (lazy constructor, input shape, a wrong input shape)
LAZY = {
    'Convolution2D': (lambda: L.Convolution2D(None, 3, 3), (1, 2, 5, 5), (1, 4, 5, 5)),
    'Convolution2D_short': (lambda: L.Convolution2D(3, 3), (1, 2, 5, 5), (1, 4, 5, 5)),
    'ConvolutionND': (lambda: L.ConvolutionND(1, None, 3, 3), (1, 2, 5), (1, 3, 5)),
    'Deconvolution2D': (lambda: L.Deconvolution2D(None, 3, 3), (1, 2, 4, 4), (1, 3, 4, 4)),
    'DeconvolutionND': (lambda: L.DeconvolutionND(3, None, 3, 2), (1, 2, 2, 2, 2),
                        (1, 5, 2, 2, 2)),
    'DepthwiseConvolution2D': (lambda: L.DepthwiseConvolution2D(None, 2, 3), (1, 2, 5, 5),
                               (1, 3, 5, 5)),
    'DilatedConvolution2D': (lambda: L.DilatedConvolution2D(None, 3, 3), (1, 2, 5, 5),
                             (1, 1, 5, 5)),
    'LocalConvolution2D': (lambda: L.LocalConvolution2D(None, 3, ksize=3), (1, 2, 5, 5),
                           (1, 3, 5, 5)),
    'DeformableConvolution2D': (lambda: L.DeformableConvolution2D(None, 3, 3), (1, 2, 5, 5),
                                (1, 3, 5, 5)),
    'MLPConvolution2D': (lambda: L.MLPConvolution2D(None, (3, 4), 3), (1, 2, 5, 5),
                         (1, 3, 5, 5)),
    'SimplifiedDropconnect': (lambda: L.SimplifiedDropconnect(None, 4), (2, 3), (2, 5)),
    'BatchNormalization': (lambda: L.BatchNormalization(axis=(0, 2)), (4, 3, 2), None),
    'GroupNormalization': (lambda: L.GroupNormalization(2), (2, 4, 3), None),
    'LayerNormalization': (lambda: L.LayerNormalization(), (2, 3), None),
    'Swish': (lambda: L.Swish(None), (2, 3), None),
}


def _check_lazy(case_id):
    build, shape, wrong = LAZY[case_id]
    link = build()
    assert any(p.array is None for p in link.params())
    y = link(numpy.ones(shape, numpy.float32))
    assert all(p.array is not None for p in link.params())
    assert y.dtype == numpy.float32
    if wrong is not None:
        with pytest.raises(type_check.InvalidType) as e:
            link(numpy.ones(wrong, numpy.float32))
        # The error names the link that was called (or, for chains, the inner one).
        assert type(link).__name__ in str(e.value) or 'Convolution2D' in str(e.value)


def _check_lazy_copy(case_id):
    # A copy made before the first call initializes on its own.
    build, shape, _ = LAZY[case_id]
    link = build()
    twin = link.copy('copy')
    link(numpy.ones(shape, numpy.float32))
    assert any(p.array is None for p in twin.params())
    twin(numpy.ones(shape, numpy.float32))
    for (name, p), (_, q) in zip(sorted(link.namedparams()), sorted(twin.namedparams())):
        assert p.shape == q.shape, name
