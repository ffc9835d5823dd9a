"""Checks every link of this family goes through: output shape, parameter gradients,
copies, device round trips, serialization round trips and lazy initialization.

Each case builds a link (float64 where it has a dtype, so that the numerical
gradients are sharp), its inputs, and names the output shape. ``call`` wraps the
link when its call needs fixed options or fixed randomness.
"""
import numpy
import pytest

import chainer
from chainer import gradient_check
import chainer.links as L
from chainer import testing
from chainer.utils import type_check


def _u(*shape, low=-1, high=1):
    return numpy.random.uniform(low, high, shape)


def _seeded(link, seed=3):
    # Links that draw samples draw the same ones on every call.
    def call(*xs):
        numpy.random.seed(seed)
        return link(*xs)
    return call


_HUFFMAN = L.BinaryHierarchicalSoftmax.create_huffman_tree({0: 5, 1: 3, 2: 2, 3: 1})

# id: (build, inputs, output shape, call(link) or None)
CASES = {
    'Bias': (lambda: L.Bias(1, (3,)), lambda: (_u(2, 3, 4),), (2, 3, 4), None),
    'Bias_2inputs': (lambda: L.Bias(1), lambda: (_u(2, 3, 4), _u(3)), (2, 3, 4), None),
    'Bilinear': (lambda: L.Bilinear(2, 3, 4), lambda: (_u(5, 2), _u(5, 3)), (5, 4), None),
    'Bilinear_nobias': (lambda: L.Bilinear(2, 3, 4, nobias=True),
                        lambda: (_u(5, 2), _u(5, 3)), (5, 4), None),
    'Convolution1D': (lambda: L.Convolution1D(2, 3, 3, pad=1), lambda: (_u(2, 2, 5),),
                      (2, 3, 5), None),
    'Convolution2D': (lambda: L.Convolution2D(2, 3, 3, stride=2, pad=1),
                      lambda: (_u(2, 2, 5, 5),), (2, 3, 3, 3), None),
    'Convolution2D_groups': (lambda: L.Convolution2D(4, 6, 3, groups=2),
                             lambda: (_u(1, 4, 4, 4),), (1, 6, 2, 2), None),
    'Convolution2D_dilate': (lambda: L.Convolution2D(2, 3, 3, dilate=2),
                             lambda: (_u(1, 2, 6, 6),), (1, 3, 2, 2), None),
    'Convolution3D': (lambda: L.Convolution3D(2, 3, 2), lambda: (_u(1, 2, 3, 3, 3),),
                      (1, 3, 2, 2, 2), None),
    'ConvolutionND': (lambda: L.ConvolutionND(2, 2, 3, 3, nobias=True),
                      lambda: (_u(1, 2, 4, 4),), (1, 3, 2, 2), None),
    'Deconvolution1D': (lambda: L.Deconvolution1D(2, 3, 3), lambda: (_u(2, 2, 4),),
                        (2, 3, 6), None),
    'Deconvolution2D': (lambda: L.Deconvolution2D(2, 3, 3, stride=2, pad=1),
                        lambda: (_u(2, 2, 3, 3),), (2, 3, 5, 5), None),
    'Deconvolution2D_outsize': (lambda: L.Deconvolution2D(2, 3, 3, stride=2, outsize=(8, 8)),
                                lambda: (_u(1, 2, 3, 3),), (1, 3, 8, 8), None),
    'Deconvolution3D': (lambda: L.Deconvolution3D(2, 3, 2), lambda: (_u(1, 2, 2, 2, 2),),
                        (1, 3, 3, 3, 3), None),
    'DeconvolutionND': (lambda: L.DeconvolutionND(2, 4, 6, 3, groups=2),
                        lambda: (_u(1, 4, 2, 2),), (1, 6, 4, 4), None),
    'DeformableConvolution2D': (
        lambda: L.DeformableConvolution2D(2, 3, 3, pad=1, offset_initialW=0.01,
                                          deform_initialW=chainer.initializers.Normal(0.5)),
        lambda: (_u(1, 2, 4, 4),), (1, 3, 4, 4), None),
    'DepthwiseConvolution2D': (lambda: L.DepthwiseConvolution2D(2, 3, 3),
                               lambda: (_u(2, 2, 4, 4),), (2, 6, 2, 2), None),
    'DilatedConvolution2D': (lambda: L.DilatedConvolution2D(2, 3, 3, pad=2, dilate=2),
                             lambda: (_u(1, 2, 5, 5),), (1, 3, 5, 5), None),
    'Highway': (lambda: L.Highway(3), lambda: (_u(4, 3),), (4, 3), None),
    'Inception': (lambda: L.Inception(3, 2, 2, 3, 2, 3, 2), lambda: (_u(1, 3, 5, 5),),
                  (1, 10, 5, 5), None),
    'InceptionBN': (lambda: L.InceptionBN(3, 2, 2, 3, 2, 3, 'max', 2, dtype=numpy.float64),
                    lambda: (_u(3, 3, 4, 4),), (3, 10, 4, 4), None),
    'InceptionBN_avg': (lambda: L.InceptionBN(3, 0, 2, 3, 2, 3, 'avg', stride=2,
                                              dtype=numpy.float64),
                        lambda: (_u(3, 3, 5, 5),), (3, 9, 3, 3), None),
    'LocalConvolution2D': (lambda: L.LocalConvolution2D(2, 3, (4, 5), 3),
                           lambda: (_u(2, 2, 4, 5),), (2, 3, 2, 3), None),
    'MLPConvolution2D': (lambda: L.MLPConvolution2D(2, (3, 4), 3), lambda: (_u(1, 2, 4, 4),),
                         (1, 4, 2, 2), None),
    'Scale': (lambda: L.Scale(1, (3,), bias_term=True), lambda: (_u(2, 3, 4),), (2, 3, 4),
              None),
    'Scale_2inputs': (lambda: L.Scale(1), lambda: (_u(2, 3, 4), _u(3)), (2, 3, 4), None),
    'PReLU': (lambda: L.PReLU((3,), init=0.3), lambda: (_u(2, 3, 4),), (2, 3, 4), None),
    'Swish': (lambda: L.Swish((3,)), lambda: (_u(2, 3),), (2, 3), None),
    'Maxout': (lambda: L.Maxout(3, 4, 2), lambda: (_u(5, 3),), (5, 4), None),
    'SimplifiedDropconnect': (
        lambda: L.SimplifiedDropconnect(3, 4), lambda: (_u(5, 3),), (5, 4),
        lambda link: lambda x: link(x, mask=numpy.arange(60).reshape(5, 4, 3) % 3 > 0)),
    'BatchNormalization': (lambda: L.BatchNormalization(3, dtype=numpy.float64),
                           lambda: (_u(6, 3, 2),), (6, 3, 2), None),
    'BatchNormalization_axis': (lambda: L.BatchNormalization((3, 2), axis=0,
                                                             dtype=numpy.float64),
                                lambda: (_u(6, 3, 2),), (6, 3, 2), None),
    # The corrections r and d are constants to backprop (as in the paper): with the
    # default bounds they stay 1 and 0, so the numerical gradient agrees.
    'BatchRenormalization': (lambda: L.BatchRenormalization(3, dtype=numpy.float64),
                             lambda: (_u(6, 3),), (6, 3), lambda link: _fixed_stats(link)),
    'DecorrelatedBatchNormalization': (
        lambda: L.DecorrelatedBatchNormalization(4, groups=2, dtype=numpy.float64),
        lambda: (_u(12, 4),), (12, 4), None),
    'GroupNormalization': (lambda: L.GroupNormalization(2, 4), lambda: (_u(3, 4, 2),),
                           (3, 4, 2), None),
    'LayerNormalization': (lambda: L.LayerNormalization(3), lambda: (_u(4, 3),), (4, 3),
                           None),
    'BinaryHierarchicalSoftmax': (
        lambda: L.BinaryHierarchicalSoftmax(3, _HUFFMAN, dtype=numpy.float64),
        lambda: (_u(4, 3), numpy.array([0, 1, 2, 3], numpy.int32)), (), None),
    'BlackOut': (lambda: _with_W(L.BlackOut(3, [3, 2, 1, 4], 2)),
                 lambda: (_u(4, 3), numpy.array([0, 1, 2, 3], numpy.int32)), (), _seeded),
    'NegativeSampling': (lambda: _with_W(L.NegativeSampling(3, [3, 2, 1, 4], 2,
                                                            dtype=numpy.float64)),
                         lambda: (_u(4, 3), numpy.array([0, 1, 2, 3], numpy.int32)), (),
                         _seeded),
    'CRF1d': (lambda: L.CRF1d(3, initial_cost=chainer.initializers.Normal(1.)),
              lambda: (_u(3, 2, 3), numpy.array([[0, 1], [2, 0], [1, 1]], numpy.int32)),
              (), lambda link: lambda xs, ys: link(list(xs), list(ys))),
}


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


def _build(case_id, seed=0):
    numpy.random.seed(seed)
    build, inputs, _, call = CASES[case_id]
    with chainer.using_config('dtype', numpy.float64):
        link = build()
    return link, inputs()


def _caller(case_id, link):
    call = CASES[case_id][3]
    return link if call is None else call(link)


def _outputs(case_id, link, xs):
    with chainer.using_config('train', False):
        y = _caller(case_id, link)(*xs)
    return y.array


@pytest.mark.parametrize('case_id', sorted(CASES))
def test_output_shape_and_dtype(case_id):
    link, xs = _build(case_id)
    y = _caller(case_id, link)(*xs)
    assert y.shape == CASES[case_id][2]
    assert y.dtype == numpy.float64


@pytest.mark.parametrize('case_id', sorted(CASES))
def test_backward_over_parameters(case_id):
    link, xs = _build(case_id)
    params = tuple(p for _, p in sorted(link.namedparams()))
    y = _caller(case_id, link)(*xs)
    gy = numpy.random.uniform(-1, 1, y.shape)
    # Integer inputs (labels) get no gradient; the parameters are checked too.
    no_grads = [x.dtype.kind != 'f' for x in xs]
    gradient_check.check_backward(_caller(case_id, link), xs, gy, params=params,
                                  no_grads=no_grads, eps=1e-4, atol=1e-5, rtol=1e-4)


@pytest.mark.parametrize('case_id', sorted(CASES))
def test_copy_round_trips(case_id):
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


@pytest.mark.parametrize('case_id', sorted(CASES))
def test_to_device_round_trip(case_id):
    link, xs = _build(case_id)
    expected = _outputs(case_id, link, xs)
    link.to_device('@numpy')
    assert link.device == chainer.get_device('@numpy')
    for name, p in link.namedparams():
        assert isinstance(p.array, numpy.ndarray), name
    testing.assert_allclose(_outputs(case_id, link, xs), expected)


@pytest.mark.parametrize('case_id', sorted(CASES))
def test_serialization_round_trip(case_id):
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


@pytest.mark.parametrize('case_id', sorted(LAZY))
def test_lazy_initialization(case_id):
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


@pytest.mark.parametrize('case_id', sorted(LAZY))
def test_lazy_copy_before_initialization(case_id):
    # A copy made before the first call initializes on its own.
    build, shape, _ = LAZY[case_id]
    link = build()
    twin = link.copy('copy')
    link(numpy.ones(shape, numpy.float32))
    assert any(p.array is None for p in twin.params())
    twin(numpy.ones(shape, numpy.float32))
    for (name, p), (_, q) in zip(sorted(link.namedparams()), sorted(twin.namedparams())):
        assert p.shape == q.shape, name
