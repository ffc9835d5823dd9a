"""The objects that serialize, as cases run on both frameworks for the files both-ways test.

A case builds an object (after ``numpy.random.seed``), brings it to a save point (``mid``: in
the middle of an epoch, ``end``: just at the end of one), saves it through a callback, and
carries on; ``observe`` then records what the object holds and did afterwards. Loading runs
the same case on a fresh object (built from another seed, so that what is not loaded shows)
and carries on from the file. ``covers`` names the classes of Chainer 7.8.1 (module path and
qualified name, as its ``serialize``-bearing classes are enumerated) whose state the case
saves. This module imports only NumPy and chainer: both frameworks load it as it is.
"""
import io
import json
import os

import numpy

import chainer
from chainer import functions as F
from chainer import links as L
from chainer import training
from chainer.training import extensions as E
from chainer.training import triggers as T

CASES = {}

# Classes of Chainer 7.8.1 with a `serialize` method that no case here can build, and why.
NOT_BUILDABLE = {
    'chainer.iterators.dali_iterator.DaliIterator': 'needs NVIDIA DALI and a GPU',
    'chainer.training.updaters.multiprocess_parallel_updater.MultiprocessParallelUpdater':
        'needs several GPUs and NCCL',
    'chainer.links.theano.theano_function.TheanoFunction': 'needs Theano',
}

LINK = 'chainer.link.'
OPT = 'chainer.optimizers.'
EXT = 'chainer.training.extensions.'
TRIG = 'chainer.training.triggers.'


def _register(case):
    assert case.name not in CASES, case.name
    CASES[case.name] = case
    return case


def _rs(seed=5):
    return numpy.random.RandomState(seed)


def _f32(*shape, seed=5):
    return _rs(seed).uniform(-1, 1, shape).astype(numpy.float32)


def dump(obj):
    """What ``obj`` saves, as a dict of arrays (``None`` as the string ``'<None>'``)."""
    s = chainer.serializers.DictionarySerializer()
    s.save(obj)
    return {k: numpy.array('<None>') if v.dtype == object else v for k, v in s.target.items()}


class Case:
    """One object that serializes, and how to exercise it."""

    points = ('end',)
    # The trainer-level cases let the global generator run on (their files restore it);
    # the others reseed it before carrying on, so that both sides draw alike.
    reseed = True
    # True where Chainer 7.8.1's own run depends on thread timing (its MultiprocessIterator
    # draws the next orders in a background thread): no comparison with its uninterrupted run.
    racy = False
    deterministic = False
    slow = False
    formats = ('npz', 'h5')
    compression = True

    def make_loaded(self, workdir, source):
        """A fresh object already loaded from ``source``, or ``None``: the runner loads."""
        return None

    def __init__(self, name, covers=()):
        self.name = name
        self.covers = tuple(covers)

    def make(self, workdir):
        raise NotImplementedError

    def target(self, ctx):
        return ctx

    def advance(self, ctx, point):
        pass

    def carry_on(self, ctx, point):
        pass

    def run(self, ctx, point, save):
        """The uninterrupted run: advance, save, carry on."""
        self.advance(ctx, point)
        save(self.target(ctx))
        if self.reseed:
            numpy.random.seed(99)
        self.carry_on(ctx, point)

    def resume(self, ctx, point):
        """Carries on after a load."""
        if self.reseed:
            numpy.random.seed(99)
        self.carry_on(ctx, point)

    def observe(self, ctx, point):
        return dump(self.target(ctx))

    def close(self, ctx):
        pass


# ---- links ----------------------------------------------------------------------------------

class LinkCase(Case):
    """A link: its parameters and persistent values (after a first call where one is given)."""

    def __init__(self, name, make, covers, call=None):
        super().__init__(name, covers)
        self._make = make
        self._call = call

    def make(self, workdir):
        return self._make()

    def advance(self, link, point):
        if self._call is not None:
            with chainer.using_config('train', True):
                self._call(link)

    def carry_on(self, link, point):
        if self._call is not None:
            if hasattr(link, 'reset_state'):
                # The state of a recurrent link is not saved: both start afresh.
                link.reset_state()
            with chainer.using_config('train', False):
                link._observed = _arrays(self._call(link))

    def observe(self, link, point):
        out = dump(link)
        for i, a in enumerate(getattr(link, '_observed', ())):
            out[f'<call>/{i}'] = a
        return out


def _arrays(result):
    if isinstance(result, (tuple, list)):
        out = []
        for r in result:
            out.extend(_arrays(r))
        return out
    return [numpy.asarray(getattr(result, 'array', result))]


def _x(*shape):
    return lambda link: link(_f32(*shape))


def _resnet():
    from chainer.links.model.vision import resnet
    return resnet


class _Persistents(chainer.Link):
    # Every kind of value a link keeps: parameters (one initialized lazily) and persistent
    # values of each type.
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.w = chainer.Parameter(chainer.initializers.Normal(), (2, 3))
            self.lazy = chainer.Parameter(chainer.initializers.Normal())
        self.add_persistent('count', 3)
        self.add_persistent('rate', 0.5)
        self.add_persistent('flag', True)
        self.add_persistent('nothing', None)
        self.add_persistent('table', numpy.arange(6, dtype=numpy.int32).reshape(2, 3))
        self.add_persistent('scalar', numpy.float32(1.5))

    def forward(self, x):
        if self.lazy.array is None:
            self.lazy.initialize((x.shape[1],))
        self.count += 1
        self.rate *= 0.5
        self.flag = not self.flag
        self.table += 1
        return F.matmul(x, self.w, transb=True)


class _Chain(chainer.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.inner = _Persistents()
            self.seq = chainer.Sequential(L.Linear(3, 4), F.relu, L.Linear(4, 2))
            self.stack = chainer.ChainList(L.Linear(3, 3), L.BatchNormalization(3))

    def forward(self, x):
        h = self.stack[1](self.stack[0](x))
        return self.seq(h) + self.inner(x)[:, :2]


_LINKS = [
    ('Chain', _Chain, ['link.Link', 'link.Chain', 'link.ChainList', 'sequential.Sequential'],
     _x(4, 3)),
    ('Linear', lambda: L.Linear(None, 3), ['connection.linear.Linear'], _x(2, 4)),
    ('Linear-nobias', lambda: L.Linear(4, 3, nobias=True), ['connection.linear.Linear'], None),
    ('Convolution2D', lambda: L.Convolution2D(None, 2, 3), ['connection.convolution_2d.Convolution2D'],
     _x(1, 2, 5, 5)),
    ('Convolution1D', lambda: L.Convolution1D(2, 3, 2), ['connection.convolution_nd.Convolution1D'],
     None),
    ('Convolution3D', lambda: L.Convolution3D(2, 3, 2), ['connection.convolution_nd.Convolution3D'],
     None),
    ('ConvolutionND', lambda: L.ConvolutionND(2, 2, 3, 2),
     ['connection.convolution_nd.ConvolutionND'], None),
    ('Deconvolution2D', lambda: L.Deconvolution2D(None, 2, 3),
     ['connection.deconvolution_2d.Deconvolution2D'], _x(1, 2, 3, 3)),
    ('Deconvolution1D', lambda: L.Deconvolution1D(2, 3, 2),
     ['connection.deconvolution_nd.Deconvolution1D'], None),
    ('Deconvolution3D', lambda: L.Deconvolution3D(2, 3, 2),
     ['connection.deconvolution_nd.Deconvolution3D'], None),
    ('DeconvolutionND', lambda: L.DeconvolutionND(2, 2, 3, 2),
     ['connection.deconvolution_nd.DeconvolutionND'], None),
    ('DeformableConvolution2D', lambda: L.DeformableConvolution2D(2, 3, 3),
     ['connection.deformable_convolution_2d.DeformableConvolution2D',
      'connection.deformable_convolution_2d.DeformableConvolution2DSampler'], None),
    ('DepthwiseConvolution2D', lambda: L.DepthwiseConvolution2D(None, 2, 3),
     ['connection.depthwise_convolution_2d.DepthwiseConvolution2D'], _x(1, 2, 4, 4)),
    ('DilatedConvolution2D', lambda: L.DilatedConvolution2D(None, 3, 3, dilate=2),
     ['connection.dilated_convolution_2d.DilatedConvolution2D'], _x(1, 2, 6, 6)),
    ('LocalConvolution2D', lambda: L.LocalConvolution2D(2, 3, (5, 5), 2),
     ['connection.local_convolution_2d.LocalConvolution2D'], None),
    ('MLPConvolution2D', lambda: L.MLPConvolution2D(None, (3, 4), 2),
     ['connection.mlp_convolution_2d.MLPConvolution2D'], _x(1, 2, 4, 4)),
    ('Bilinear', lambda: L.Bilinear(3, 4, 2), ['connection.bilinear.Bilinear'], None),
    ('EmbedID', lambda: L.EmbedID(7, 3, ignore_label=-1), ['connection.embed_id.EmbedID'], None),
    ('Highway', lambda: L.Highway(4), ['connection.highway.Highway'], None),
    ('Inception', lambda: L.Inception(3, 2, 2, 3, 2, 3, 2), ['connection.inception.Inception'],
     None),
    ('InceptionBN', lambda: L.InceptionBN(3, 2, 2, 3, 2, 3, 'max', 2),
     ['connection.inceptionbn.InceptionBN'], _x(2, 3, 5, 5)),
    ('Parameter', lambda: L.Parameter(numpy.arange(3, dtype=numpy.float32)),
     ['connection.parameter.Parameter'], None),
    ('Bias', lambda: L.Bias(shape=(3,)), ['connection.bias.Bias'], None),
    ('Scale', lambda: L.Scale(W_shape=(3,), bias_term=True), ['connection.scale.Scale'], None),
    ('Maxout', lambda: L.Maxout(4, 3, 2), ['activation.maxout.Maxout'], None),
    ('PReLU', lambda: L.PReLU(), ['activation.prelu.PReLU'], None),
    ('Swish', lambda: L.Swish(None), ['activation.swish.Swish'], _x(2, 3)),
    ('SimplifiedDropconnect', lambda: L.SimplifiedDropconnect(None, 3),
     ['activation.simplified_dropconnect.SimplifiedDropconnect'], _x(2, 4)),
    ('BlackOut', lambda: L.BlackOut(4, [3, 2, 1, 4], 2), ['loss.black_out.BlackOut'], None),
    ('CRF1d', lambda: L.CRF1d(3), ['loss.crf1d.CRF1d'], None),
    ('BinaryHierarchicalSoftmax', lambda: L.BinaryHierarchicalSoftmax(
        3, L.BinaryHierarchicalSoftmax.create_huffman_tree({0: 3, 1: 2, 2: 1})),
     ['loss.hierarchical_softmax.BinaryHierarchicalSoftmax'], None),
    ('NegativeSampling', lambda: L.NegativeSampling(3, [3, 2, 1, 4], 2),
     ['loss.negative_sampling.NegativeSampling'], None),
    ('Classifier', lambda: L.Classifier(L.Linear(3, 2)), ['model.classifier.Classifier'], None),
    ('BatchNormalization', lambda: L.BatchNormalization(3),
     ['normalization.batch_normalization.BatchNormalization'], _x(4, 3)),
    ('BatchNormalization-lazy', lambda: L.BatchNormalization(axis=0, use_gamma=False),
     ['normalization.batch_normalization.BatchNormalization'], _x(4, 3)),
    ('BatchRenormalization', lambda: L.BatchRenormalization(3),
     ['normalization.batch_renormalization.BatchRenormalization'], _x(4, 3)),
    ('DecorrelatedBatchNormalization', lambda: L.DecorrelatedBatchNormalization(4, groups=2),
     ['normalization.decorrelated_batch_normalization.DecorrelatedBatchNormalization'],
     _x(5, 4)),
    ('GroupNormalization', lambda: L.GroupNormalization(2, 4),
     ['normalization.group_normalization.GroupNormalization'], None),
    ('LayerNormalization', lambda: L.LayerNormalization(None),
     ['normalization.layer_normalization.LayerNormalization'], _x(2, 4)),
    ('StatelessGRU', lambda: L.StatelessGRU(3, 4), ['rnn.gru.StatelessGRU', 'rnn.gru.GRUBase'],
     None),
    ('StatefulGRU', lambda: L.StatefulGRU(3, 4), ['rnn.gru.StatefulGRU'], None),
    ('GRU', lambda: L.GRU(3, 4), ['rnn.gru.GRU'], None),
    ('LSTM', lambda: L.LSTM(None, 4), ['rnn.lstm.LSTM', 'rnn.lstm.LSTMBase'], _x(2, 3)),
    ('StatelessLSTM', lambda: L.StatelessLSTM(3, 4), ['rnn.lstm.StatelessLSTM'], None),
    ('StatefulMGU', lambda: L.StatefulMGU(3, 4), ['rnn.mgu.StatefulMGU', 'rnn.mgu.MGUBase'], None),
    ('StatelessMGU', lambda: L.StatelessMGU(3, 4), ['rnn.mgu.StatelessMGU'], None),
    ('StatefulPeepholeLSTM', lambda: L.StatefulPeepholeLSTM(3, 4),
     ['rnn.peephole.StatefulPeepholeLSTM'], None),
    ('StatefulZoneoutLSTM', lambda: L.StatefulZoneoutLSTM(3, 4),
     ['rnn.zoneoutlstm.StatefulZoneoutLSTM'], None),
    ('ChildSumTreeLSTM', lambda: L.ChildSumTreeLSTM(3, 4), ['rnn.tree_lstm.ChildSumTreeLSTM'],
     None),
    ('NaryTreeLSTM', lambda: L.NaryTreeLSTM(3, 4, n_ary=2), ['rnn.tree_lstm.NaryTreeLSTM'], None),
    ('NStepLSTM', lambda: L.NStepLSTM(2, 3, 4, 0.5),
     ['rnn.n_step_lstm.NStepLSTM', 'rnn.n_step_lstm.NStepLSTMBase',
      'rnn.n_step_rnn.NStepRNNBase'], None),
    ('NStepBiLSTM', lambda: L.NStepBiLSTM(2, 3, 4, 0.5), ['rnn.n_step_lstm.NStepBiLSTM'], None),
    ('NStepGRU', lambda: L.NStepGRU(2, 3, 4, 0.5),
     ['rnn.n_step_gru.NStepGRU', 'rnn.n_step_gru.NStepGRUBase'], None),
    ('NStepBiGRU', lambda: L.NStepBiGRU(1, 3, 4, 0.5), ['rnn.n_step_gru.NStepBiGRU'], None),
    ('NStepRNNTanh', lambda: L.NStepRNNTanh(2, 3, 4, 0.5), ['rnn.n_step_rnn.NStepRNNTanh'], None),
    ('NStepRNNReLU', lambda: L.NStepRNNReLU(1, 3, 4, 0.5), ['rnn.n_step_rnn.NStepRNNReLU'], None),
    ('NStepBiRNNTanh', lambda: L.NStepBiRNNTanh(1, 3, 4, 0.5), ['rnn.n_step_rnn.NStepBiRNNTanh'],
     None),
    ('NStepBiRNNReLU', lambda: L.NStepBiRNNReLU(1, 3, 4, 0.5), ['rnn.n_step_rnn.NStepBiRNNReLU'],
     None),
    ('ResNet-BuildingBlock', lambda: _resnet().BuildingBlock(2, 4, 2, 6, 1),
     ['model.vision.resnet.BuildingBlock', 'model.vision.resnet.BottleneckA',
      'model.vision.resnet.BottleneckB'], _x(1, 4, 4, 4)),
]
for _name, _make, _covers, _call in _LINKS:
    _register(LinkCase('link-' + _name, _make,
                       ['chainer.' + c if c.startswith(('link.', 'sequential.'))
                        else 'chainer.links.' + c for c in _covers], call=_call))


class VisionModelCase(LinkCase):
    """A pretrained-model class: only more of the links above, but hundreds of megabytes.

    Saved to ``.npz`` only (uncompressed), loaded the way users load weights
    (``pretrained_model=<file>``), and observed through a digest of each array.
    """

    slow = True
    formats = ('npz',)
    compression = False

    def __init__(self, name, cls_name, covers):
        super().__init__(name, lambda: getattr(L, cls_name)(pretrained_model=None), covers)
        self._cls_name = cls_name

    def make_loaded(self, workdir, source):
        return getattr(L, self._cls_name)(pretrained_model=source)

    def observe(self, link, point):
        return {k: numpy.array([v.size, numpy.sum(v, dtype=numpy.float64),
                                numpy.sum(numpy.square(v, dtype=numpy.float64))])
                if v.dtype.kind in 'fiu' else v for k, v in dump(link).items()}


for _name, _covers in (('GoogLeNet', ['GoogLeNet']),
                       ('ResNet50Layers', ['ResNet50Layers', 'ResNetLayers']),
                       ('ResNet101Layers', ['ResNet101Layers']),
                       ('ResNet152Layers', ['ResNet152Layers']),
                       ('VGG16Layers', ['VGG16Layers', 'VGGLayers']),
                       ('VGG19Layers', ['VGG19Layers'])):
    _module = {'G': 'googlenet', 'R': 'resnet', 'V': 'vgg'}[_name[0]]
    _register(VisionModelCase('link-' + _name, _name,
                              [f'chainer.links.model.vision.{_module}.{c}' for c in _covers]))


# ---- optimizers -----------------------------------------------------------------------------

class _Net(chainer.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(4, 5)
            self.l2 = L.Linear(5, 3)
            self.frozen = L.Linear(3, 3)
        self.frozen.disable_update()

    def forward(self, x):
        return self.l2(F.tanh(self.l1(x)))


class _ModelAndOptimizer:
    # What a training script saves for an optimizer: the model and its optimizer together.
    def __init__(self, model, optimizer):
        self.model = model
        self.optimizer = optimizer

    def serialize(self, serializer):
        self.model.serialize(serializer['model'])
        self.optimizer.serialize(serializer['optimizer'])


class OptimizerCase(Case):
    """An optimizer (with hooks) after some updates; ``end`` also starts a new epoch."""

    points = ('mid', 'end')

    def __init__(self, name, make, covers, hooks=()):
        super().__init__(name, covers)
        self._make = make
        self._hooks = hooks

    def make(self, workdir):
        model = _Net()
        optimizer = self._make()
        optimizer.setup(model)
        for hook in self._hooks:
            optimizer.add_hook(hook())
        return _ModelAndOptimizer(model, optimizer)

    def _update(self, pair, step):
        x = _f32(6, 4, seed=step)
        t = _rs(step).randint(0, 3, 6).astype(numpy.int32)
        pair.optimizer.update(lambda: F.softmax_cross_entropy(pair.model(x), t))

    def advance(self, pair, point):
        for step in range(3):
            self._update(pair, step)
        if point == 'end':
            pair.optimizer.new_epoch()

    def carry_on(self, pair, point):
        for step in range(3, 6):
            self._update(pair, step)


_OPTIMIZERS = [
    ('AdaDelta', lambda: chainer.optimizers.AdaDelta(), ['ada_delta.AdaDelta',
                                                         'ada_delta.AdaDeltaRule']),
    ('AdaGrad', lambda: chainer.optimizers.AdaGrad(), ['ada_grad.AdaGrad', 'ada_grad.AdaGradRule']),
    ('Adam', lambda: chainer.optimizers.Adam(), ['adam.Adam', 'adam.AdamRule']),
    ('AdamW', lambda: chainer.optimizers.AdamW(weight_decay_rate=0.1), ['adam.AdamW']),
    ('AMSGrad', lambda: chainer.optimizers.AMSGrad(), ['adam.AMSGrad']),
    ('AdaBound', lambda: chainer.optimizers.AdaBound(), ['adam.AdaBound']),
    ('AMSBound', lambda: chainer.optimizers.AMSBound(), ['adam.AMSBound']),
    ('CorrectedMomentumSGD', lambda: chainer.optimizers.CorrectedMomentumSGD(),
     ['corrected_momentum_sgd.CorrectedMomentumSGD',
      'corrected_momentum_sgd.CorrectedMomentumSGDRule']),
    ('MomentumSGD', lambda: chainer.optimizers.MomentumSGD(),
     ['momentum_sgd.MomentumSGD', 'momentum_sgd.MomentumSGDRule']),
    ('MSVAG', lambda: chainer.optimizers.MSVAG(), ['msvag.MSVAG', 'msvag.MSVAGRule']),
    ('NesterovAG', lambda: chainer.optimizers.NesterovAG(),
     ['nesterov_ag.NesterovAG', 'nesterov_ag.NesterovAGRule']),
    ('RMSprop', lambda: chainer.optimizers.RMSprop(), ['rmsprop.RMSprop', 'rmsprop.RMSpropRule']),
    ('RMSpropGraves', lambda: chainer.optimizers.RMSpropGraves(),
     ['rmsprop_graves.RMSpropGraves', 'rmsprop_graves.RMSpropGravesRule']),
    ('SGD', lambda: chainer.optimizers.SGD(), ['sgd.SGD', 'sgd.SGDRule']),
    ('SMORMS3', lambda: chainer.optimizers.SMORMS3(), ['smorms3.SMORMS3', 'smorms3.SMORMS3Rule']),
]
for _name, _make, _covers in _OPTIMIZERS:
    _register(OptimizerCase('optimizer-' + _name, _make,
                            [OPT + c for c in _covers] + ['chainer.optimizer.Optimizer',
                                                          'chainer.optimizer.GradientMethod',
                                                          'chainer.optimizer.UpdateRule'],
                            hooks=[lambda: chainer.optimizer_hooks.WeightDecay(1e-3)]))
# Every optimizer hook at once (the hooks keep no state of their own).
_register(OptimizerCase('optimizer-MomentumSGD-hooks', lambda: chainer.optimizers.MomentumSGD(),
                        [OPT + 'momentum_sgd.MomentumSGD'], hooks=[
                            lambda: chainer.optimizer_hooks.WeightDecay(1e-3),
                            lambda: chainer.optimizer_hooks.Lasso(1e-3),
                            lambda: chainer.optimizer_hooks.GradientClipping(1.0),
                            lambda: chainer.optimizer_hooks.GradientHardClipping(-0.1, 0.1),
                            lambda: chainer.optimizer_hooks.GradientNoise(0.01),
                            lambda: chainer.optimizer_hooks.GradientLARS(),
                        ]))


# ---- iterators ------------------------------------------------------------------------------

class IteratorCase(Case):
    """An iterator: saved mid-epoch or at an epoch's end, then the next batches."""

    points = ('mid', 'end')

    def __init__(self, name, make, covers, racy=False, batches=None):
        super().__init__(name, covers)
        self._make = make
        self.racy = racy
        self._batches = batches or {'mid': 4, 'end': 5}

    def make(self, workdir):
        return self._make()

    def advance(self, it, point):
        for _ in range(self._batches[point]):
            it.next()

    def carry_on(self, it, point):
        seen = []
        for _ in range(7):
            try:
                batch = it.next()
            except StopIteration:
                seen.append([-1])
                break
            seen.append(list(batch) + [it.epoch, it.is_new_epoch, it.epoch_detail,
                                       it.previous_epoch_detail])
        it._seen = seen

    def observe(self, it, point):
        out = {f'<batch>/{i}': numpy.array(b, numpy.float64)
               for i, b in enumerate(getattr(it, '_seen', []))}
        out['<epoch_detail>'] = numpy.array(it.epoch_detail)
        return out

    def close(self, it):
        if hasattr(it, 'finalize'):
            it.finalize()


_DATA = list(range(10))  # batches of 2 (5 a epoch): `mid` after 4 batches, `end` after 5
for _shuffle in (True, False):
    _s = '' if _shuffle else '-noshuffle'
    _register(IteratorCase(
        'iterator-serial' + _s,
        (lambda s: lambda: chainer.iterators.SerialIterator(_DATA, 2, shuffle=s))(_shuffle),
        ['chainer.iterators.serial_iterator.SerialIterator', 'chainer.dataset.iterator.Iterator']))
    _register(IteratorCase(
        'iterator-multithread' + _s,
        (lambda s: lambda: chainer.iterators.MultithreadIterator(_DATA, 2, shuffle=s,
                                                                 n_threads=2))(_shuffle),
        ['chainer.iterators.multithread_iterator.MultithreadIterator']))
    _process = IteratorCase(
        'iterator-multiprocess' + _s,
        (lambda s: lambda: chainer.iterators.MultiprocessIterator(_DATA, 2, shuffle=s,
                                                                  n_processes=2))(_shuffle),
        ['chainer.iterators.multiprocess_iterator.MultiprocessIterator'], racy=True)
    _register(_process)
_register(IteratorCase(
    'iterator-serial-norepeat',
    lambda: chainer.iterators.SerialIterator(_DATA, 3, repeat=False),
    ['chainer.iterators.serial_iterator.SerialIterator'], batches={'mid': 2, 'end': 4}))
_register(IteratorCase(
    'iterator-multiprocess-prefetch',
    lambda: chainer.iterators.MultiprocessIterator(_DATA, 3, n_processes=1, n_prefetch=3),
    ['chainer.iterators.multiprocess_iterator.MultiprocessIterator'], racy=True,
    batches={'mid': 2, 'end': 10}))


# ---- the reporter's summaries ---------------------------------------------------------------

class SummaryCase(Case):
    """A Summary or DictSummary: values (and weights) added, then more, then the statistics."""

    points = ('mid',)

    def __init__(self, name, make, add, covers):
        super().__init__(name, covers)
        self._make = make
        self._add = add

    def make(self, workdir):
        return self._make()

    def advance(self, summary, point):
        for step in range(3):
            self._add(summary, step)

    def carry_on(self, summary, point):
        for step in range(3, 5):
            self._add(summary, step)

    def observe(self, summary, point):
        out = dump(summary)
        stats = summary.make_statistics()
        if isinstance(stats, dict):
            for k, v in sorted(stats.items()):
                out['<stats>/' + k] = numpy.asarray(v)
        else:
            out['<stats>/mean'], out['<stats>/std'] = map(numpy.asarray, stats)
        return out


def _add_scalars(summary, step):
    summary.add(numpy.float32(step * 0.5 + 1))
    summary.add(step, weight=2)


def _add_weighted(summary, step):
    summary.add(numpy.array(step * 0.25, numpy.float32), weight=0.5)


def _add_dict(summary, step):
    summary.add({'loss': numpy.float32(step + 0.5), 'acc': (numpy.float64(step), 3),
                 'var': chainer.Variable(numpy.array(step * 2., numpy.float32)),
                 'count': step, 'vector': numpy.zeros(3)})


_register(SummaryCase('reporter-Summary', chainer.reporter.Summary, _add_scalars,
                      ['chainer.reporter.Summary']))
_register(SummaryCase('reporter-Summary-weighted', chainer.reporter.Summary, _add_weighted,
                      ['chainer.reporter.Summary']))
_register(SummaryCase('reporter-DictSummary', chainer.reporter.DictSummary, _add_dict,
                      ['chainer.reporter.DictSummary']))


# ---- trainers: updaters, triggers, extensions -------------------------------------------------

N_EXAMPLES = 20
BATCH = 4          # 5 iterations an epoch
SAVE_AT = {'mid': 7, 'end': 10}
TOTAL = 14


class _MLP(chainer.Chain):
    def __init__(self, dropout=0.3):
        super().__init__()
        self.dropout = dropout
        with self.init_scope():
            self.l1 = L.Linear(4, 6)
            self.l2 = L.Linear(6, 3)

    def forward(self, x):
        h = F.relu(self.l1(x))
        if self.dropout:
            h = F.dropout(h, self.dropout)
        return self.l2(h)


class _Counting(chainer.Chain):
    # A classifier that also reports the counts MicroAverage sums.
    def __init__(self, predictor):
        super().__init__()
        with self.init_scope():
            self.predictor = predictor

    def forward(self, x, t):
        y = self.predictor(x)
        loss = F.softmax_cross_entropy(y, t)
        correct = float((y.array.argmax(axis=1) == t).sum())
        chainer.report({'loss': loss, 'correct': correct, 'total': float(len(t))}, self)
        return loss


def _dataset(seed=3):
    rs = _rs(seed)
    x = rs.uniform(-1, 1, (N_EXAMPLES, 4)).astype(numpy.float32)
    t = rs.randint(0, 3, N_EXAMPLES).astype(numpy.int32)
    return chainer.datasets.TupleDataset(x, t)


class _Probe(training.Extension):
    # Records the iterations at which its trigger fired.
    def __init__(self):
        self.fired = []

    def __call__(self, trainer):
        self.fired.append(trainer.updater.iteration)


class _Saver(training.Extension):
    # Saves the trainer at one iteration, after every other extension (as snapshots do).
    priority = -1000

    def __init__(self):
        self.at = None
        self.save = None

    def __call__(self, trainer):
        if self.save is not None and trainer.updater.iteration == self.at:
            self.save(trainer)


class TrainerCase(Case):
    """A Trainer: saved at iteration 7 (mid-epoch) or 10 (an epoch's end), run to 14.

    ``extend(trainer, ctx)`` adds what the case is about; every trainer has a LogReport
    (whose log, without the times, is observed), a probe per named trigger, and the saver.
    """

    points = ('mid', 'end')
    reseed = False

    def __init__(self, name, covers, extend=None, triggers=(), iterator='serial', updater=None,
                 model=None, optimizer=None, stop_trigger=None, observe=None, racy=False,
                 deterministic=False):
        super().__init__(name, covers)
        # Without dropout and shuffling: a run resumed from any file can be compared with
        # the uninterrupted one.
        self.deterministic = deterministic
        self._extend = extend
        self._triggers = triggers
        self._iterator = iterator
        self._updater = updater
        self._model = model
        self._optimizer = optimizer
        self._stop_trigger = stop_trigger
        self._observe = observe
        self.racy = racy

    def make(self, workdir):
        out = os.path.join(workdir, 'trainer-out')
        model = self._model() if self._model else L.Classifier(
            _MLP(0 if self.deterministic else 0.3))
        optimizer = (self._optimizer or (lambda: chainer.optimizers.MomentumSGD(lr=0.1)))()
        optimizer.setup(model)
        optimizer.add_hook(chainer.optimizer_hooks.WeightDecay(1e-4))
        data = _dataset()
        if self._iterator == 'serial':
            iterator = chainer.iterators.SerialIterator(data, BATCH,
                                                        shuffle=not self.deterministic)
        elif self._iterator == 'thread':
            iterator = chainer.iterators.MultithreadIterator(data, BATCH, n_threads=2)
        else:
            iterator = chainer.iterators.MultiprocessIterator(data, BATCH, n_processes=2)
        if self._updater == 'parallel':
            updater = training.updaters.ParallelUpdater(
                iterator, optimizer, devices={'main': -1, 'second': -1})
        else:
            updater = training.updaters.StandardUpdater(iterator, optimizer)
        stop = self._stop_trigger() if self._stop_trigger else (TOTAL, 'iteration')
        trainer = training.Trainer(updater, stop, out=out)
        trainer.extend(E.LogReport(trigger=(1, 'iteration'), log_name=None))
        for i, trigger in enumerate(self._triggers):
            trainer.extend(_Probe(), name=f'probe{i}', trigger=trigger())
        if self._extend is not None:
            self._extend(trainer, model)
        trainer.extend(_Saver(), trigger=(1, 'iteration'))
        return trainer

    def run(self, trainer, point, save):
        saver = trainer.get_extension('_Saver')
        saver.at = SAVE_AT[point]
        saver.save = save
        trainer.run()

    def resume(self, trainer, point):
        trainer.run()

    def observe(self, trainer, point):
        at = SAVE_AT[point]
        out = dump(trainer.updater.get_optimizer('main').target)
        out['<iteration>'] = numpy.array(trainer.updater.iteration)
        out['<epoch_detail>'] = numpy.array(trainer.updater.epoch_detail)
        out['<lr>'] = numpy.array(getattr(trainer.updater.get_optimizer('main'), 'lr', 0.))
        log = trainer.get_extension('LogReport').log
        for key in sorted({k for entry in log for k in entry} - {'elapsed_time'}):
            out['<log>/' + key] = numpy.array([entry.get(key, numpy.nan) for entry in log],
                                              numpy.float64)
        for i in range(len(self._triggers)):
            fired = [n for n in trainer.get_extension(f'probe{i}').fired if n > at]
            out[f'<fired>/{i}'] = numpy.array(fired, numpy.int64)
        if self._observe is not None:
            out.update(self._observe(trainer))
        return out

    def close(self, trainer):
        iterator = trainer.updater.get_iterator('main')
        if hasattr(iterator, 'finalize'):
            iterator.finalize()


_TRAINER = ['chainer.training.trainer.Trainer', 'chainer.training._updater.Updater',
            'chainer.training.updaters.standard_updater.StandardUpdater',
            EXT + 'log_report.LogReport', 'chainer.training.extension.Extension',
            TRIG + 'interval_trigger.IntervalTrigger', 'chainer.reporter.DictSummary',
            'chainer.reporter.Summary']


def _case(name, covers=(), **kwargs):
    return _register(TrainerCase(name, _TRAINER + list(covers), **kwargs))


def _extend(*makers):
    def extend(trainer, model):
        for make in makers:
            extension, kwargs = make(trainer, model)
            trainer.extend(extension, **kwargs)
    return extend


_case('trainer')
_case('trainer-multithread', iterator='thread')
# No dropout: Chainer's MultiprocessIterator draws orders in a background thread, which
# would race with the masks.
_case('trainer-multiprocess', iterator='process', model=lambda: L.Classifier(_MLP(0)),
      racy=True)
_case('updater-ParallelUpdater', ['chainer.training.updaters.parallel_updater.ParallelUpdater'],
      updater='parallel', deterministic=True)
_case('optimizer-Adam-in-trainer', [OPT + 'adam.Adam', OPT + 'adam.AdamRule'],
      optimizer=lambda: chainer.optimizers.Adam())

# Triggers: each drives a probe; after a load it must fire where it would have.
_case('trigger-IntervalTrigger', [TRIG + 'interval_trigger.IntervalTrigger'], triggers=[
    lambda: T.IntervalTrigger(3, 'iteration'), lambda: T.IntervalTrigger(1, 'epoch'),
    lambda: (2, 'epoch')])
_case('trigger-ManualScheduleTrigger', [TRIG + 'manual_schedule_trigger.ManualScheduleTrigger'],
      triggers=[lambda: T.ManualScheduleTrigger([3, 8, 12], 'iteration'),
                lambda: T.ManualScheduleTrigger([1, 2], 'epoch'),
                lambda: T.ManualScheduleTrigger(2.5, 'epoch')])
_case('trigger-MinValueTrigger', [TRIG + 'minmax_value_trigger.MinValueTrigger',
                                  TRIG + 'minmax_value_trigger.BestValueTrigger'],
      triggers=[lambda: T.MinValueTrigger('main/loss', (2, 'iteration'))])
_case('trigger-MaxValueTrigger', [TRIG + 'minmax_value_trigger.MaxValueTrigger'],
      triggers=[lambda: T.MaxValueTrigger('main/accuracy', (1, 'epoch'))])
_case('trigger-BestValueTrigger', [TRIG + 'minmax_value_trigger.BestValueTrigger'],
      triggers=[lambda: T.BestValueTrigger('main/loss', lambda best, v: v < best * 1.05,
                                           (3, 'iteration'))])
_case('trigger-OnceTrigger', [TRIG + 'once_trigger.OnceTrigger'],
      triggers=[T.OnceTrigger, lambda: T.OnceTrigger(call_on_resume=True)])
_case('trigger-TimeTrigger', [TRIG + 'time_trigger.TimeTrigger'],
      triggers=[lambda: T.TimeTrigger(3600.)])
_case('trigger-EarlyStoppingTrigger', stop_trigger=lambda: T.EarlyStoppingTrigger(
    check_trigger=(2, 'iteration'), monitor='main/loss', patience=3,
    max_trigger=(TOTAL, 'iteration')))

# Extensions.
_SHIFTS = [
    ('ExponentialShift', lambda: E.ExponentialShift('lr', 0.9)),
    ('InverseShift', lambda: E.InverseShift('lr', 0.1, 0.5)),
    ('LinearShift', lambda: E.LinearShift('lr', (0.1, 0.01), (2, 12))),
    ('MultistepShift', lambda: E.MultistepShift('lr', 0.5, [3, 8], 0.1)),
    ('PolynomialShift', lambda: E.PolynomialShift('lr', 0.5, TOTAL)),
    ('StepShift', lambda: E.StepShift('lr', 0.5, 4)),
    ('WarmupShift', lambda: E.WarmupShift('lr', 0.01, 5, 0.1)),
]
for _name, _make in _SHIFTS:
    _module = {'ExponentialShift': 'exponential_shift', 'InverseShift': 'inverse_shift',
               'LinearShift': 'linear_shift', 'MultistepShift': 'multistep_shift',
               'PolynomialShift': 'polynomial_shift', 'StepShift': 'step_shift',
               'WarmupShift': 'warmup_shift'}[_name]
    _case('extension-' + _name, [f'{EXT}{_module}.{_name}'],
          extend=_extend((lambda m: lambda t, model: (m(), {'trigger': (1, 'iteration')}))(_make),
                         lambda t, model: (E.observe_lr(), {'trigger': (1, 'iteration')})),
          deterministic=True)

_case('extension-PrintReport-ProgressBar',
      [EXT + 'print_report.PrintReport', EXT + 'progress_bar.ProgressBar'],
      extend=_extend(
          lambda t, model: (E.PrintReport(['epoch', 'iteration', 'main/loss'],
                                          out=io.StringIO()), {}),
          lambda t, model: (E.PrintReport(['epoch', 'main/accuracy'],
                                          log_report=E.LogReport(trigger=(2, 'iteration'),
                                                                 log_name=None),
                                          out=io.StringIO()), {'name': 'print2'}),
          lambda t, model: (E.ProgressBar(update_interval=1, out=io.StringIO()), {})))


def _validation(trainer, model):
    data = _dataset(seed=11)
    iterator = chainer.iterators.SerialIterator(data, 6, repeat=False, shuffle=False)
    return E.Evaluator(iterator, model), {'trigger': (3, 'iteration')}


_case('extension-Evaluator', [EXT + 'evaluator.Evaluator'], extend=_extend(_validation))
_case('extension-ParameterStatistics', [EXT + 'parameter_statistics.ParameterStatistics'],
      extend=_extend(lambda t, model: (E.ParameterStatistics(
          model.predictor.l1, trigger=(2, 'iteration')), {})))
_case('extension-MicroAverage', [EXT + 'micro_average.MicroAverage'],
      model=lambda: _Counting(_MLP()),
      extend=_extend(lambda t, model: (E.MicroAverage('main/correct', 'main/total',
                                                       'main/micro', trigger=(3, 'iteration')),
                                       {})))
_case('extension-FailOnNonNumber', [EXT + 'fail_on_nonnumber.FailOnNonNumber'],
      extend=_extend(lambda t, model: (E.FailOnNonNumber(), {})))
_case('extension-DumpGraph', [EXT + 'computational_graph.DumpGraph'],
      extend=_extend(lambda t, model: (E.DumpGraph('main/loss'), {})))
_case('extension-unchain_variables', [EXT + 'variable_unchain.unchain_variables'],
      extend=_extend(lambda t, model: (E.unchain_variables(), {})))
_case('extension-observe_value', extend=_extend(
    lambda t, model: (E.observe_value('w_sum', lambda tr: float(model.predictor.l1.W.array.sum())),
                      {'trigger': (1, 'iteration')})))
_case('extension-snapshot', extend=_extend(
    lambda t, model: (E.snapshot(filename='snap_{.updater.iteration}'), {'trigger': (4, 'iteration')}),
    lambda t, model: (E.snapshot_object(model, 'model_{.updater.iteration}'),
                      {'trigger': (5, 'iteration')})))
_case('extension-PlotReport', [EXT + 'plot_report.PlotReport'], extend=_extend(
    lambda t, model: (E.PlotReport(['main/loss'], 'iteration', trigger=(4, 'iteration'),
                                   filename='loss.png'), {})))
_case('extension-VariableStatisticsPlot',
      [EXT + 'variable_statistics_plot.VariableStatisticsPlot'], extend=_extend(
          lambda t, model: (E.VariableStatisticsPlot(model.predictor.l1,
                                                     trigger=(6, 'iteration')), {})))


def _everything(trainer, model):
    # A trainer with every kind of part at once, as a user's script would have.
    _extend(_validation,
            lambda t, m: (E.ExponentialShift('lr', 0.95), {'trigger': (1, 'iteration')}),
            lambda t, m: (E.observe_lr(), {'trigger': (1, 'iteration')}),
            lambda t, m: (E.PrintReport(['epoch', 'main/loss', 'lr'], out=io.StringIO()), {}),
            lambda t, m: (E.ParameterStatistics(m.predictor.l2, trigger=(5, 'iteration')), {}),
            lambda t, m: (E.MicroAverage('main/correct', 'main/total', 'main/micro'), {}),
            lambda t, m: (E.snapshot(filename='snap'), {'trigger': (1, 'epoch')}),
            lambda t, m: (E.PlotReport(['main/loss'], trigger=(1, 'epoch')), {}),
            lambda t, m: (E.DumpGraph('main/loss'), {}),
            lambda t, m: (_Probe(), {'name': 'best', 'trigger': T.MinValueTrigger(
                'main/loss', (2, 'iteration'))}))(trainer, model)


_case('trainer-everything', model=lambda: _Counting(_MLP()), extend=_everything)


def reference_surface():
    """The classes with a ``serialize`` method on the public surface of the running chainer.

    Returns:
        list of str: ``module.qualname`` of each, sorted.
    """
    import importlib
    import inspect
    import pkgutil
    import warnings
    names = set()
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        modules = ['chainer']
        for info in pkgutil.walk_packages(chainer.__path__, 'chainer.', onerror=lambda n: None):
            parts = info.name.split('.')
            if any(p.startswith('_') for p in parts[1:]) or 'testing' in parts or \
                    'caffe' in parts or 'onnx' in info.name:
                continue
            modules.append(info.name)
        for name in modules:
            try:
                module = importlib.import_module(name)
            except Exception:
                continue
            for attr, obj in vars(module).items():
                if attr.startswith('_') or not inspect.isclass(obj):
                    continue
                if not obj.__module__.startswith('chainer.'):
                    continue
                if callable(getattr(obj, 'serialize', None)):
                    names.add(obj.__module__ + '.' + obj.__qualname__)
    return sorted(names)


def case_json():
    """The cases' names, points and flags (for the test, which does not import chainer twice)."""
    return json.dumps({name: {'points': c.points, 'covers': c.covers, 'racy': c.racy,
                              'slow': c.slow, 'formats': c.formats}
                       for name, c in CASES.items()})
