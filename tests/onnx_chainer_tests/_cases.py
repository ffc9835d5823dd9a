"""The table of small graphs that check every converter, shared by the tests and the fixture
script that records Chainer 7.8.1's exports of them (``tests/fixtures/make_onnx_reference.py``).

Each :class:`Case` names the converter it exercises (the FunctionNode class name that
``onnx_chainer`` looks up), builds a one-function model (a :class:`CaseModel` whose
parameters are seeded arrays) and its seeded inputs. This module only uses Chainer's public
API, so the same table runs on rechainer and on the original.
"""
import zlib

import numpy as np

import chainer
import chainer.functions as F
import chainer.links as L


class CaseModel(chainer.Chain):
    """A chain that holds the case's parameters and calls its function."""

    def __init__(self, fn, params, links):
        super().__init__()
        self._fn = fn
        with self.init_scope():
            for name, value in params.items():
                setattr(self, name, chainer.Parameter(value))
            for name, make in links.items():
                setattr(self, name, make())

    def forward(self, *xs):
        return self._fn(self, *xs)


def _rng(key):
    return np.random.RandomState(zlib.crc32(key.encode()))


class Case:
    """One converter case.

    Args:
        name (str): Unique id (also the seed of its arrays).
        converter (str): FunctionNode name whose converter this exercises.
        fn: ``fn(model, *inputs)`` returning the output(s).
        inputs: Input specs: ``('u', shape)`` uniform in [-1, 1), ``('p', shape)`` in [0.5, 2),
            ``('i', shape, high)`` int32 in [0, high), or an array used as given.
        params (dict): Parameter specs (same forms), registered on the model.
        links (dict): name -> zero-argument factory of a child link.
        export (dict): Keyword arguments of ``export``.
        check_values (bool): Whether the ONNX Runtime output is compared with Chainer's
            (False where Chainer 7.8.1's conversion is known to differ in value).
        rtol, atol: Tolerances of that comparison.
        reference (bool): Whether Chainer 7.8.1 can run the case (``False`` for the cases
            that need classes only rechainer's tests define).
        evaluator_from (int): For a case whose values ONNX Runtime does not compute as
            Chainer does (training mode), the opset from which ONNX's reference evaluator
            does; None if none.
        batch (bool): Whether the first axis of the inputs is a batch axis that the graph
            may leave dynamic (``False`` where it is not: sequences of a list, inputs of
            different batches, a condition computed from the inputs' values outside the
            graph).
    """

    def __init__(self, name, converter, fn, inputs, params=None, links=None, export=None,
                 check_values=True, rtol=1e-5, atol=1e-5, reference=True, batch=True,
                 evaluator_from=None):
        self.name = name
        self.converter = converter
        self.fn = fn
        self.input_specs = inputs
        self.param_specs = params or {}
        self.links = links or {}
        self.export = export or {}
        self.check_values = check_values
        self.rtol = rtol
        self.atol = atol
        self.reference = reference
        self.batch = batch
        self.evaluator_from = evaluator_from

    def _make(self, spec, rng):
        if isinstance(spec, np.ndarray):
            return spec.copy()
        kind, shape = spec[0], spec[1]
        if kind == 'u':
            return rng.uniform(-1, 1, shape).astype(np.float32)
        if kind == 'p':
            return rng.uniform(0.5, 2, shape).astype(np.float32)
        if kind == 'i':
            return rng.randint(0, spec[2], shape).astype(np.int32)
        raise ValueError('unknown spec %r' % (spec,))

    def build(self):
        """Returns ``(model, args)``: a fresh model and the tuple of its inputs."""
        rng = _rng(self.name)
        params = {k: self._make(v, rng) for k, v in self.param_specs.items()}
        args = tuple(self._make(s, rng) for s in self.input_specs)
        chainer.global_config.dtype = np.dtype(np.float32)
        np.random.seed(zlib.crc32(self.name.encode()) % (2 ** 31))  # initializers of links
        model = CaseModel(self.fn, params, self.links)
        return model, args

    def __repr__(self):
        return 'Case(%s)' % self.name


U = 'u'
P = 'p'


def u(*shape):
    return ('u', shape)


def p(*shape):
    return ('p', shape)


def i(high, *shape):
    return ('i', shape, high)


def _var(x):
    return chainer.Variable(x)


CASES = [
    # -- activation
    Case('clipped_relu', 'ClippedReLU', lambda m, x: F.clipped_relu(x * 3, 2.0), [u(2, 5)]),
    Case('elu', 'ELU', lambda m, x: F.elu(x, 0.7), [u(2, 5)]),
    Case('hard_sigmoid', 'HardSigmoid', lambda m, x: F.hard_sigmoid(x * 4), [u(2, 5)]),
    Case('leaky_relu', 'LeakyReLU', lambda m, x: F.leaky_relu(x, 0.3), [u(2, 5)]),
    Case('log_softmax', 'LogSoftmax', lambda m, x: F.log_softmax(x), [u(2, 5)]),
    Case('log_softmax_axis2', 'LogSoftmax', lambda m, x: F.log_softmax(x, axis=2),
         [u(2, 3, 4)]),
    Case('log_softmax_axis0', 'LogSoftmax', lambda m, x: F.log_softmax(x, axis=0),
         [u(2, 3, 4)]),
    Case('prelu', 'PReLUFunction', lambda m, x: F.prelu(x, m.W), [u(2, 3, 4)],
         params={'W': u(3)}),
    Case('prelu_link', 'PReLUFunction', lambda m, x: m.l(x), [u(2, 5)],
         links={'l': L.PReLU}),
    Case('relu', 'ReLU', lambda m, x: F.relu(x), [u(2, 5)]),
    Case('selu', 'SELU', lambda m, x: F.selu(x), [u(2, 5)]),
    Case('sigmoid', 'Sigmoid', lambda m, x: F.sigmoid(x), [u(2, 5)]),
    Case('softmax', 'Softmax', lambda m, x: F.softmax(x), [u(2, 5)]),
    Case('softmax_axis0', 'Softmax', lambda m, x: F.softmax(x, axis=0), [u(2, 3, 4)]),
    Case('softmax_axis2', 'Softmax', lambda m, x: F.softmax(x, axis=2), [u(2, 3, 4)]),
    Case('softplus', 'Softplus', lambda m, x: F.softplus(x), [u(2, 5)]),
    Case('softplus_beta', 'Softplus', lambda m, x: F.softplus(x, beta=2.0), [u(2, 5)]),
    Case('tanh', 'Tanh', lambda m, x: F.tanh(x), [u(2, 5)]),

    # -- array
    Case('broadcast_to', 'BroadcastTo', lambda m, x: F.broadcast_to(x, (2, 3, 4)), [u(3, 1)]),
    Case('cast', 'Cast', lambda m, x: F.cast(x, np.float64), [u(2, 3)]),
    Case('cast_int', 'Cast', lambda m, x: F.cast(x * 3, np.int32), [u(2, 3)]),
    Case('concat', 'Concat', lambda m, x, y: F.concat((x, y), axis=1), [u(2, 3), u(2, 4)]),
    Case('concat_neg', 'Concat', lambda m, x, y: F.concat((x, y), axis=-1),
         [u(2, 3, 1), u(2, 3, 2)]),
    Case('copy', 'Copy', lambda m, x: F.copy(x, -1), [u(2, 3)]),
    Case('depth2space', 'Depth2Space', lambda m, x: F.depth2space(x, 2), [u(1, 8, 2, 3)]),
    Case('dstack', 'Dstack', lambda m, x, y: F.dstack((x, y)), [u(2, 3), u(2, 3)]),
    Case('dstack_3d', 'Dstack', lambda m, x, y: F.dstack((x, y)), [u(2, 3, 2), u(2, 3, 1)]),
    Case('expand_dims', 'ExpandDims', lambda m, x: F.expand_dims(x, 1), [u(2, 3)]),
    Case('expand_dims_neg', 'ExpandDims', lambda m, x: F.expand_dims(x, -1), [u(2, 3)]),
    Case('get_item_int', 'GetItem', lambda m, x: x[1], [u(3, 4)]),
    Case('get_item_slice', 'GetItem', lambda m, x: x[:, 1:3], [u(3, 4)]),
    Case('get_item_step', 'GetItem', lambda m, x: x[::2, ::-1], [u(5, 4)]),
    Case('get_item_neg', 'GetItem', lambda m, x: x[-2:, -1], [u(5, 4)]),
    Case('get_item_none', 'GetItem', lambda m, x: x[None, 1:, None], [u(3, 4)]),
    Case('get_item_ellipsis', 'GetItem', lambda m, x: x[..., 0], [u(2, 3, 4)]),
    Case('get_item_list', 'GetItem', lambda m, x: x[[0, 2]], [u(3, 4)]),
    Case('get_item_array', 'GetItem', lambda m, x: x[:, np.array([2, 0, 1])], [u(3, 4)]),
    Case('hstack', 'Hstack', lambda m, x, y: F.hstack((x, y)), [u(2, 3), u(2, 2)]),
    Case('hstack_1d', 'Hstack', lambda m, x, y: F.hstack((x, y)), [u(3), u(2)]),
    Case('moveaxis', 'Moveaxis', lambda m, x: F.moveaxis(x, 0, 2), [u(2, 3, 4)]),
    Case('moveaxis_neg', 'Moveaxis', lambda m, x: F.moveaxis(x, -1, 0), [u(2, 3, 4)]),
    Case('pad_constant', 'Pad', lambda m, x: F.pad(x, ((0, 0), (1, 2)), 'constant'),
         [u(2, 3)]),
    Case('pad_value', 'Pad',
         lambda m, x: F.pad(x, ((0, 0), (0, 0), (1, 1), (2, 0)), 'constant',
                            constant_values=1.5), [u(1, 2, 3, 3)]),
    Case('pad_reflect', 'Pad', lambda m, x: F.pad(x, ((0, 0), (1, 1)), 'reflect'), [u(2, 3)]),
    Case('pad_edge', 'Pad', lambda m, x: F.pad(x, ((1, 0), (0, 2)), 'edge'), [u(2, 3)]),
    Case('permutate', 'Permutate',
         lambda m, x: F.permutate(x, np.array([2, 0, 1], np.int32), axis=1), [u(2, 3)]),
    Case('permutate_inv', 'Permutate',
         lambda m, x: F.permutate(x, np.array([2, 0, 1], np.int32), axis=0, inv=True),
         [u(3, 2)]),
    Case('repeat', 'Repeat', lambda m, x: F.repeat(x, 2, axis=1), [u(2, 3)]),
    Case('repeat_none', 'Repeat', lambda m, x: F.repeat(x, 2), [u(2, 3)]),
    Case('repeat_list', 'Repeat', lambda m, x: F.repeat(x, (1, 2, 3), axis=1), [u(2, 3)]),
    Case('reshape', 'Reshape', lambda m, x: F.reshape(x, (3, 8)), [u(2, 3, 4)]),
    Case('reshape_neg', 'Reshape', lambda m, x: F.reshape(x, (-1, 4)), [u(2, 3, 4)]),
    Case('resize_images', 'ResizeImages', lambda m, x: F.resize_images(x, (5, 7)),
         [u(1, 2, 3, 4)]),
    Case('rollaxis', 'Rollaxis', lambda m, x: F.rollaxis(x, 2), [u(2, 3, 4)]),
    Case('rollaxis_start', 'Rollaxis', lambda m, x: F.rollaxis(x, 0, 2), [u(2, 3, 4)]),
    Case('select_item', 'SelectItem',
         lambda m, x: F.select_item(x, np.array([2, 0, 1], np.int32)), [u(3, 4)]),
    Case('separate', 'Separate', lambda m, x: F.separate(x, axis=1), [u(2, 3)]),
    Case('space2depth', 'Space2Depth', lambda m, x: F.space2depth(x, 2), [u(1, 2, 4, 6)]),
    Case('split_axis', 'SplitAxis', lambda m, x: F.split_axis(x, 3, axis=1), [u(2, 6)]),
    Case('split_axis_indices', 'SplitAxis', lambda m, x: F.split_axis(x, [1, 4], axis=1),
         [u(2, 6)]),
    Case('squeeze', 'Squeeze', lambda m, x: F.squeeze(x), [u(1, 3, 1, 2)]),
    Case('squeeze_axis', 'Squeeze', lambda m, x: F.squeeze(x, axis=2), [u(1, 3, 1, 2)]),
    Case('stack', 'Stack', lambda m, x, y: F.stack((x, y), axis=1), [u(2, 3), u(2, 3)]),
    Case('stack_neg', 'Stack', lambda m, x, y: F.stack((x, y), axis=-1), [u(2, 3), u(2, 3)]),
    Case('swapaxes', 'Swapaxes', lambda m, x: F.swapaxes(x, 0, 2), [u(2, 3, 4)]),
    Case('tile', 'Tile', lambda m, x: F.tile(x, (2, 1, 3)), [u(2, 3)]),
    Case('tile_int', 'Tile', lambda m, x: F.tile(x, 2), [u(2, 3)]),
    Case('transpose', 'Transpose', lambda m, x: F.transpose(x, (1, 2, 0)), [u(2, 3, 4)]),
    Case('transpose_none', 'Transpose', lambda m, x: F.transpose(x), [u(2, 3, 4)]),
    Case('transpose_sequence', 'TransposeSequence',
         lambda m, x, y: F.transpose_sequence([x, y]), [u(3, 4), u(3, 4)]),
    Case('vstack', 'Vstack', lambda m, x, y: F.vstack((x, y)), [u(2, 3), u(1, 3)]),
    Case('vstack_1d', 'Vstack', lambda m, x, y: F.vstack((x, y)), [u(3), u(3)]),
    Case('where', 'Where', lambda m, c, x, y: F.where(c.array > 0, x, y),
         [u(2, 3), u(2, 3), u(2, 3)], batch=False),

    # -- connection
    Case('convolution_2d', 'Convolution2DFunction',
         lambda m, x: F.convolution_2d(x, m.W, m.b), [u(1, 3, 5, 5)],
         params={'W': u(4, 3, 3, 3), 'b': u(4)}),
    Case('convolution_2d_opts', 'Convolution2DFunction',
         lambda m, x: F.convolution_2d(x, m.W, stride=(2, 1), pad=(1, 2), dilate=2, groups=2),
         [u(1, 4, 7, 6)], params={'W': u(6, 2, 2, 3)}),
    Case('convolution_2d_cover_all', 'Convolution2DFunction',
         lambda m, x: F.convolution_2d(x, m.W, stride=2, cover_all=True), [u(1, 2, 6, 6)],
         params={'W': u(3, 2, 3, 3)}),
    Case('convolution_nd_1d', 'ConvolutionND',
         lambda m, x: F.convolution_nd(x, m.W, m.b, stride=2, pad=1), [u(1, 3, 7)],
         params={'W': u(2, 3, 3), 'b': u(2)}),
    Case('convolution_nd_3d', 'ConvolutionND',
         lambda m, x: F.convolution_nd(x, m.W, dilate=(1, 2, 1), groups=3), [u(1, 3, 4, 5, 4)],
         params={'W': u(3, 1, 2, 2, 2)}),
    Case('deconvolution_2d', 'Deconvolution2DFunction',
         lambda m, x: F.deconvolution_2d(x, m.W, m.b, stride=2, pad=1), [u(1, 3, 4, 4)],
         params={'W': u(3, 2, 3, 3), 'b': u(2)}),
    Case('deconvolution_2d_outsize', 'Deconvolution2DFunction',
         lambda m, x: F.deconvolution_2d(x, m.W, stride=2, pad=1, outsize=(8, 8)),
         [u(1, 3, 4, 4)], params={'W': u(3, 2, 3, 3)}),
    Case('deconvolution_2d_groups', 'Deconvolution2DFunction',
         lambda m, x: F.deconvolution_2d(x, m.W, dilate=2, groups=2), [u(1, 4, 3, 3)],
         params={'W': u(4, 3, 2, 2)}),
    Case('deconvolution_nd_1d', 'DeconvolutionND',
         lambda m, x: F.deconvolution_nd(x, m.W, m.b, stride=3), [u(1, 2, 4)],
         params={'W': u(2, 3, 2), 'b': u(3)}),
    Case('deconvolution_nd_3d', 'DeconvolutionND',
         lambda m, x: F.deconvolution_nd(x, m.W, pad=1, outsize=(3, 5, 3), stride=2),
         [u(1, 2, 2, 3, 2)], params={'W': u(2, 2, 2, 2, 2)}),
    Case('embed_id', 'EmbedIDFunction', lambda m, x: F.embed_id(x, m.W),
         [np.array([[0, 2, 4], [1, 3, 0]], np.int32)], params={'W': u(5, 3)}),
    Case('embed_id_ignore', 'EmbedIDFunction', lambda m, x: F.embed_id(x, m.W, ignore_label=-1),
         [np.array([[0, -1, 4], [1, 3, -1]], np.int32)], params={'W': u(5, 3)}),
    Case('embed_id_link', 'EmbedIDFunction', lambda m, x: m.e(x),
         [np.array([1, 0, 3], np.int32)], links={'e': lambda: L.EmbedID(4, 3)}),
    Case('linear', 'LinearFunction', lambda m, x: F.linear(x, m.W, m.b), [u(2, 3)],
         params={'W': u(4, 3), 'b': u(4)}),
    Case('linear_nobias', 'LinearFunction', lambda m, x: F.linear(x, m.W), [u(2, 3)],
         params={'W': u(4, 3)}),
    Case('linear_batch_axes', 'LinearFunction',
         lambda m, x: F.linear(x, m.W, m.b, n_batch_axes=2), [u(2, 5, 3)],
         params={'W': u(4, 3), 'b': u(4)}),
    Case('linear_link_flatten', 'LinearFunction', lambda m, x: m.l(x), [u(2, 3, 2)],
         links={'l': lambda: L.Linear(6, 4)}),

    # -- loss
    Case('softmax_cross_entropy', 'SoftmaxCrossEntropy',
         lambda m, x, t: F.softmax_cross_entropy(x, t),
         [u(3, 5), np.array([1, 0, 4], np.int32)]),

    # -- math
    Case('absolute', 'Absolute', lambda m, x: abs(x), [u(2, 3)]),
    Case('add', 'Add', lambda m, x, y: x + y, [u(2, 3), u(2, 3)]),
    Case('add_broadcast', 'Add', lambda m, x, y: x + y, [u(2, 3), u(3)]),
    Case('add_constant', 'AddConstant', lambda m, x: x + 2.5, [u(2, 3)]),
    Case('add_multi', 'MultiAdd', lambda m, x, y, z: F.add(x, y, z), [u(2, 3), u(2, 3), u(2, 3)]),
    Case('arccos', 'Arccos', lambda m, x: F.arccos(x * 0.9), [u(2, 3)]),
    Case('arcsin', 'Arcsin', lambda m, x: F.arcsin(x * 0.9), [u(2, 3)]),
    Case('arctan', 'Arctan', lambda m, x: F.arctan(x), [u(2, 3)]),
    Case('argmax', 'ArgMax', lambda m, x: F.argmax(x, axis=1), [u(3, 4)]),
    Case('argmax_none', 'ArgMax', lambda m, x: F.argmax(x), [u(3, 4)]),
    Case('argmin', 'ArgMin', lambda m, x: F.argmin(x, axis=0), [u(3, 4)]),
    Case('argmin_none', 'ArgMin', lambda m, x: F.argmin(x), [u(3, 4)]),
    Case('clip', 'Clip', lambda m, x: F.clip(x, -0.5, 0.3), [u(2, 3)]),
    Case('cos', 'Cos', lambda m, x: F.cos(x), [u(2, 3)]),
    Case('cosh', 'Cosh', lambda m, x: F.cosh(x), [u(2, 3)]),
    Case('div', 'Div', lambda m, x, y: x / y, [u(2, 3), p(2, 3)]),
    Case('div_from_constant', 'DivFromConstant', lambda m, x: 2.0 / x, [p(2, 3)]),
    Case('exp', 'Exp', lambda m, x: F.exp(x), [u(2, 3)]),
    Case('identity', 'Identity', lambda m, x, y: F.identity(x, y), [u(2, 3), u(3)]),
    Case('linear_interpolate', 'LinearInterpolate',
         lambda m, p_, x, y: F.linear_interpolate(p_, x, y), [u(2, 3), u(2, 3), u(2, 3)]),
    Case('log', 'Log', lambda m, x: F.log(x), [p(2, 3)]),
    Case('logsumexp', 'LogSumExp', lambda m, x: F.logsumexp(x), [u(2, 3)]),
    Case('logsumexp_axis', 'LogSumExp', lambda m, x: F.logsumexp(x, axis=(0, 2)),
         [u(2, 3, 4)]),
    Case('matmul', 'MatMul', lambda m, x, y: F.matmul(x, y), [u(2, 3), u(3, 4)]),
    Case('matmul_trans', 'MatMul', lambda m, x, y: F.matmul(x, y, transa=True, transb=True),
         [u(3, 2), u(4, 3)]),
    Case('matmul_batch', 'MatMul', lambda m, x, y: F.matmul(x, y), [u(2, 2, 3), u(2, 3, 4)]),
    Case('max', 'Max', lambda m, x: F.max(x, axis=1), [u(2, 3, 4)]),
    Case('max_keepdims', 'Max', lambda m, x: F.max(x, axis=(0, 2), keepdims=True),
         [u(2, 3, 4)]),
    Case('max_none', 'Max', lambda m, x: F.max(x), [u(2, 3)]),
    Case('maximum', 'Maximum', lambda m, x, y: F.maximum(x, y), [u(2, 3), u(2, 3)]),
    Case('mean', 'Mean', lambda m, x: F.mean(x, axis=1), [u(2, 3, 4)]),
    Case('mean_keepdims', 'Mean', lambda m, x: F.mean(x, axis=(0, 2), keepdims=True),
         [u(2, 3, 4)]),
    Case('mean_none', 'Mean', lambda m, x: F.mean(x), [u(2, 3)]),
    Case('min', 'Min', lambda m, x: F.min(x, axis=1), [u(2, 3, 4)]),
    Case('min_none', 'Min', lambda m, x: F.min(x, keepdims=True), [u(2, 3)]),
    Case('minimum', 'Minimum', lambda m, x, y: F.minimum(x, y), [u(2, 3), u(2, 3)]),
    Case('mul', 'Mul', lambda m, x, y: x * y, [u(2, 3), u(2, 3)]),
    Case('mul_constant', 'MulConstant', lambda m, x: x * 1.5, [u(2, 3)]),
    Case('neg', 'Neg', lambda m, x: -x, [u(2, 3)]),
    Case('pow_const_var', 'PowConstVar', lambda m, x: 2.0 ** x, [u(2, 3)]),
    Case('pow_var_const', 'PowVarConst', lambda m, x: x ** 2.0, [u(2, 3)]),
    Case('pow_var_var', 'PowVarVar', lambda m, x, y: x ** y, [p(2, 3), u(2, 3)]),
    Case('prod', 'Prod', lambda m, x: F.prod(x, axis=1), [u(2, 3, 4)]),
    Case('prod_none', 'Prod', lambda m, x: F.prod(x), [u(2, 3)]),
    Case('rsqrt', 'Rsqrt', lambda m, x: F.rsqrt(x), [p(2, 3)]),
    Case('sign', 'sign', lambda m, x: F.sign(x), [u(2, 3)]),
    Case('sin', 'Sin', lambda m, x: F.sin(x), [u(2, 3)]),
    Case('sinh', 'Sinh', lambda m, x: F.sinh(x), [u(2, 3)]),
    Case('sqrt', 'Sqrt', lambda m, x: F.sqrt(x), [p(2, 3)]),
    Case('square', 'Square', lambda m, x: F.square(x), [u(2, 3)]),
    Case('sub', 'Sub', lambda m, x, y: x - y, [u(2, 3), u(2, 3)]),
    Case('sub_from_constant', 'SubFromConstant', lambda m, x: 2.0 - x, [u(2, 3)]),
    Case('sum', 'Sum', lambda m, x: F.sum(x, axis=1), [u(2, 3, 4)]),
    Case('sum_keepdims', 'Sum', lambda m, x: F.sum(x, axis=(0, 2), keepdims=True),
         [u(2, 3, 4)]),
    Case('sum_none', 'Sum', lambda m, x: F.sum(x), [u(2, 3)]),
    Case('tan', 'Tan', lambda m, x: F.tan(x), [u(2, 3)]),

    # -- noise
    Case('dropout', 'Dropout', lambda m, x: F.dropout(x, 0.3), [u(2, 3)],
         export={'train': True}, check_values=False),

    # -- normalization
    Case('batch_normalization', 'BatchNormalization', lambda m, x: m.bn(x), [u(3, 4, 2)],
         links={'bn': lambda: L.BatchNormalization(4)}, export={'train': True},
         check_values=False, evaluator_from=14),
    Case('fixed_batch_normalization', 'FixedBatchNormalization',
         lambda m, x: F.fixed_batch_normalization(x, m.g, m.b, m.m, m.v, eps=1e-3),
         [u(2, 3, 2, 2)], params={'g': u(3), 'b': u(3), 'm': u(3), 'v': p(3)}),
    Case('batch_normalization_link_test', 'FixedBatchNormalization', lambda m, x: m.bn(x),
         [u(2, 3, 2, 2)], links={'bn': lambda: L.BatchNormalization(3)}),
    Case('group_normalization', 'GroupNormalization',
         lambda m, x: F.group_normalization(x, 2, m.g, m.b), [u(2, 4, 3, 2)],
         params={'g': u(4), 'b': u(4)}),
    Case('local_response_normalization', 'LocalResponseNormalization',
         lambda m, x: F.local_response_normalization(x, n=3, k=1.5, alpha=1e-3, beta=0.6),
         [u(2, 5, 3, 3)]),
    Case('normalize', 'NormalizeL2', lambda m, x: F.normalize(x), [u(2, 5)]),
    Case('normalize_axis', 'NormalizeL2', lambda m, x: F.normalize(x, eps=1e-3, axis=0),
         [u(2, 5)]),

    # -- pooling
    Case('average_pooling_2d', 'AveragePooling2D', lambda m, x: F.average_pooling_2d(x, 2),
         [u(1, 3, 6, 6)]),
    Case('average_pooling_2d_pad', 'AveragePooling2D',
         lambda m, x: F.average_pooling_2d(x, 3, 2, 1), [u(1, 3, 6, 6)]),
    Case('average_pooling_nd', 'AveragePoolingND',
         lambda m, x: F.average_pooling_nd(x, 2, 1, 1), [u(1, 2, 4, 4, 4)]),
    Case('average_pooling_nd_pad_value', 'AveragePoolingND',
         lambda m, x: F.average_pooling_nd(x, 3, 2, 1, pad_value=None), [u(1, 2, 5, 5)]),
    Case('max_pooling_2d', 'MaxPoolingND',
         lambda m, x: F.max_pooling_2d(x, 2, 1, 1, cover_all=False), [u(1, 3, 6, 6)]),
    Case('max_pooling_2d_cover_all', 'MaxPoolingND',
         lambda m, x: F.max_pooling_2d(x, 3, (2, 1), 1, cover_all=True), [u(1, 3, 6, 5)]),
    Case('max_pooling_nd', 'MaxPoolingND',
         lambda m, x: F.max_pooling_nd(x, 2, 1, 1, cover_all=False), [u(1, 2, 4, 4, 4)]),
    Case('max_pooling_nd_cover_all', 'MaxPoolingND',
         lambda m, x: F.max_pooling_nd(x, 3, 2, 1, cover_all=True), [u(1, 2, 6, 5, 4)]),
    Case('roi_pooling_2d', 'ROIPooling2D',
         lambda m, x, r: F.roi_pooling_2d(x, r, 3, 2, 0.6),
         [p(2, 3, 8, 6), np.array([[0, 1, 1, 5, 5], [1, 0, 2, 4, 7]], np.float32)]),
    Case('unpooling_2d', 'Unpooling2D',
         lambda m, x: F.unpooling_2d(x, 2, cover_all=False), [u(1, 2, 3, 3)]),
    Case('unpooling_2d_ksize3', 'Unpooling2D',
         lambda m, x: F.unpooling_2d(x, 3, cover_all=False), [u(1, 2, 3, 3)]),
    Case('unpooling_2d_outsize', 'Unpooling2D',
         lambda m, x: F.unpooling_2d(x, 2, outsize=(6, 6)), [u(1, 2, 3, 3)]),

    # -- functions Chainer 7.8.1's onnx_chainer did not convert
    Case('swish', 'Swish', lambda m, x: F.swish(x, m.beta), [u(2, 3, 4)], params={'beta': u(3)}),
    Case('swish_2d', 'Swish', lambda m, x: F.swish(x, m.beta), [u(2, 5)], params={'beta': u(5)}),
    Case('crelu', 'CReLU', lambda m, x: F.crelu(x), [u(2, 3)]),
    Case('crelu_axis', 'CReLU', lambda m, x: F.crelu(x, axis=2), [u(2, 3, 4)]),
    Case('erf', 'Erf', lambda m, x: F.erf(x * 2), [u(2, 3)]),
    Case('log1p', 'Log1p', lambda m, x: F.log1p(x), [p(2, 3)]),
    Case('expm1', 'Expm1', lambda m, x: F.expm1(x), [u(2, 3)]),
    Case('arctanh', 'Arctanh', lambda m, x: F.arctanh(x * 0.9), [u(2, 3)]),
    Case('einsum', 'EinSum', lambda m, x, y: F.einsum('ij,jk->ik', x, y), [u(2, 3), u(3, 4)]),
    Case('einsum_batch', 'EinSum', lambda m, x, y: F.einsum('bij,bkj->bki', x, y),
         [u(2, 3, 4), u(2, 5, 4)]),
    Case('cumsum', 'Cumsum', lambda m, x: F.cumsum(x, axis=1), [u(2, 3, 4)]),
    Case('cumsum_none', 'Cumsum', lambda m, x: F.cumsum(x), [u(2, 3)]),
    Case('flip', 'Flip', lambda m, x: F.flip(x, 1), [u(2, 3, 4)]),
    Case('flip_neg', 'Flip', lambda m, x: F.flip(x, -1), [u(2, 3, 4)]),
    Case('fliplr', 'FlipLR', lambda m, x: F.fliplr(x), [u(2, 3)]),
    Case('flipud', 'FlipUD', lambda m, x: F.flipud(x), [u(2, 3)]),
    Case('sum_to', 'SumTo', lambda m, x: F.sum_to(x, (3, 1)), [u(2, 3, 4)]),
    Case('sum_to_rows', 'SumTo', lambda m, x: F.sum_to(x, (1, 3)), [u(2, 3)]),
    Case('mean_squared_error', 'MeanSquaredError',
         lambda m, x, y: F.mean_squared_error(x, y), [u(2, 3), u(2, 3)]),
    Case('sigmoid_cross_entropy', 'SigmoidCrossEntropy',
         lambda m, x, t: F.sigmoid_cross_entropy(x, t), [u(3, 4), i(2, 3, 4)]),
    Case('sigmoid_cross_entropy_ignore', 'SigmoidCrossEntropy',
         lambda m, x, t: F.sigmoid_cross_entropy(x, t - 1, normalize=False),
         [u(3, 4), i(3, 3, 4)]),
    Case('sigmoid_cross_entropy_no', 'SigmoidCrossEntropy',
         lambda m, x, t: F.sigmoid_cross_entropy(x, t - 1, reduce='no'), [u(3, 4), i(3, 3, 4)]),
    Case('layer_normalization', 'LayerNormalization',
         lambda m, x: F.layer_normalization(x, m.g, m.b, eps=1e-3), [u(3, 5)],
         params={'g': u(5), 'b': u(5)}),
    Case('layer_normalization_link', 'LayerNormalization', lambda m, x: m.ln(x), [u(3, 5)],
         links={'ln': lambda: L.LayerNormalization(5)}),
    Case('batch_matmul', 'BatchMatMul',
         lambda m, a, b, c: F.batch_matmul(F.batch_matmul(a, b, transb=True), c),
         [u(2, 3, 4), u(2, 5, 4), u(2, 5)]),
    Case('lstm', 'LSTM', lambda m, c, x: F.lstm(c, x), [u(2, 3), u(2, 12)]),
    Case('lstm_shrinking_batch', 'LSTM', lambda m, c, x: F.lstm(c, x), [u(3, 2), u(2, 8)],
         batch=False),
    Case('lstm_link_steps', 'LSTM', lambda m, x, y, z: m.l(z) + m.l(y) * m.l(x),
         [u(2, 4), u(2, 4), u(2, 4)], links={'l': lambda: L.LSTM(4, 3)}),
    Case('n_step_lstm', 'n_step_lstm', lambda m, x, y: F.stack(m.l(None, None, [x, y])[2]),
         [u(3, 4), u(3, 4)], links={'l': lambda: L.NStepLSTM(2, 4, 5, 0.0)}),
    Case('n_step_lstm_states', 'n_step_lstm',
         lambda m, h, c, x, y: m.l(h, c, [x, y])[:2] + tuple(m.l(h, c, [x, y])[2]),
         [u(1, 2, 3), u(1, 2, 3), u(4, 2), u(4, 2)],
         links={'l': lambda: L.NStepLSTM(1, 2, 3, 0.0)}),
    Case('n_step_lstm_lengths', 'n_step_lstm',
         lambda m, x, y, z: m.l(None, None, [x, y, z])[2],
         [u(2, 3), u(4, 3), u(3, 3)], links={'l': lambda: L.NStepLSTM(2, 3, 4, 0.0)},
         batch=False),
    Case('n_step_bilstm', 'n_step_bilstm',
         lambda m, x, y: (m.l(None, None, [x, y])[0],) + tuple(m.l(None, None, [x, y])[2]),
         [u(3, 4), u(3, 4)], links={'l': lambda: L.NStepBiLSTM(2, 4, 5, 0.0)}),
    Case('n_step_bilstm_lengths', 'n_step_bilstm',
         lambda m, x, y: m.l(None, None, [x, y])[2], [u(4, 3), u(2, 3)],
         links={'l': lambda: L.NStepBiLSTM(1, 3, 2, 0.0)}, batch=False),
    Case('n_step_bigru', 'n_step_bigru', lambda m, x, y: m.g(None, [x, y])[1],
         [u(3, 4), u(3, 4)], links={'g': lambda: L.NStepBiGRU(2, 4, 5, 0.0)}),
    Case('n_step_gru_states', 'n_step_gru', lambda m, h, x, y: m.g(h, [x, y])[0],
         [u(2, 2, 5), u(3, 4), u(3, 4)], links={'g': lambda: L.NStepGRU(2, 4, 5, 0.0)}),
    Case('n_step_rnn', 'n_step_rnn', lambda m, x, y: m.r(None, [x, y])[1],
         [u(3, 4), u(3, 4)], links={'r': lambda: L.NStepRNNTanh(2, 4, 5, 0.0)}),
    Case('n_step_rnn_relu', 'n_step_rnn', lambda m, x, y: m.r(None, [x, y])[0],
         [u(3, 4), u(2, 4)], links={'r': lambda: L.NStepRNNReLU(1, 4, 5, 0.0)}, batch=False),
    Case('n_step_birnn', 'n_step_birnn', lambda m, x, y: m.r(None, [x, y])[1],
         [u(3, 4), u(3, 4)], links={'r': lambda: L.NStepBiRNNTanh(2, 4, 5, 0.0)}),
    Case('upsampling_2d', 'Upsampling2D', lambda m, x: _upsample(x, 2, 2, 0),
         [u(1, 2, 4, 6)]),
    Case('upsampling_2d_overlap', 'Upsampling2D', lambda m, x: _upsample(x, 3, 2, 1),
         [u(2, 2, 5, 5)]),
    Case('upsampling_2d_constant', 'Upsampling2D',
         lambda m, x: F.upsampling_2d(
             x, F.max_pooling_2d(np.arange(32, dtype=np.float32).reshape(1, 2, 4, 4) % 7, 2,
                                 return_indices=True)[1], 2, outsize=(5, 4),
             cover_all=False),
         [u(1, 2, 2, 2)]),
    Case('unpooling_2d_overlap', 'Unpooling2D',
         lambda m, x: F.unpooling_2d(x, 3, 2, 1, cover_all=False), [u(1, 2, 3, 3)]),
    Case('unpooling_nd', 'UnpoolingND', lambda m, x: F.unpooling_nd(x, 2), [u(1, 2, 2, 3, 2)]),
    Case('unpooling_nd_1d', 'UnpoolingND',
         lambda m, x: F.unpooling_nd(x, 3, 2, 1, outsize=(6,), cover_all=False), [u(2, 3, 3)]),

    # -- converters registered under names that no CPU function of Chainer has: exercised
    # through subclasses of that name (rechainer only)
    Case('alias_max_pooling_2d', 'MaxPooling2D',
         lambda m, x: _alias('MaxPooling2D', 'pooling.max_pooling_nd', 'MaxPoolingND',
                             2, 2, 2, 0, False)(x), [u(1, 2, 4, 4)], reference=False),
    Case('alias_selu', 'Selu', lambda m, x: _alias('Selu', 'activation.selu', 'SELU', 1.5, 1.1)(x),
         [u(2, 3)], reference=False),
    Case('alias_rsqrt_gpu', 'RsqrtGPU',
         lambda m, x: _alias('RsqrtGPU', 'math.sqrt', 'Rsqrt')(x), [p(2, 3)],
         reference=False),
    Case('alias_shape', 'Shape', lambda m, x: _ShapeNode().apply((x,))[0],
         [u(2, 3)], reference=False),

    # -- rnn
    Case('n_step_gru', 'n_step_gru', lambda m, x, y: m.g(None, [x, y])[1],
         [u(3, 4), u(3, 4)], links={'g': lambda: L.NStepGRU(1, 4, 5, 0.0)}),
]


def _alias(name, module, base, *args):
    # An instance of a subclass named ``name`` of the FunctionNode ``base``, applied once.
    import importlib
    cls = getattr(importlib.import_module('chainer.functions.' + module), base)
    node = type(name, (cls,), {})(*args)
    return lambda x: node.apply((x,))[0]


def _upsample(x, ksize, stride, pad):
    # Max pooling with its indexes, and the upsampling that puts the maxima back.
    y, indexes = F.max_pooling_2d(x, ksize, stride, pad, return_indices=True)
    return F.upsampling_2d(y, indexes, ksize, stride, pad, outsize=x.shape[2:])


class _ShapeNode(chainer.FunctionNode):
    """The shape of x as an int64 array (the node ONNX-Chainer's ``Shape`` converter is for)."""

    def forward(self, inputs):
        return np.array(inputs[0].shape, np.int64),


_ShapeNode.__name__ = 'Shape'


def by_name():
    return {c.name: c for c in CASES}


# -- whole models ------------------------------------------------------------------------------

class MLP(chainer.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(8, 16)
            self.l2 = L.Linear(16, 16)
            self.l3 = L.Linear(16, 10)

    def forward(self, x):
        return self.l3(F.relu(self.l2(F.relu(self.l1(x)))))


class CNN(chainer.Chain):
    """Convolutions with BatchNormalization (exported in test mode), pooling and a classifier."""

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.c1 = L.Convolution2D(3, 8, 3, pad=1)
            self.b1 = L.BatchNormalization(8)
            self.c2 = L.Convolution2D(8, 16, 3, stride=2)
            self.b2 = L.BatchNormalization(16)
            self.fc = L.Linear(None, 10)

    def forward(self, x):
        h = F.max_pooling_2d(F.relu(self.b1(self.c1(x))), 2)
        h = F.relu(self.b2(self.c2(h)))
        h = F.average_pooling_2d(h, 2)
        return F.softmax(self.fc(h))


def _randomize_statistics(model, seed):
    # Random running statistics, so that test-mode normalization is not the identity.
    rng = np.random.RandomState(seed)
    for link in model.links():
        if isinstance(link, L.BatchNormalization):
            link.avg_mean[...] = rng.uniform(-0.2, 0.2, link.avg_mean.shape)
            link.avg_var[...] = rng.uniform(0.5, 1.5, link.avg_var.shape)


class GRUModel(chainer.Chain):
    """Embedding, a two-layer n-step GRU over equal-length sequences and a classifier."""

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.embed = L.EmbedID(7, 4)
            self.gru = L.NStepGRU(2, 4, 6, 0.0)
            self.out = L.Linear(6, 3)

    def forward(self, *xs):
        hy, ys = self.gru(None, [self.embed(x) for x in xs])
        return self.out(hy[-1]), F.stack(ys)


class LSTMLM(chainer.Chain):
    """A language model over token ids ``(batch, length)``: an embedding, a two-layer n-step
    LSTM over the batch's sequences and a linear layer per step, ``(batch, length, vocab)``."""

    def __init__(self, vocab=11, units=6):
        super().__init__()
        with self.init_scope():
            self.embed = L.EmbedID(vocab, units)
            self.lstm = L.NStepLSTM(2, units, units, 0.0)
            self.out = L.Linear(units, vocab)

    def forward(self, x):
        _, _, ys = self.lstm(None, None, F.separate(self.embed(x), axis=0))
        return self.out(F.stack(ys, axis=0), n_batch_axes=2)


class Layer(chainer.Chain):
    """One layer's output of a vision model (before the softmax, which saturates with
    random weights)."""

    def __init__(self, model, layer):
        super().__init__()
        self.layer = layer
        with self.init_scope():
            self.model = model

    def forward(self, x):
        return self.model(x, layers=[self.layer])[self.layer]


def build_model(name):
    """Returns ``(model, args, export_kwargs)`` of the whole model ``name``."""
    np.random.seed(zlib.crc32(name.encode()) % (2 ** 31))
    rng = _rng(name)
    if name == 'mlp':
        return MLP(), (rng.uniform(-1, 1, (4, 8)).astype(np.float32),), {}
    if name == 'cnn':
        model = CNN()
        _randomize_statistics(model, 1)
        return model, (rng.uniform(-1, 1, (2, 3, 12, 12)).astype(np.float32),), {}
    if name == 'resnet50':
        model = L.ResNet50Layers(pretrained_model=None)
        _randomize_statistics(model, 2)
        x = rng.uniform(-1, 1, (1, 3, 112, 112)).astype(np.float32)
        return Layer(model, 'fc6'), (x,), {}
    if name == 'vgg16':
        model = L.VGG16Layers(pretrained_model=None)
        x = rng.uniform(-1, 1, (1, 3, 224, 224)).astype(np.float32)
        return Layer(model, 'fc8'), (x,), {}
    if name == 'n_step_gru':
        xs = tuple(rng.randint(0, 7, (5,)).astype(np.int32) for _ in range(3))
        return GRUModel(), xs, {}
    raise ValueError(name)


MODELS = ['mlp', 'cnn', 'resnet50', 'vgg16', 'n_step_gru']


# -- calls of export: arguments, names, errors and warnings ------------------------------------

def _x(*shape):
    return np.arange(np.prod(shape), dtype=np.float32).reshape(shape) / 10 - 0.3


def _seq(*fns):
    return chainer.Sequential(*fns)


def _two_in():
    return _seq(lambda a, b: a + b)


class _LinksModel(chainer.Chain):
    def __init__(self, fn, **links):
        super().__init__()
        self._fn = fn
        with self.init_scope():
            for k, v in links.items():
                setattr(self, k, v)

    def forward(self, *xs, **kw):
        return self._fn(self, *xs, **kw)


def _custom_converter(params):
    from onnx_chainer import onnx_helper
    return onnx_helper.make_node('Custom', params.input_names, params.output_names,
                                 domain='chainer_test'),


def _neg_converter(params):
    from onnx_chainer import onnx_helper
    return onnx_helper.make_node('Neg', params.input_names, params.output_names),


def _const_param_converter(params):
    from onnx_chainer import onnx_helper
    c = params.context
    n1 = c.add_const(np.array([1., 2., 3.], np.float32), 'cst')
    n2 = c.add_param(np.array([1., 2., 3.], np.float32), 'prm')
    n3 = c.add_param(np.array([1., 2., 3.], np.float32), 'orig', use_original_name=True)
    gb = onnx_helper.GraphBuilder()
    t = gb.op('Add', [params.input_names[0], n1])
    t = gb.op('Add', [t, n2])
    gb.op('Add', [t, n3])
    return gb.nodes(params.output_names)


def _calls():
    x = _x(2, 3)
    relu = _seq(F.relu)
    erf = _seq(F.relu, F.erf, F.tanh)
    two_out = _seq(lambda a: (F.relu(a), F.tanh(a)))
    dict_out = _seq(lambda a: {'p': F.relu(a), 'q': F.tanh(a)})
    return [
        ('default', lambda oc: oc.export(relu, x)),
        ('no_converter', lambda oc: oc.export(erf, x)),
        ('no_converter_opset9', lambda oc: oc.export(erf, x, opset_version=9)),
        ('opset6', lambda oc: oc.export(relu, x, opset_version=6)),
        ('opset7', lambda oc: oc.export(relu, x, opset_version=7)),
        ('opset12', lambda oc: oc.export(relu, x, opset_version=12)),
        ('opset0', lambda oc: oc.export(relu, x, opset_version=0)),
        ('opset_cosh_8', lambda oc: oc.export(_seq(F.cosh), x, opset_version=8)),
        ('input_names_list', lambda oc: oc.export(relu, x, input_names=['in'])),
        ('input_names_str', lambda oc: oc.export(relu, x, input_names='in')),
        ('input_names_too_many', lambda oc: oc.export(relu, x, input_names=['a', 'b'])),
        ('input_names_two', lambda oc: oc.export(_two_in(), (x, x), input_names=['a', 'b'])),
        ('input_names_two_short', lambda oc: oc.export(_two_in(), (x, x), input_names=['a'])),
        ('input_names_dict', lambda oc: oc.export(
            _LinksModel(lambda m, a, b: a - b), {'a': x, 'b': x * 2},
            input_names={'a': 'A', 'b': 'B'})),
        ('input_names_dict_partial', lambda oc: oc.export(
            _LinksModel(lambda m, a, b: a - b), {'a': x, 'b': x * 2}, input_names={'a': 'A'})),
        ('input_names_list_for_dict', lambda oc: oc.export(
            _LinksModel(lambda m, a, b: a - b), {'a': x, 'b': x * 2}, input_names=['A', 'B'])),
        ('output_names_list', lambda oc: oc.export(two_out, x, output_names=['o1', 'o2'])),
        ('output_names_short', lambda oc: oc.export(two_out, x, output_names=['o1'])),
        ('output_names_single', lambda oc: oc.export(relu, x, output_names=['y'])),
        ('output_names_dict', lambda oc: oc.export(
            dict_out, x, output_names={'p': 'P', 'q': 'Q'})),
        ('output_names_dict_partial', lambda oc: oc.export(
            dict_out, x, output_names={'p': 'P'})),
        ('output_names_list_for_dict', lambda oc: oc.export(
            dict_out, x, output_names=['P', 'Q'])),
        ('output_dict', lambda oc: oc.export(dict_out, x)),
        ('output_list', lambda oc: oc.export(_seq(lambda a: [F.relu(a), F.tanh(a)]), x)),
        ('output_input', lambda oc: oc.export(_seq(lambda a: a), x)),
        ('output_array', lambda oc: oc.export(_seq(lambda a: F.relu(a).array), x)),
        ('output_array_in_tuple', lambda oc: oc.export(_seq(lambda a: (a, a.array)), x)),
        ('output_list_in_tuple', lambda oc: oc.export(_seq(lambda a: ([F.relu(a)],)), x)),
        ('output_none', lambda oc: oc.export(_seq(lambda a: None), x)),
        ('args_int', lambda oc: oc.export(relu, 3)),
        ('args_none', lambda oc: oc.export(relu, None)),
        ('args_list', lambda oc: oc.export(_two_in(), [x, x])),
        ('args_variable', lambda oc: oc.export(relu, chainer.Variable(x))),
        ('args_scalar_array', lambda oc: oc.export(relu, np.array(2.0, np.float32))),
        ('shape_named', lambda oc: oc.export(relu, x, input_shapes=('b', 3))),
        ('shape_static_other', lambda oc: oc.export(relu, x, input_shapes=(5, 3))),
        ('shape_list_single', lambda oc: oc.export(relu, x, input_shapes=[('b', 3)])),
        ('shape_str', lambda oc: oc.export(relu, x, input_shapes='?')),
        ('shape_len', lambda oc: oc.export(relu, x, input_shapes=('?', 5, 5))),
        ('shape_not_single', lambda oc: oc.export(relu, x, input_shapes=[('?', 3), ('?', 3)])),
        ('shape_list_len', lambda oc: oc.export(_two_in(), (x, x), input_shapes=[('?', 3)])),
        ('shape_elem_len', lambda oc: oc.export(
            _two_in(), (x, x), input_shapes=[('?', 3), ('?', 3, 4)])),
        ('shape_float', lambda oc: oc.export(relu, x, input_shapes=(2.5, 3))),
        ('shape_dict', lambda oc: oc.export(
            _LinksModel(lambda m, a, b: a - b), {'a': x, 'b': x},
            input_shapes={'b': ('n', 3), 'a': ('n', 3)})),
        ('shape_dict_key', lambda oc: oc.export(
            _LinksModel(lambda m, a, b: a - b), {'a': x, 'b': x},
            input_shapes={'a': ('?', 3), 'c': ('?', 3)})),
        ('shape_dict_on_tuple', lambda oc: oc.export(
            _two_in(), (x, x), input_shapes={'a': ('?', 3)})),
        ('shape_list_for_dict', lambda oc: oc.export(
            _LinksModel(lambda m, a, b: a - b), {'a': x, 'b': x},
            input_shapes=[('k', 3), ('k', 3)])),
        ('shape_list_for_dict_len', lambda oc: oc.export(
            _LinksModel(lambda m, a, b: a - b), {'a': x, 'b': x}, input_shapes=[('k', 3)])),
        ('graph_name', lambda oc: oc.export(relu, x, graph_name='MyGraph')),
        ('export_params_false', lambda oc: oc.export(
            _LinksModel(lambda m, a: m.l(a), l=L.Linear(3, 2)), x, export_params=False)),
        ('unused_uninitialized', lambda oc: oc.export(
            _LinksModel(lambda m, a: m.l1(a), l1=L.Linear(None, 2), l2=L.Linear(None, 4)), x)),
        ('unused_initialized', lambda oc: oc.export(
            _LinksModel(lambda m, a: m.l1(a), l1=L.Linear(3, 2), l2=L.Linear(3, 4)), x)),
        ('param_direct', lambda oc: oc.export(
            _LinksModel(lambda m, a: F.relu(a) + m.p,
                        p=chainer.Parameter(np.ones(3, np.float32))), x)),
        ('implicit_array', lambda oc: oc.export(
            _seq(lambda a: a + np.array(3, np.float32)), x)),
        ('implicit_variable', lambda oc: oc.export(
            _seq(lambda a: a * chainer.Variable(np.array(3, np.float32))), x)),
        ('implicit_two', lambda oc: oc.export(
            _seq(lambda a: (a + np.array(3, np.float32)) * np.array(2, np.float32)), x)),
        ('same_link_twice', lambda oc: oc.export(
            _LinksModel(lambda m, a: m.l(a) + m.l(a), l=L.Linear(3, 3)), x)),
        ('node_order', lambda oc: oc.export(
            _seq(lambda a: F.tanh(F.relu(a)) + F.relu(F.tanh(a))), x)),
        ('node_order_three', lambda oc: oc.export(
            _seq(lambda a: F.relu(a) + F.relu(a) + F.relu(a)), x)),
        ('train_bn_dropout', lambda oc: oc.export(
            _LinksModel(lambda m, a: F.dropout(m.bn(a), 0.3), bn=L.BatchNormalization(3)),
            x, train=True)),
        ('external_converter', lambda oc: oc.export(
            erf, x, external_converters={'Erf': _const_param_converter})),
        ('external_converter_domain', lambda oc: oc.export(
            erf, x, external_converters={'Erf': _custom_converter},
            external_opset_imports={'chainer_test': 1})),
        ('external_converter_no_import', lambda oc: oc.export(
            erf, x, external_converters={'Erf': _custom_converter})),
        ('external_converter_override', lambda oc: oc.export(
            relu, x, external_converters={'ReLU': _neg_converter})),
        ('external_converter_not_dict', lambda oc: oc.export(
            relu, x, external_converters=[_neg_converter])),
        ('input_names_duplicate', lambda oc: oc.export(
            _two_in(), (x, x), input_names=['a', 'a'])),
        ('output_names_duplicate', lambda oc: oc.export(two_out, x, output_names=['o', 'o'])),
        ('input_names_int', lambda oc: oc.export(relu, x, input_names=3)),
        ('input_names_dict_on_tuple', lambda oc: oc.export(
            _two_in(), (x, x), input_names={'a': 'A'})),
        ('opset_str', lambda oc: oc.export(relu, x, opset_version='9')),
        ('filename', lambda oc: _files(oc.export(relu, x, filename='m.onnx'), 'm.onnx')),
        ('filename_save_text', lambda oc: _files(
            oc.export(relu, x, filename='t.onnx', save_text=True), 't.onnx')),
        ('filename_no_testcase', lambda oc: _files(
            oc.export(relu, x, filename='n.onnx', no_testcase=True), 'n.onnx')),
        ('return_named_inout', lambda oc: _named_inout(oc.export(
            two_out, x, output_names=['o1', 'o2'], return_named_inout=True))),
    ]


def _files(model, filename):
    import os
    import onnx
    loaded = onnx.load(filename)
    return {'files': sorted(f for f in os.listdir('.') if f.startswith(filename)),
            'same': loaded.graph.SerializeToString() == model.graph.SerializeToString()}


def _named_inout(result):
    model, inputs, outputs = result
    return {'inputs': list(inputs.keys()), 'outputs': list(outputs.keys()),
            'input_shapes': [list(v.shape) for v in inputs.values()],
            'output_shapes': [list(v.shape) for v in outputs.values()],
            'input_types': sorted({type(v).__name__ for v in inputs.values()}),
            'output_types': sorted({type(v).__name__ for v in outputs.values()})}


def calls():
    """``[(name, fn)]``: calls of ``export`` whose outcome is compared with Chainer 7.8.1's;
    ``fn(onnx_chainer)`` makes the call."""
    return _calls()


# -- a comparable description of an ONNX model -------------------------------------------------

def _attr_value(attr):
    import onnx
    from onnx import helper, numpy_helper
    value = helper.get_attribute_value(attr)
    if isinstance(value, bytes):
        return value.decode()
    if isinstance(value, onnx.TensorProto):
        array = numpy_helper.to_array(value)
        return {'dtype': array.dtype.str, 'shape': list(array.shape),
                'values': array.ravel().tolist()[:64]}
    if isinstance(value, list):
        return [v.decode() if isinstance(v, bytes) else v for v in value]
    return value


def _value_info(v):
    t = v.type.tensor_type
    return [v.name, t.elem_type, [d.dim_param or d.dim_value for d in t.shape.dim]]


def dump_model(model):
    """A JSON-able description of an ONNX ``ModelProto``."""
    g = model.graph
    return {
        'ir_version': model.ir_version,
        'opset_import': sorted([o.domain, o.version] for o in model.opset_import),
        'producer': [model.producer_name, model.producer_version],
        'graph_name': g.name,
        'input': [_value_info(v) for v in g.input],
        'output': [_value_info(v) for v in g.output],
        'initializer': [[t.name, t.data_type, list(t.dims)] for t in g.initializer],
        'node': [[n.op_type, n.name, list(n.input), list(n.output), n.domain,
                  {a.name: _attr_value(a) for a in n.attribute}] for n in g.node],
    }
