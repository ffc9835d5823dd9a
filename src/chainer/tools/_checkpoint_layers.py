"""The layers that ``convert_checkpoint`` converts: one entry per kind of layer.

An entry says which Chainer links it covers, how to recognise their parameters in an ``.npz``
file and in a PyTorch ``state_dict`` (so that files convert without the model's code), how the
arrays map onto each other, and which PyTorch module computes the same function. A new layer is
one more entry in :data:`LAYERS`.

Keys inside an entry are relative to the layer: Chainer's ``W``, ``upward/W``, ``0/w0``;
PyTorch's ``weight``, ``weight_ih_l0``.
"""
import functools
import re

import numpy


class Layer:
    """How one kind of Chainer link maps onto a PyTorch module.

    Attributes:
        links (tuple of str): Names in ``chainer.links`` of the links this entry converts.
        torch (str): The PyTorch module(s), for messages.
        refused (str): Set on entries that recognise a layer only to refuse it: the reason.
    """

    links = ()
    torch = ''
    refused = None

    def options(self, link):
        """The options of a conversion read from the link (``{}`` by default)."""
        return {}

    def match_chainer(self, shapes):
        """Options if ``shapes`` (relative Chainer key -> shape or None) are one such layer."""
        return None

    def match_torch(self, shapes):
        """Options if ``shapes`` (PyTorch leaf name -> shape) are one such layer."""
        return None

    def to_torch(self, arrays, **options):
        raise NotImplementedError

    def to_chainer(self, arrays, **options):
        raise NotImplementedError

    def torch_module(self, link, torch, **kwargs):
        """A new PyTorch module with the link's hyperparameters (weights not yet loaded)."""
        raise NotImplementedError(f'no PyTorch module is defined for {type(link).__name__}')


def _fits(shapes, required, optional=()):
    keys = set(shapes)
    return set(required) <= keys and keys <= set(required) | set(optional)


def _ndim(shape):
    return -1 if shape is None else len(shape)


def _weight_like(shape, ndim):
    # An uninitialized entry (None: saved before the first forward) fits any layer, so that
    # the conversion can say that it is not initialized.
    return shape is None or len(shape) >= ndim


def _rename(arrays, table):
    return {table[k]: v for k, v in arrays.items()}


def _unsupported(link, what, hint=''):
    return ValueError(f'{type(link).__name__} with {what} has no PyTorch equivalent module'
                      + (f'; {hint}' if hint else ''))


class Affine(Layer):
    """Weight (and bias) used as they are: linear, embedding and (transposed) convolutions.

    Chainer and PyTorch store these weights in the same layout: ``(out, in)`` for Linear,
    ``(n_vocab, size)`` for EmbedID, ``(out, in / groups, k...)`` for convolutions and
    ``(in, out / groups, k...)`` for deconvolutions.
    """

    links = ('Linear', 'EmbedID', 'Convolution1D', 'Convolution2D', 'Convolution3D',
             'ConvolutionND', 'DilatedConvolution2D', 'Deconvolution1D', 'Deconvolution2D',
             'Deconvolution3D', 'DeconvolutionND')
    torch = 'Linear, Embedding, Conv1d/2d/3d, ConvTranspose1d/2d/3d'
    _names = {'W': 'weight', 'b': 'bias'}

    def match_chainer(self, shapes):
        if _fits(shapes, ('W',), ('b',)) and _weight_like(shapes['W'], 2):
            return {}
        return None

    def match_torch(self, shapes):
        if _fits(shapes, ('weight',), ('bias',)) and _ndim(shapes['weight']) >= 2:
            return {}
        return None

    def to_torch(self, arrays):
        return _rename(arrays, self._names)

    def to_chainer(self, arrays):
        return _rename(arrays, {v: k for k, v in self._names.items()})

    def torch_module(self, link, torch):
        nn = torch.nn
        kind = type(link).__name__
        W = link.W.array
        if W is None:
            raise ValueError(f'{kind}: the weight is not initialized yet (give the input size '
                             'or run the link once)')
        bias = getattr(link, 'b', None) is not None
        if kind == 'Linear':
            return nn.Linear(W.shape[1], W.shape[0], bias=bias)
        if kind == 'EmbedID':
            if link.ignore_label is not None:
                raise _unsupported(link, f'ignore_label={link.ignore_label}',
                                   'map the ignored ids to a zero row (padding_idx) yourself')
            return nn.Embedding(W.shape[0], W.shape[1])
        nd = W.ndim - 2
        if not 1 <= nd <= 3:
            raise _unsupported(link, f'{nd} spatial dimensions')
        common = dict(stride=link.stride, padding=link.pad,
                      dilation=getattr(link, 'dilate', 1), groups=getattr(link, 'groups', 1),
                      bias=bias)
        if 'Deconvolution' in kind:
            outsize = link.outsize
            if outsize is not None and any(s is not None for s in numpy.ravel(outsize)):
                raise _unsupported(link, f'outsize={outsize}',
                                   'pass output_size= to the ConvTranspose call instead')
            cls = getattr(nn, f'ConvTranspose{nd}d')
            return cls(W.shape[0], W.shape[1] * common['groups'], W.shape[2:], **common)
        if getattr(link, 'cover_all', False):
            raise _unsupported(link, 'cover_all=True')
        cls = getattr(nn, f'Conv{nd}d')
        return cls(W.shape[1] * common['groups'], W.shape[0], W.shape[2:], **common)


class BatchNorm(Layer):
    """Batch normalization: scale, shift and the running statistics.

    Chainer's ``N`` (batches averaged with ``decay=None``/``finetune``) is PyTorch's
    ``num_batches_tracked`` (batches averaged with ``momentum=None``). ``eps`` and ``decay``
    are not in the files: the PyTorch module must be made with ``eps=link.eps`` (Chainer's
    default is 2e-5, PyTorch's 1e-5) and ``momentum=1 - link.decay``.
    """

    links = ('BatchNormalization',)
    torch = 'BatchNorm1d/2d/3d'
    _names = {'gamma': 'weight', 'beta': 'bias', 'avg_mean': 'running_mean',
              'avg_var': 'running_var', 'N': 'num_batches_tracked'}

    def options(self, link):
        return {'gamma': getattr(link, 'gamma', None) is not None,
                'beta': getattr(link, 'beta', None) is not None}

    def match_chainer(self, shapes):
        if _fits(shapes, ('avg_mean', 'avg_var'), ('gamma', 'beta', 'N')):
            return {'gamma': 'gamma' in shapes, 'beta': 'beta' in shapes}
        return None

    def match_torch(self, shapes):
        if _fits(shapes, ('running_mean', 'running_var'),
                 ('weight', 'bias', 'num_batches_tracked')):
            return {'gamma': 'weight' in shapes, 'beta': 'bias' in shapes}
        return None

    def to_torch(self, arrays, gamma, beta):
        out = _rename(arrays, self._names)
        # PyTorch's affine BatchNorm has both or neither: the missing one is the identity.
        if 'weight' in out and 'bias' not in out:
            out['bias'] = numpy.zeros_like(out['weight'])
        if 'bias' in out and 'weight' not in out:
            out['weight'] = numpy.ones_like(out['bias'])
        if 'num_batches_tracked' in out:
            out['num_batches_tracked'] = numpy.asarray(out['num_batches_tracked'], numpy.int64)
        return out

    def to_chainer(self, arrays, gamma, beta):
        out = _rename(arrays, {v: k for k, v in self._names.items()})
        for name, keep, identity in (('gamma', gamma, 1), ('beta', beta, 0)):
            if name in out and not keep:
                if not numpy.all(out[name] == identity):
                    raise ValueError(f'the BatchNormalization has no {name} (use_{name}='
                                     f'False), but the PyTorch weights hold one that is not '
                                     f'all {identity}')
                del out[name]
        if 'N' in out:
            out['N'] = numpy.asarray(out['N'], numpy.int64)
        return out

    def torch_module(self, link, torch, dims=2):
        if link.axis is not None:
            raise _unsupported(link, f'axis={link.axis}')
        mean = link.avg_mean
        if mean is None or mean.ndim != 1:
            raise _unsupported(link, 'statistics that are not one value per channel')
        if dims not in (1, 2, 3):
            raise ValueError(f'BatchNormalization: dims must be 1, 2 or 3, got {dims}')
        opts = self.options(link)
        if opts['gamma'] != opts['beta']:
            raise _unsupported(link, 'only one of gamma and beta',
                               'its weights convert (the missing one as the identity) '
                               'into a BatchNorm with affine=True')
        cls = getattr(torch.nn, f'BatchNorm{dims}d')
        momentum = None if link.decay is None else 1 - link.decay
        return cls(mean.shape[0], eps=link.eps, momentum=momentum, affine=opts['gamma'])


# L.LSTM holds the four gates of each unit next to each other (rows 4u .. 4u+3 are that unit's
# a, i, f, o); PyTorch holds four blocks of rows in the order i, f, g (= a), o.
_CHAINER_TO_TORCH_GATES = [1, 2, 0, 3]
_TORCH_TO_CHAINER_GATES = [2, 0, 1, 3]


def _lstm_to_blocks(a):
    units = a.shape[0] // 4
    g = a.reshape((units, 4) + a.shape[1:])
    return numpy.ascontiguousarray(
        numpy.moveaxis(g[:, _CHAINER_TO_TORCH_GATES], 1, 0).reshape(a.shape))


def _lstm_to_interleaved(a):
    units = a.shape[0] // 4
    g = a.reshape((4, units) + a.shape[1:])
    return numpy.ascontiguousarray(
        numpy.moveaxis(g[_TORCH_TO_CHAINER_GATES], 0, 1).reshape(a.shape))


class LSTM(Layer):
    """``L.LSTM`` (and ``L.StatelessLSTM``) as PyTorch's ``LSTMCell``.

    One step of ``L.LSTM`` is one step of ``LSTMCell``; over a sequence, the same weights
    named ``weight_ih_l0``... serve ``nn.LSTM``. PyTorch has two biases where Chainer has
    one: going to PyTorch, ``bias_hh`` is zero; coming back, the two are added.
    """

    links = ('LSTM', 'StatelessLSTM')
    torch = 'LSTMCell'

    def match_chainer(self, shapes):
        if _fits(shapes, ('upward/W', 'lateral/W'), ('upward/b',)) \
                and _weight_like(shapes['upward/W'], 2) and _ndim(shapes['lateral/W']) == 2:
            return {}
        return None

    def match_torch(self, shapes):
        if _fits(shapes, ('weight_ih', 'weight_hh'), ('bias_ih', 'bias_hh')):
            ih, hh = shapes['weight_ih'], shapes['weight_hh']
            if len(ih) == 2 and len(hh) == 2 and ih[0] == 4 * hh[1]:
                return {}
        return None

    def to_torch(self, arrays):
        out = {'weight_ih': _lstm_to_blocks(arrays['upward/W']),
               'weight_hh': _lstm_to_blocks(arrays['lateral/W'])}
        b = arrays.get('upward/b')
        if b is not None:
            out['bias_ih'] = _lstm_to_blocks(b)
            out['bias_hh'] = numpy.zeros_like(b)
        return out

    def to_chainer(self, arrays):
        w = arrays['weight_ih']
        b = numpy.zeros(w.shape[0], w.dtype)
        for name in ('bias_ih', 'bias_hh'):
            if name in arrays:
                b = b + arrays[name]
        return {'upward/W': _lstm_to_interleaved(w),
                'upward/b': _lstm_to_interleaved(b),
                'lateral/W': _lstm_to_interleaved(arrays['weight_hh'])}

    def torch_module(self, link, torch):
        W = link.upward.W.array
        if W is None:
            raise ValueError(f'{type(link).__name__}: the weight is not initialized yet (give '
                             'the input size or run the link once)')
        return torch.nn.LSTMCell(W.shape[1], W.shape[0] // 4)


_TORCH_RNN_KEY = re.compile(r'^(weight|bias)_(ih|hh)_l(\d+)(_reverse)?$')


class NStepRNN(Layer):
    """The NStep links as PyTorch's multi-layer ``LSTM``, ``GRU`` and ``RNN``.

    Their gates are already in PyTorch's order (``w0``-``w3``: i, f, g, o for the LSTM;
    ``w0``-``w2``: r, z, n for the GRU); link ``j`` of the ChainList is layer ``j //
    directions``, the backward direction (``_reverse``) when ``j`` is odd in a bidirectional
    link.
    """

    def __init__(self, links, torch_name, gates):
        self.links = links
        self.torch = torch_name
        self.gates = gates
        self._chainer_keys = tuple(f'{p}{i}' for p in 'wb' for i in range(2 * gates))

    def options(self, link):
        return {'directions': link.direction}

    def match_chainer(self, shapes):
        children = {}
        for key, shape in shapes.items():
            child, _, name = key.partition('/')
            if not child.isdigit() or '/' in name:
                return None
            children.setdefault(int(child), {})[name] = shape
        n = len(children)
        if not n or sorted(children) != list(range(n)):
            return None
        if not all(_fits(c, self._chainer_keys) for c in children.values()):
            return None
        w0 = [children[j]['w0'] for j in range(n)]
        wh = [children[j][f'w{self.gates}'] for j in range(n)]
        if any(_ndim(s) != 2 for s in w0 + wh):
            return None
        hidden = w0[0][0]
        ins = [s[1] for s in w0]
        uni = all(i == hidden for i in ins[1:])
        bi = n % 2 == 0 and ins[1] == ins[0] and all(i == 2 * hidden for i in ins[2:])
        if uni and bi:
            return {'directions': None}     # the caller asks which
        if uni or bi:
            return {'directions': 1 if uni else 2}
        return None

    def match_torch(self, shapes):
        layers = {}
        for key, shape in shapes.items():
            m = _TORCH_RNN_KEY.match(key)
            if m is None:
                return None
            layers.setdefault((int(m.group(3)), bool(m.group(4))), {})[key] = shape
        reverse = any(r for _, r in layers)
        n_layers = 1 + max(l for l, _ in layers)
        expected = {(l, r) for l in range(n_layers) for r in ((False, True) if reverse
                                                              else (False,))}
        if set(layers) != expected:
            return None
        ih, hh = shapes.get('weight_ih_l0'), shapes.get('weight_hh_l0')
        if ih is None or hh is None or len(hh) != 2 or ih[0] != self.gates * hh[1]:
            return None
        return {'directions': 2 if reverse else 1}

    def _layer_names(self, j, directions):
        suffix = '_reverse' if directions == 2 and j % 2 else ''
        return f'_l{j // directions}{suffix}'

    def to_torch(self, arrays, directions):
        g = self.gates
        n = 1 + max(int(k.partition('/')[0]) for k in arrays)
        out = {}
        for j in range(n):
            s = self._layer_names(j, directions)
            a = {k.partition('/')[2]: v for k, v in arrays.items() if k.startswith(f'{j}/')}
            out['weight_ih' + s] = numpy.concatenate([a[f'w{i}'] for i in range(g)])
            out['weight_hh' + s] = numpy.concatenate([a[f'w{i}'] for i in range(g, 2 * g)])
            out['bias_ih' + s] = numpy.concatenate([a[f'b{i}'] for i in range(g)])
            out['bias_hh' + s] = numpy.concatenate([a[f'b{i}'] for i in range(g, 2 * g)])
        return out

    def to_chainer(self, arrays, directions):
        g = self.gates
        n = (1 + max(int(_TORCH_RNN_KEY.match(k).group(3)) for k in arrays)) * directions
        out = {}
        for j in range(n):
            s = self._layer_names(j, directions)
            w_ih, w_hh = arrays['weight_ih' + s], arrays['weight_hh' + s]
            zeros = numpy.zeros(w_ih.shape[0], w_ih.dtype)
            parts = (numpy.split(w_ih, g) + numpy.split(w_hh, g)
                     + numpy.split(arrays.get('bias_ih' + s, zeros), g)
                     + numpy.split(arrays.get('bias_hh' + s, zeros), g))
            for name, part in zip(self._chainer_keys, parts):
                out[f'{j}/{name}'] = numpy.ascontiguousarray(part)
        return out

    def torch_module(self, link, torch):
        w0 = link[0].w0.array
        if w0 is None:
            raise ValueError(f'{type(link).__name__}: the weights are not initialized yet')
        kwargs = dict(num_layers=link.n_layers, dropout=link.dropout,
                      bidirectional=link.direction == 2)
        if self.torch == 'RNN':
            kwargs['nonlinearity'] = 'relu' if 'ReLU' in type(link).__name__ else 'tanh'
        return getattr(torch.nn, self.torch)(w0.shape[1], link.out_size, **kwargs)


class GRU(Layer):
    """``L.GRU``: recognised only to refuse it, with the reason."""

    links = ('GRU', 'StatefulGRU', 'StatelessGRU')
    torch = '(none)'
    refused = (
        "Chainer's GRU links (L.GRU, StatefulGRU, StatelessGRU) compute the candidate state "
        'as tanh(W x + U (r * h)), with the reset gate applied to h before the recurrent '
        "product; PyTorch's GRU and GRUCell compute tanh(W x + r * (U h + b)), so no PyTorch "
        'module computes the same function and converting the weights would silently change '
        "the model. L.NStepGRU computes PyTorch's recurrence and converts to nn.GRU")
    _children = ('W', 'U', 'W_r', 'U_r', 'W_z', 'U_z')

    def match_chainer(self, shapes):
        keys = {f'{c}/{p}' for c in self._children for p in 'Wb'}
        required = {f'{c}/W' for c in self._children}
        return {} if _fits(shapes, required, keys - required) else None


LAYERS = (
    Affine(),
    BatchNorm(),
    LSTM(),
    NStepRNN(('NStepLSTM', 'NStepBiLSTM'), 'LSTM', 4),
    NStepRNN(('NStepGRU', 'NStepBiGRU'), 'GRU', 3),
    NStepRNN(('NStepRNNTanh', 'NStepRNNReLU', 'NStepBiRNNTanh', 'NStepBiRNNReLU'), 'RNN', 1),
    GRU(),
)
"""Every entry, in the order they are tried on files."""


@functools.lru_cache(maxsize=None)
def _by_class():
    import chainer.links as L
    return {getattr(L, name): entry for entry in LAYERS for name in entry.links}


def for_link(link):
    """The entry that converts ``link``'s class (or a base class of it), or ``None``."""
    table = _by_class()
    for cls in type(link).__mro__:
        entry = table.get(cls)
        if entry is not None:
            return entry
    return None
