"""What draws random numbers, as code run on both frameworks after ``numpy.random.seed``.

Each case is a snippet run with ``numpy``, ``chainer``, ``F`` (functions), ``L`` (links),
``I`` (initializers), ``D`` (distributions) and ``x`` (a float32 array of shape (4, 6)) in
scope; it sets ``out`` to an array or a list of arrays. The runner records ``out`` and where
NumPy's global generator stands afterwards, on rechainer and on Chainer 7.8.1, for comparison.
This module imports nothing of chainer's: the reference's interpreter loads it too.
"""

# name -> code. Cases use small shapes; every random path of the public surface has one.
CASES = {}


def _case(name, code):
    CASES[name] = code


# Initializers, called on an array and through a link's parameter.
for _name in ('Normal', 'LeCunNormal', 'GlorotNormal', 'HeNormal', 'Uniform', 'LeCunUniform',
              'GlorotUniform', 'HeUniform', 'Orthogonal'):
    _case(f'initializer-{_name}',
          f'a = numpy.empty((5, 3, 2, 2), numpy.float32); I.{_name}()(a); out = a')
    _case(f'initializer-{_name}-float64-param',
          f'p = chainer.Parameter(I.{_name}(dtype=numpy.float64), (4, 7)); out = p.array')
_case('initializer-Orthogonal-wide', 'a = numpy.empty((3, 8), numpy.float32); '
      'I.Orthogonal(scale=2.)(a); out = a')
_case('initializer-Orthogonal-scalar', 'a = numpy.empty((), numpy.float32); '
      'I.Orthogonal()(a); out = a')
_case('initializer-Normal-scalar', 'a = numpy.empty((), numpy.float32); I.Normal()(a); out = a')
_case('initializer-generate_array', 'out = I.generate_array(I.HeNormal(), (3, 4), numpy)')

# Links: construction (and the first call where parameters are lazily initialized).
_LINKS = {
    'Linear': 'L.Linear(6, 5)',
    'Linear-lazy': 'L.Linear(None, 5)',
    'Convolution2D': 'L.Convolution2D(2, 3, 3)',
    'Convolution1D': 'L.Convolution1D(2, 3, 2)',
    'Convolution3D': 'L.Convolution3D(2, 3, 2)',
    'ConvolutionND': 'L.ConvolutionND(2, 2, 3, 2, nobias=True)',
    'Deconvolution2D': 'L.Deconvolution2D(2, 3, 3)',
    'Deconvolution1D': 'L.Deconvolution1D(2, 3, 2)',
    'Deconvolution3D': 'L.Deconvolution3D(2, 3, 2)',
    'DeconvolutionND': 'L.DeconvolutionND(2, 2, 3, 2)',
    'DepthwiseConvolution2D': 'L.DepthwiseConvolution2D(2, 2, 3)',
    'DilatedConvolution2D': 'L.DilatedConvolution2D(2, 3, 3, dilate=2)',
    'DeformableConvolution2D': 'L.DeformableConvolution2D(2, 3, 3)',
    'LocalConvolution2D': 'L.LocalConvolution2D(2, 3, (5, 5), 2)',
    'MLPConvolution2D': 'L.MLPConvolution2D(2, (3, 4), 2)',
    'Bilinear': 'L.Bilinear(3, 4, 2)',
    'EmbedID': 'L.EmbedID(7, 3)',
    'Highway': 'L.Highway(4)',
    'Inception': 'L.Inception(3, 2, 2, 3, 2, 3, 2)',
    'InceptionBN': 'L.InceptionBN(3, 2, 2, 3, 2, 3, "max", 2)',
    'Maxout': 'L.Maxout(4, 3, 2)',
    'PReLU': 'L.PReLU()',
    'Swish': 'L.Swish((3,))',
    'SimplifiedDropconnect': 'L.SimplifiedDropconnect(4, 3)',
    'Bias': 'L.Bias(shape=(3,))',
    'Scale': 'L.Scale(W_shape=(3,), bias_term=True)',
    'Parameter': 'L.Parameter(numpy.zeros(3, numpy.float32))',
    'BlackOut': 'L.BlackOut(4, [3, 2, 1, 4], 2)',
    'CRF1d': 'L.CRF1d(3)',
    'BinaryHierarchicalSoftmax': 'L.BinaryHierarchicalSoftmax(3, '
                                 'L.BinaryHierarchicalSoftmax.create_huffman_tree({0: 3, 1: 2, 2: 1}))',
    'NegativeSampling': 'L.NegativeSampling(3, [3, 2, 1, 4], 2)',
    'BatchNormalization': 'L.BatchNormalization(3)',
    'BatchRenormalization': 'L.BatchRenormalization(3)',
    'DecorrelatedBatchNormalization': 'L.DecorrelatedBatchNormalization(4, groups=2)',
    'GroupNormalization': 'L.GroupNormalization(2, 4)',
    'LayerNormalization': 'L.LayerNormalization(4)',
    'LSTM': 'L.LSTM(3, 4)',
    'LSTM-lazy': 'L.LSTM(None, 4)',
    'StatelessLSTM': 'L.StatelessLSTM(3, 4)',
    'GRU': 'L.GRU(3, 4)',
    'StatefulGRU': 'L.StatefulGRU(3, 4)',
    'StatelessGRU': 'L.StatelessGRU(3, 4)',
    'StatefulMGU': 'L.StatefulMGU(3, 4)',
    'StatelessMGU': 'L.StatelessMGU(3, 4)',
    'StatefulPeepholeLSTM': 'L.StatefulPeepholeLSTM(3, 4)',
    'StatefulZoneoutLSTM': 'L.StatefulZoneoutLSTM(3, 4)',
    'ChildSumTreeLSTM': 'L.ChildSumTreeLSTM(3, 4)',
    'NaryTreeLSTM': 'L.NaryTreeLSTM(3, 4, n_ary=2)',
    'NStepLSTM': 'L.NStepLSTM(2, 3, 4, 0.5)',
    'NStepBiLSTM': 'L.NStepBiLSTM(2, 3, 4, 0.5)',
    'NStepGRU': 'L.NStepGRU(2, 3, 4, 0.5)',
    'NStepBiGRU': 'L.NStepBiGRU(2, 3, 4, 0.5)',
    'NStepRNNTanh': 'L.NStepRNNTanh(2, 3, 4, 0.5)',
    'NStepRNNReLU': 'L.NStepRNNReLU(2, 3, 4, 0.5)',
    'NStepBiRNNTanh': 'L.NStepBiRNNTanh(2, 3, 4, 0.5)',
    'NStepBiRNNReLU': 'L.NStepBiRNNReLU(2, 3, 4, 0.5)',
    'GoogLeNet': 'L.GoogLeNet(pretrained_model=None)',
    'Classifier': 'L.Classifier(L.Linear(3, 2))',
    'Sequential': 'chainer.Sequential(L.Linear(3, 4), F.relu, L.Linear(4, 2))',
}
for _name, _code in _LINKS.items():
    _case(f'link-{_name}', f'link = {_code}; out = [p.array for _, p in sorted(link.namedparams())'
          f' if p.array is not None]')
# A big model, by a digest of each parameter.
_case('link-ResNet50Layers', 'link = L.ResNet50Layers(pretrained_model=None); '
      'out = [numpy.array([p.array.sum(dtype=numpy.float64), '
      '(p.array.astype(numpy.float64) ** 2).sum()]) for _, p in sorted(link.namedparams())]')
_case('link-Linear-lazy-call', 'link = L.Linear(None, 5); link(x); out = [link.W.array, link.b.array]')
_case('link-LSTM-lazy-call', 'link = L.LSTM(None, 4); link(x); '
      'out = [p.array for _, p in sorted(link.namedparams())]')
_case('link-EmbedID-ignore', 'link = L.EmbedID(5, 3, ignore_label=-1); out = link.W.array')

# Random functions, in training mode.
_case('dropout', 'out = F.dropout(x, 0.3).array')
_case('dropout-twice', 'out = [F.dropout(x).array, F.dropout(x * 2, 0.9).array]')
_case('dropout-float16', 'out = F.dropout(x.astype(numpy.float16), 0.5).array')
_case('dropout-float64', 'out = F.dropout(x.astype(numpy.float64), 0.5).array')
_case('dropout-return-mask', 'y, m = F.dropout(x, 0.5, return_mask=True); out = [y.array, m]')
_case('rrelu', 'out = F.rrelu(x - 0.5).array')
_case('rrelu-return-r', 'y, r = F.rrelu(x - 0.5, l=0.1, u=0.2, return_r=True); out = [y.array, r]')
_case('gaussian', 'out = F.gaussian(chainer.Variable(x), chainer.Variable(x - 1)).array')
_case('gumbel_softmax', 'out = F.gumbel_softmax(x, tau=0.5).array')
_case('zoneout', 'out = F.zoneout(x, x * 2, 0.4).array')
_case('simplified_dropconnect', 'w = numpy.arange(18, dtype=numpy.float32).reshape(3, 6); '
      'out = F.simplified_dropconnect(x, w, numpy.ones(3, numpy.float32), 0.5).array')
_case('link-SimplifiedDropconnect-call', 'link = L.SimplifiedDropconnect(6, 3); '
      'out = [link(x).array, link.W.array]')
_case('link-StatefulZoneoutLSTM-call', 'link = L.StatefulZoneoutLSTM(6, 3); link(x); '
      'out = link(x).array')
for _fn in ('n_step_lstm', 'n_step_bilstm', 'n_step_gru', 'n_step_bigru', 'n_step_rnn',
            'n_step_birnn'):
    _bi = 2 if 'bi' in _fn else 1
    _nw = {'lstm': 8, 'gru': 6, 'rnn': 2}[_fn.rsplit('_', 1)[1].replace('bi', '')]
    _h = f'h = numpy.zeros((2 * {_bi}, 2, 3), numpy.float32); '
    _c = 'c = h.copy(); ' if 'lstm' in _fn else ''
    _args = 'h, c' if 'lstm' in _fn else 'h'
    _case(f'function-{_fn}', (
        f'{_h}{_c}rs = numpy.random.RandomState(5); '
        f'ws = [[rs.uniform(-1, 1, (3, 4 if i < {_nw // 2} and l < {_bi} else 3 * ({_bi} if i < {_nw // 2} else 1))).astype(numpy.float32) '
        f'for i in range({_nw})] for l in range(2 * {_bi})]; '
        f'bs = [[rs.uniform(-1, 1, (3,)).astype(numpy.float32) for i in range({_nw})] '
        f'for l in range(2 * {_bi})]; '
        f'xs = [x[:2, :4], x[2:3, :4]]; '
        f'res = F.{_fn}(2, 0.4, {_args}, ws, bs, xs); '
        f'out = [v.array for v in res[:-1]] + [v.array for v in res[-1]]'))
_case('link-NStepLSTM-call', 'link = L.NStepLSTM(2, 4, 3, 0.4); '
      'hy, cy, ys = link(None, None, [x[:2, :4], x[2:, :4]]); out = [hy.array] + [y.array for y in ys]')

# Distributions' samples.
_DISTS = {
    'Normal': 'D.Normal(x, x + 1)',
    'LogNormal': 'D.LogNormal(x, x + 1)',
    'Laplace': 'D.Laplace(x, x + 1)',
    'Cauchy': 'D.Cauchy(x, x + 1)',
    'Gumbel': 'D.Gumbel(x, x + 1)',
    'Uniform': 'D.Uniform(low=x, high=x + 1)',
    'Exponential': 'D.Exponential(x + 1)',
    'Gamma': 'D.Gamma(x + 1, x + 2)',
    'Beta': 'D.Beta(x + 1, x + 2)',
    'Chisquare': 'D.Chisquare(x + 1)',
    'Pareto': 'D.Pareto(x + 1, x + 2)',
    'Poisson': 'D.Poisson(x + 1)',
    'Geometric': 'D.Geometric(x * 0.5 + 0.2)',
    'Bernoulli': 'D.Bernoulli(x * 0.5 + 0.2)',
    'Categorical': 'D.Categorical(F.softmax(x).array)',
    'OneHotCategorical': 'D.OneHotCategorical(F.softmax(x).array)',
    'Dirichlet': 'D.Dirichlet(x + 1)',
    'MultivariateNormal': 'D.MultivariateNormal(x[:, :2], scale_tril=numpy.broadcast_to('
                          'numpy.eye(2, dtype=numpy.float32), (4, 2, 2)).copy())',
    'Independent': 'D.Independent(D.Normal(x, x + 1))',
}
for _name, _code in _DISTS.items():
    _case(f'distribution-{_name}', f'd = {_code}; out = [d.sample().array, d.sample(3).array]')

# Hooks and utilities.
_case('GradientNoise', (
    'link = L.Linear(6, 3); opt = chainer.optimizers.SGD(); opt.setup(link); '
    'opt.add_hook(chainer.optimizer_hooks.GradientNoise(0.3)); '
    'link.cleargrads(); F.sum(link(x)).backward(); opt.update(); out = [link.W.array, link.b.array]'))
_case('SpectralNormalization', (
    'import chainer.link_hooks; '
    'link = L.Linear(6, 3); link.add_hook(chainer.link_hooks.SpectralNormalization()); '
    'y = link(x); out = [y.array, link.W_u]'))
_case('WalkerAlias', 'w = chainer.utils.WalkerAlias([0.1, 0.5, 0.4]); out = w.sample((3, 4))')
_case('NegativeSampling-call', (
    'link = L.NegativeSampling(6, [3, 2, 1, 4], 2); '
    'out = [link(x, numpy.array([0, 1, 2, 3], numpy.int32)).array, link.W.array]'))
_case('BlackOut-call', (
    'link = L.BlackOut(6, [3, 2, 1, 4], 2); '
    'out = [link(x, numpy.array([0, 1, 2, 3], numpy.int32)).array, link.W.array]'))
_case('check_backward', (
    'calls = []\n'
    'def f(v):\n'
    '    calls.append(1)\n'
    '    return v * v\n'
    'import chainer.gradient_check\n'
    'chainer.gradient_check.check_backward(f, x.astype(numpy.float64), '
    'numpy.ones((4, 6)), dtype=numpy.float64)\n'
    'out = numpy.array(len(calls))'))
_case('split_dataset_random', (
    'a, b = chainer.datasets.split_dataset_random(list(range(10)), 4, seed=3); '
    'out = numpy.array(list(a) + list(b))'))
_case('get_cross_validation_datasets_random', (
    'folds = chainer.datasets.get_cross_validation_datasets_random(list(range(7)), 3, seed=3); '
    'out = [numpy.array(list(t) + list(v)) for t, v in folds]'))

# Iterators: the order of batches and when permutations are drawn.
_ITERATORS = {
    'SerialIterator': 'chainer.iterators.SerialIterator(list(range(10)), 3)',
    'SerialIterator-noshuffle': 'chainer.iterators.SerialIterator(list(range(10)), 3, shuffle=False)',
    'SerialIterator-norepeat': 'chainer.iterators.SerialIterator(list(range(10)), 4, repeat=False)',
    'MultithreadIterator': 'chainer.iterators.MultithreadIterator(list(range(10)), 3, n_threads=2)',
    'MultiprocessIterator': 'chainer.iterators.MultiprocessIterator(list(range(10)), 3, '
                            'n_processes=2)',
    'MultiprocessIterator-prefetch3': 'chainer.iterators.MultiprocessIterator('
                                      'list(range(10)), 3, n_processes=2, n_prefetch=3)',
}
for _name, _code in _ITERATORS.items():
    # Where the generator stands after each batch (the prefetching iterators draw ahead).
    _case(f'iterator-{_name}', (
        f'it = {_code}\n'
        'out = []\n'
        'for _ in range(7):\n'
        '    try:\n'
        '        out.append(numpy.asarray(it.next()))\n'
        '    except StopIteration:\n'
        '        break\n'
        '    out.append(numpy.array(wait_for_position(it)))\n'
        'if hasattr(it, "finalize"): it.finalize()\n'))
