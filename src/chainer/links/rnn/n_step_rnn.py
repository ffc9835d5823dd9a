"""Stacked recurrent links over variable-length sequences: the Elman RNN family
(:class:`NStepRNNTanh`, :class:`NStepRNNReLU` and the bidirectional ones) and the
base class the n-step LSTM and GRU links share."""
import numpy

import chainer
from chainer.functions.array import permutate
from chainer.functions.array import transpose_sequence
from chainer.functions.rnn import n_step_rnn as rnn
from chainer import initializers
from chainer import link
from chainer.utils import argument
from chainer import variable


def argsort_list_descent(lst):
    """Indices that sort the sequences ``lst`` by decreasing length (stable)."""
    return numpy.argsort([-len(x) for x in lst], kind='stable').astype(numpy.int32)


def permutate_list(lst, indices, inv):
    """``[lst[i] for i in indices]``, or its inverse with ``inv=True``."""
    ret = [None] * len(lst)
    if inv:
        for i, ind in enumerate(indices):
            ret[ind] = lst[i]
    else:
        for i, ind in enumerate(indices):
            ret[i] = lst[ind]
    return ret


class NStepRNNBase(link.ChainList):
    """Base of the n-step recurrent links.

    Child ``l * n_dirs + d`` (layer ``l``, direction ``d``) holds the weights
    ``w0 .. w{n-1}`` and biases ``b0 .. b{n-1}`` of one cell; the first half of the
    weights maps the layer input (``in_size`` wide for the first layer,
    ``n_dirs * out_size`` afterwards), the second half the state. ``ws`` and
    ``bs`` list them per cell, as the ``n_step_*`` functions take them.

    Args:
        n_layers (int): Number of layers.
        in_size (int): Input size.
        out_size (int): State size.
        dropout (float): Dropout ratio on the input of every layer after the first.
        initialW: Initializer of the weights (default: normal with std
            ``sqrt(1 / fan_in)``).
        initial_bias: Initializer of the biases (default 0).
    """

    n_weights = 2
    use_bi_direction = False

    def __init__(self, n_layers, in_size, out_size, dropout, *, initialW=None,
                 initial_bias=None, **kwargs):
        if kwargs:
            argument.check_unexpected_kwargs(
                kwargs,
                use_cudnn='use_cudnn argument is not supported anymore. '
                          'Use chainer.using_config',
                use_bi_direction='use_bi_direction is not supported anymore')
            argument.assert_kwargs_empty(kwargs)
        if in_size is None:
            raise TypeError(f'{type(self).__name__} requires in_size to be an int, got None '
                            f'(n-step links have no lazy initialization)')
        n_dirs = 2 if self.use_bi_direction else 1
        if initial_bias is None:
            initial_bias = 0
        cells = []
        for layer in range(n_layers):
            for _ in range(n_dirs):
                cell = link.Link()
                with cell.init_scope():
                    for j in range(self.n_weights):
                        if j >= self.n_weights // 2:
                            w_in = out_size
                        elif layer == 0:
                            w_in = in_size
                        else:
                            w_in = out_size * n_dirs
                        init = initialW
                        if init is None:
                            init = initializers.Normal(numpy.sqrt(1. / w_in))
                        setattr(cell, f'w{j}', variable.Parameter(
                            initializers._get_initializer(init), (out_size, w_in)))
                        setattr(cell, f'b{j}', variable.Parameter(
                            initializers._get_initializer(initial_bias), out_size))
                cells.append(cell)
        super().__init__(*cells)
        self.ws = [[getattr(c, f'w{j}') for j in range(self.n_weights)] for c in cells]
        self.bs = [[getattr(c, f'b{j}') for j in range(self.n_weights)] for c in cells]
        self.n_layers = n_layers
        self.dropout = dropout
        self.out_size = out_size
        self.direction = n_dirs

    @property
    def n_cells(self):
        """Number of state arrays the link takes and returns (``hx``; LSTM: ``hx, cx``)."""
        return 1

    def rnn(self, *args):
        """Calls the ``n_step_*`` function of this link on ``args``."""
        raise NotImplementedError

    def copy(self, mode='share'):
        new = super().copy(mode)
        # The per-cell lists must point at the copy's own parameters.
        new.ws = [[getattr(c, f'w{j}') for j in range(self.n_weights)] for c in new]
        new.bs = [[getattr(c, f'b{j}') for j in range(self.n_weights)] for c in new]
        return new

    def init_hx(self, xs):
        """Zero initial states ``(n_layers * n_dirs, len(xs), out_size)`` in xs' dtype."""
        shape = (self.n_layers * self.direction, len(xs), self.out_size)
        with chainer.using_device(self.device):
            return variable.Variable(self.xp.zeros(shape, dtype=xs[0].dtype))

    def _arguments(self, args, kwargs):
        # Splits ``forward``'s arguments into the states and xs, naming this link on misuse.
        name = type(self).__name__
        states = ('hx', 'cx')[:self.n_cells]
        if len(args) != self.n_cells + 1:
            raise TypeError(f'{name} takes {len(states) + 1} inputs '
                            f'({", ".join(states)}, xs), got {len(args)}')
        if kwargs:
            argument.check_unexpected_kwargs(
                kwargs, train='train argument is not supported anymore. '
                              'Use chainer.using_config')
            argument.assert_kwargs_empty(kwargs)
        xs = args[-1]
        if not isinstance(xs, (list, tuple)):
            raise TypeError(f'{name} requires xs to be a list of sequences (one (length, '
                            f'in_size) array per sequence), got {type(xs).__name__}')
        if not xs:
            raise ValueError(f'{name} requires at least one sequence in xs, got none')
        return list(args[:-1]), xs

    def _call(self, hs, xs):
        indices = argsort_list_descent(xs)
        xp = self.xp
        with chainer.using_device(self.device):
            indices_array = xp.asarray(indices)
        xs = permutate_list(xs, indices, inv=False)
        hxs = []
        for hx in hs:
            if hx is None:
                hx = self.init_hx(xs)
            else:
                hx = permutate.permutate(hx, indices_array, axis=1, inv=False)
            hxs.append(hx)
        trans_x = transpose_sequence.transpose_sequence(xs)
        result = self.rnn(self.n_layers, self.dropout, *hxs, self.ws, self.bs, trans_x)
        hys = [permutate.permutate(h, indices_array, axis=1, inv=True) for h in result[:-1]]
        ys = permutate_list(transpose_sequence.transpose_sequence(result[-1]), indices,
                            inv=True)
        return hys, ys

    def forward(self, hx, xs, *rest, **kwargs):
        """Runs the stack over a batch of sequences.

        Args:
            hx (~chainer.Variable or None): Initial states ``(n_layers * n_dirs,
                B, out_size)`` (``None``: zeros).
            xs (list of ~chainer.Variable): ``B`` sequences, each ``(length,
                in_size)``, in any order of lengths.

        Returns:
            tuple: ``(hy, ys)``: the final states, in the layout of ``hx``, and
            the ``B`` output sequences ``(length, n_dirs * out_size)``.
        """
        hs, xs = self._arguments((hx, xs) + rest, kwargs)
        (hy,), ys = self._call(hs, xs)
        return hy, ys


class NStepRNNTanh(NStepRNNBase):
    """Stacked unidirectional Elman RNN with tanh (see :func:`~chainer.functions.n_step_rnn`).

    Args: as :class:`NStepRNNBase`.
    """

    activation = 'tanh'

    def rnn(self, *args):
        return rnn.n_step_rnn(*args, activation=self.activation)


class NStepRNNReLU(NStepRNNTanh):
    """Stacked unidirectional Elman RNN with ReLU."""

    activation = 'relu'


class NStepBiRNNTanh(NStepRNNBase):
    """Stacked bidirectional Elman RNN with tanh (see :func:`~chainer.functions.n_step_birnn`)."""

    use_bi_direction = True
    activation = 'tanh'

    def rnn(self, *args):
        return rnn.n_step_birnn(*args, activation=self.activation)


class NStepBiRNNReLU(NStepBiRNNTanh):
    """Stacked bidirectional Elman RNN with ReLU."""

    activation = 'relu'
