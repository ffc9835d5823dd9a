"""What the links compute, against NumPy or the functions they are built on, and
their argument errors."""
import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import testing
from chainer.utils import type_check


def _x(*shape, dtype=numpy.float32):
    return numpy.random.uniform(-1, 1, shape).astype(dtype)


# ---- connection --------------------------------------------------------------
def test_convolution_links_call_their_functions():
    x = _x(2, 4, 6, 6)
    conv = L.Convolution2D(4, 6, 3, stride=2, pad=1, dilate=1, groups=2)
    testing.assert_allclose(conv(x).array, F.convolution_2d(
        x, conv.W, conv.b, 2, 1, groups=2).array)
    deconv = L.Deconvolution2D(4, 3, 3, stride=2, pad=1)
    testing.assert_allclose(deconv(x).array,
                            F.deconvolution_2d(x, deconv.W, deconv.b, 2, 1).array)
    nd = L.ConvolutionND(2, 4, 3, 2, cover_all=True, stride=2)
    testing.assert_allclose(nd(x[:, :, :5, :5]).array, F.convolution_nd(
        x[:, :, :5, :5], nd.W, nd.b, 2, cover_all=True).array)
    dw = L.DepthwiseConvolution2D(4, 2, 3)
    testing.assert_allclose(dw(x).array,
                            F.depthwise_convolution_2d(x, dw.W, dw.b).array)
    dil = L.DilatedConvolution2D(4, 2, 3, dilate=2)
    testing.assert_allclose(dil(x).array,
                            F.dilated_convolution_2d(x, dil.W, dil.b, dilate=2).array)


def test_convolution_arguments():
    conv = L.Convolution2D(3, 4)      # (out_channels, ksize): lazy input channels
    assert conv.W.array is None and conv.out_channels == 3 and conv.ksize == 4
    assert list(L.Convolution2D(2, 3, 3).printable_specs) == [
        ('in_channels', 2), ('out_channels', 3), ('ksize', 3), ('stride', (1, 1)),
        ('pad', (0, 0)), ('nobias', False), ('dilate', (1, 1)), ('groups', 1)]
    with pytest.raises(ValueError, match='deterministic'):
        L.Convolution2D(2, 3, 3, deterministic=True)
    with pytest.raises(TypeError, match='foo'):
        L.Convolution2D(2, 3, 3, foo=1)
    with pytest.raises(ValueError, match='divisible by the number of groups'):
        L.Convolution2D(3, 6, 3, groups=2)
    assert L.Deconvolution2D(2, 3, 3).outsize == (None, None)


def test_from_params_keeps_values_and_groups():
    W = _x(6, 2, 3, 3)
    b = _x(6)
    conv = L.Convolution2D.from_params(W, b, stride=2, groups=3)
    assert conv.W.shape == (6, 2, 3, 3) and conv.groups == 3 and conv.stride == (2, 2)
    testing.assert_allclose(conv.W.array, W)
    testing.assert_allclose(conv.b.array, b)
    c1 = L.Convolution1D.from_params(_x(4, 2, 3))
    assert type(c1) is L.Convolution1D and c1.W.shape == (4, 2, 3)
    nd = L.ConvolutionND.from_params(_x(4, 2, 3, 3, 3), nobias=True)
    assert nd.W.shape == (4, 2, 3, 3, 3) and nd.b is None


def test_highway_formula():
    h = L.Highway(3)
    x = _x(4, 3)
    plain = F.relu(F.linear(x, h.plain.W, h.plain.b)).array
    t = F.sigmoid(F.linear(x, h.transform.W, h.transform.b)).array
    testing.assert_allclose(h(x).array, plain * t + x * (1 - t), atol=1e-6)
    testing.assert_allclose(h.transform.b.array, [-1, -1, -1])


def test_maxout_and_mlp_convolution():
    m = L.Maxout(3, 4, 2)
    x = _x(5, 3)
    z = (x @ m.linear.W.array.T + m.linear.b.array).reshape(5, 4, 2)
    testing.assert_allclose(m(x).array, z.max(axis=2), atol=1e-6)
    mlp = L.MLPConvolution2D(2, (3, 4), 1, activation=F.sigmoid)
    x = _x(1, 2, 3, 3)
    h = F.sigmoid(mlp[0](x))
    testing.assert_allclose(mlp(x).array, mlp[1](h).array)  # no activation after the last
    with pytest.raises(ValueError, match='wscale'):
        L.MLPConvolution2D(2, (3,), wscale=1)
    with pytest.raises(TypeError):
        L.MLPConvolution2D(2, (3,), None, 1, 0, F.relu, 1)


def test_inception_channels_and_errors():
    assert L.Inception(3, 2, 2, 3, 2, 3, 2)(_x(1, 3, 6, 6)).shape == (1, 10, 6, 6)
    with pytest.raises(NotImplementedError):
        L.InceptionBN(3, 2, 2, 3, 2, 3, 'median', 2)
    with pytest.raises(AssertionError):
        L.InceptionBN(3, 2, 2, 3, 2, 3, 'max', 2, stride=2)
    with pytest.raises(AssertionError):
        L.InceptionBN(3, 2, 2, 3, 2, 3, 'max')


def test_local_convolution_matches_function():
    lc = L.LocalConvolution2D(2, 3, (5, 4), 3, stride=1)
    x = _x(2, 2, 5, 4)
    assert lc.W.shape == (3, 3, 2, 2, 3, 3) and lc.b.shape == (3, 3, 2)
    testing.assert_allclose(lc(x).array, F.local_convolution_2d(x, lc.W, lc.b).array)
    # With a stride the parameters are sized for the strided output (Chainer 7.8.1
    # sizes them as for stride 1, and then cannot run).
    strided = L.LocalConvolution2D(2, 3, ksize=3, stride=2)
    y = strided(_x(1, 2, 6, 5))
    assert y.shape == (1, 3, 2, 2) and strided.W.shape == (3, 2, 2, 2, 3, 3)


def test_deformable_convolution_with_zero_offsets_is_a_convolution():
    d = L.DeformableConvolution2D(2, 3, 3, pad=1, offset_initialW=0,
                                  deform_initialW=chainer.initializers.Normal(1.))
    testing.assert_allclose(d.deform_conv.b.array, 0)
    x = _x(1, 2, 4, 4)
    testing.assert_allclose(d(x).array, F.convolution_2d(
        x, d.deform_conv.W, d.deform_conv.b, pad=1).array, atol=1e-5)
    # By default the sampler's filters start at zero, as Chainer's.
    assert not L.DeformableConvolution2D(2, 3, 3).deform_conv.W.array.any()


def test_bias_scale_bilinear_parameter():
    x = _x(2, 3, 4)
    b = L.Bias(1, (3,))
    b.b.array[...] = [1, 2, 3]
    testing.assert_allclose(b(x).array, x + numpy.array([1, 2, 3])[:, None])
    with pytest.raises(ValueError, match='Bias'):
        L.Bias(1)(x)
    with chainer.using_config('debug', True), pytest.raises(AssertionError):
        b(x, _x(3))
    s = L.Scale(1, (3,), bias_term=True)
    s.W.array[...] = 2
    testing.assert_allclose(s(x).array, 2 * x)
    with pytest.raises(ValueError, match='bias_shape'):
        L.Scale(bias_term=True)
    bl = L.Bilinear(2, 3, 4)
    e1, e2 = _x(5, 2), _x(5, 3)
    testing.assert_allclose(bl(e1, e2).array, F.bilinear(e1, e2, bl.W, bl.V1, bl.V2, bl.b).array)
    with pytest.raises(ValueError, match='tuple'):
        L.Bilinear(2, 3, 4, initial_bias=1)
    with pytest.raises(AssertionError, match='initialW'):
        L.Bilinear(2, 3, 4, initialW=_x(3, 3, 4))
    p = L.Parameter(numpy.arange(3, dtype=numpy.float64))
    assert p() is p.W and p.W.dtype == numpy.float64


# ---- activation --------------------------------------------------------------
def test_activation_links():
    x = _x(2, 3, 4)
    p = L.PReLU((3,), init=0.5)
    testing.assert_allclose(p(x).array, numpy.where(x > 0, x, 0.5 * x))
    s = L.Swish(None)
    s(x)
    assert s.beta.shape == (3, 4)
    testing.assert_allclose(s(x).array, x / (1 + numpy.exp(-x)), atol=1e-6)
    d = L.SimplifiedDropconnect(3, 2)
    x2 = _x(4, 3)
    testing.assert_allclose(d(x2, train=False).array, F.linear(x2, d.W, d.b).array)
    mask = numpy.ones((4, 2, 3), bool)
    testing.assert_allclose(d(x2, mask=mask).array, F.linear(x2, 2 * d.W, d.b).array)
    with pytest.raises(type_check.InvalidType):
        d(x2, mask=numpy.ones((3, 2), bool))


# ---- normalization -----------------------------------------------------------
def test_batch_normalization_statistics_and_modes():
    x = _x(10, 3)
    bn = L.BatchNormalization(3)
    y = bn(x)
    mean, var = x.mean(0), x.var(0)
    testing.assert_allclose(y.array, (x - mean) / numpy.sqrt(var + 2e-5), atol=1e-5)
    testing.assert_allclose(bn.avg_mean, 0.1 * mean, atol=1e-6)
    testing.assert_allclose(bn.avg_var, 0.9 + 0.1 * var * 10 / 9, atol=1e-6)
    assert bn.N == 0
    bn.start_finetuning()
    bn(x, finetune=True)        # N = 1: the running values become this batch's
    assert bn.N == 1
    testing.assert_allclose(bn.avg_mean, mean, atol=1e-6)
    testing.assert_allclose(bn.avg_var, var * 10 / 9, atol=1e-6)
    with chainer.using_config('train', False):
        testing.assert_allclose(bn(x).array, (x - mean) / numpy.sqrt(var * 10 / 9 + 2e-5),
                                atol=1e-5)
    with pytest.raises(ValueError, match='test argument'):
        bn(x, test=True)
    with pytest.raises(RuntimeError, match='size or axis'):
        L.BatchNormalization()


def test_batch_normalization_without_gamma_beta_and_with_axis():
    bn = L.BatchNormalization(3, use_gamma=False, use_beta=False)
    assert bn.gamma is None and bn.beta is None and not list(bn.params())
    x = _x(6, 3, 2)
    testing.assert_allclose(bn(x).array, F.batch_normalization(
        x, numpy.ones(3, 'f'), numpy.zeros(3, 'f')).array, atol=1e-6)
    lazy = L.BatchNormalization(axis=0)
    lazy(x)
    assert lazy.avg_mean.shape == (3, 2) and lazy.gamma.shape == (3, 2)
    assert str(L.BatchNormalization(3)) == ('BatchNormalization(size=3, decay=0.9, '
                                            'eps=2e-05, dtype=float32, use_gamma=True, '
                                            'use_beta=True)')


def test_batch_renormalization_corrects_towards_running_statistics():
    x = _x(6, 3)
    brn = L.BatchRenormalization(3, rmax=2, dmax=1)
    brn.avg_mean[...] = 0.3
    brn.avg_var[...] = 0.5
    mu, sigma = x.mean(0), numpy.sqrt(x.var(0) + 2e-5)
    running_std = numpy.sqrt(0.5 + 2e-5)
    r = numpy.clip(sigma / running_std, 0.5, 2)
    d = numpy.clip((mu - 0.3) / running_std, -1, 1)
    testing.assert_allclose(brn(x).array, (x - mu) / sigma * r + d, atol=1e-5)
    testing.assert_allclose(brn.avg_mean, 0.9 * 0.3 + 0.1 * mu, atol=1e-6)


def test_decorrelated_batch_normalization_modes():
    x = _x(20, 4)
    dbn = L.DecorrelatedBatchNormalization(4, groups=2)
    y = dbn(x).array.reshape(20, 2, 2)
    for g in range(2):
        cov = y[:, g].T @ y[:, g] / 20
        testing.assert_allclose(cov, numpy.eye(2), atol=1e-3)   # whitened per group
    with chainer.using_config('train', False):
        y = dbn(x)
    testing.assert_allclose(y.array, F.fixed_decorrelated_batch_normalization(
        x, dbn.avg_mean, dbn.avg_projection, groups=2).array)
    with pytest.raises(ValueError, match='groups'):
        L.DecorrelatedBatchNormalization(5, groups=2)


def test_decorrelated_batch_normalization_loads_single_group_files(tmp_path):
    path = str(tmp_path / 'old.npz')
    numpy.savez(path, avg_mean=numpy.arange(2, dtype='f'),
                avg_projection=3 * numpy.eye(2, dtype='f'), N=numpy.array(0))
    dbn = L.DecorrelatedBatchNormalization(4, groups=2)
    with pytest.warns(UserWarning, match='old DecorrelatedBatchNormalization'):
        chainer.serializers.load_npz(path, dbn)
    testing.assert_allclose(dbn.avg_mean, [[0, 1], [0, 1]])
    testing.assert_allclose(dbn.avg_projection[1], 3 * numpy.eye(2))


def test_group_and_layer_normalization():
    x = _x(3, 4, 2)
    gn = L.GroupNormalization(2)
    testing.assert_allclose(gn(x).array, F.group_normalization(
        x, 2, numpy.ones(4, 'f'), numpy.zeros(4, 'f')).array)
    ln = L.LayerNormalization()
    x2 = _x(5, 3)
    testing.assert_allclose(ln(x2).array, (x2 - x2.mean(1, keepdims=True)) / numpy.sqrt(
        x2.var(1, keepdims=True) + 1e-6), atol=1e-5)
    assert ln(numpy.zeros((0, 3), 'f')).shape == (0, 3)


@pytest.mark.parametrize('make', [
    lambda: L.BatchNormalization(3), lambda: L.BatchRenormalization(3, rmax=2, dmax=1),
    lambda: L.DecorrelatedBatchNormalization(3, groups=3)])
def test_normalization_under_forget_updates_once(make):
    x = _x(4, 3)
    plain, forgetful = make(), make()
    xa, xb = chainer.Variable(x), chainer.Variable(x)
    F.sum(plain(xa, finetune=True) * x).backward()
    F.sum(F.forget(lambda v: forgetful(v, finetune=True), xb) * x).backward()
    testing.assert_allclose(xa.grad, xb.grad, atol=1e-6)
    assert plain.N == forgetful.N == 1
    testing.assert_allclose(plain.avg_mean, forgetful.avg_mean)


# ---- loss --------------------------------------------------------------------
def test_huffman_tree():
    with pytest.raises(ValueError):
        L.BinaryHierarchicalSoftmax.create_huffman_tree({})
    tree = L.BinaryHierarchicalSoftmax.create_huffman_tree(
        {'x': 8, 'y': 6, 'z': 5, 'w': 4, 'v': 3})
    assert tree == (('z', 'y'), (('v', 'w'), 'x'))


def test_hierarchical_softmax_is_a_distribution():
    tree = ((0, 1), ((2, 3), 4))
    hs = L.BinaryHierarchicalSoftmax(3, tree)
    assert hs.W.shape == (4, 3)
    x = _x(1, 3)
    total = sum(numpy.exp(-float(hs(x, numpy.array([i], 'i')).array)) for i in range(5))
    assert abs(total - 1) < 1e-5
    # The loss of a batch is the sum of the examples' losses.
    xs = _x(2, 3)
    t = numpy.array([0, 3], 'i')
    testing.assert_allclose(hs(xs, t).array, hs(xs[:1], t[:1]).array + hs(xs[1:], t[1:]).array,
                            rtol=1e-5)
    f = hs._func
    testing.assert_allclose(f.begins, [0, 2, 4, 7, 10, 12])
    with pytest.raises(IndexError, match='labels'):
        hs(x, numpy.array([5], 'i'))
    with pytest.raises(ValueError, match='twice'):
        L.BinaryHierarchicalSoftmax(3, ((0, 1), (0, 2)))


def test_negative_sampling_and_black_out():
    ns = L.NegativeSampling(3, [1, 2, 3, 4], 2)
    assert not ns.W.array.any()
    x, t = _x(2, 3), numpy.array([0, 1], 'i')
    assert ns(x, t).shape == () and ns(x, t, reduce='no').shape == (2,)
    loss, samples = ns(x, t, return_samples=True)
    assert samples.shape == (2, 3)
    bo = L.BlackOut(3, [1, 2, 3, 4], 2)
    assert numpy.isnan(bo.W.array).all()      # as in Chainer: to be set by the user
    bo.W.array[...] = _x(4, 3)
    assert bo(x, t).shape == ()


def test_crf1d_layouts():
    crf = L.CRF1d(3, initial_cost=chainer.initializers.Normal(1.))
    batch_major = _x(2, 4, 3)
    ys_batch = numpy.array([[0, 1, 2, 1], [2, 2, 0, 1]], 'i')
    time_major = [batch_major[:, i] for i in range(4)]
    ys_time = [ys_batch[:, i] for i in range(4)]
    testing.assert_allclose(crf(batch_major, ys_batch, transpose=True).array,
                            crf(time_major, ys_time).array)
    score_t, path_t = crf.argmax(batch_major, transpose=True)
    score, path = crf.argmax(time_major)
    testing.assert_allclose(score_t.array, score.array)
    testing.assert_allclose(numpy.stack(path_t), numpy.stack(path).T)


# ---- model -------------------------------------------------------------------
def test_classifier_reports_loss_and_accuracy():
    model = L.Classifier(L.Linear(3, 2))
    x, t = _x(4, 3), numpy.array([0, 1, 1, 0], 'i')
    reporter = chainer.Reporter()
    reporter.add_observer('main', model)
    observation = {}
    with reporter.scope(observation):
        loss = model(x, t)
    assert set(observation) == {'main/loss', 'main/accuracy'}
    testing.assert_allclose(loss.array, F.softmax_cross_entropy(model.y, t).array)
    assert model.loss is loss and model.y.shape == (4, 2)
    model.compute_accuracy = False
    observation = {}
    with reporter.scope(observation):
        model(x, t)
    assert set(observation) == {'main/loss'} and model.accuracy is None


def test_classifier_label_key():
    keyed = L.Classifier(L.Linear(3, 2), label_key='t')
    x, t = _x(4, 3), numpy.array([0, 1, 1, 0], 'i')
    assert keyed(x=x, t=t).shape == ()
    with pytest.raises(ValueError, match='"t" is not found'):
        keyed(x, t)
    first = L.Classifier(lambda a: a, label_key=0, lossfun=F.mean_squared_error,
                         accfun=lambda y, t: y[0, 0])
    first.compute_accuracy = False
    assert first(_x(2), _x(2)).shape == ()
    with pytest.raises(ValueError, match='out of bounds'):
        L.Classifier(L.Linear(3, 2), label_key=3)(x, t)
    with pytest.raises(TypeError, match='label_key must be int or str'):
        L.Classifier(L.Linear(3, 2), label_key=1.5)


def test_caffe_and_theano_are_not_supported():
    from chainer.links import caffe
    with pytest.raises(RuntimeError, match='not supported by rechainer'):
        caffe.CaffeFunction('model.caffemodel')
    with pytest.raises(RuntimeError, match='not supported by rechainer'):
        L.TheanoFunction([], [])


def test_module_paths():
    for name, module in [
            ('Convolution2D', 'connection.convolution_2d'),
            ('Convolution1D', 'connection.convolution_nd'),
            ('Deconvolution3D', 'connection.deconvolution_nd'),
            ('InceptionBN', 'connection.inceptionbn'),
            ('BinaryHierarchicalSoftmax', 'loss.hierarchical_softmax'),
            ('Classifier', 'model.classifier'),
            ('BatchRenormalization', 'normalization.batch_renormalization'),
            ('SimplifiedDropconnect', 'activation.simplified_dropconnect')]:
        assert getattr(L, name).__module__ == 'chainer.links.' + module
