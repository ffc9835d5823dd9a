"""Differentiable functions (``chainer.functions``, usually imported as ``F``).

Each function lives in its own module under a family package, at the same path
as in Chainer (``chainer.functions.activation.relu``...). This package only
re-exports them; a module is imported the first time one of its names is used,
which keeps ``import chainer`` fast.
"""
import importlib

# module (relative to this package) -> public names it provides
_MODULES = {
    # activation
    'activation.clipped_relu': 'clipped_relu relu6',
    'activation.crelu': 'crelu',
    'activation.elu': 'elu',
    'activation.hard_sigmoid': 'hard_sigmoid',
    'activation.leaky_relu': 'leaky_relu',
    'activation.log_softmax': 'log_softmax',
    'activation.maxout': 'maxout',
    'activation.prelu': 'prelu',
    'activation.relu': 'relu',
    'activation.rrelu': 'rrelu',
    'activation.selu': 'selu',
    'activation.sigmoid': 'sigmoid',
    'activation.softmax': 'softmax',
    'activation.softplus': 'softplus',
    'activation.swish': 'swish',
    'activation.tanh': 'tanh',
    # array
    'array.as_strided': 'as_strided',
    'array.broadcast': 'broadcast broadcast_to',
    'array.cast': 'cast',
    'array.concat': 'concat',
    'array.copy': 'copy',
    'array.depth2space': 'depth2space',
    'array.diagonal': 'diagonal',
    'array.dstack': 'dstack',
    'array.expand_dims': 'expand_dims',
    'array.flatten': 'flatten',
    'array.flip': 'flip',
    'array.fliplr': 'fliplr',
    'array.flipud': 'flipud',
    'array.get_item': 'get_item',
    'array.hstack': 'hstack',
    'array.im2col': 'im2col',
    'array.moveaxis': 'moveaxis',
    'array.pad': 'pad',
    'array.pad_sequence': 'pad_sequence',
    'array.permutate': 'permutate',
    'array.repeat': 'repeat',
    'array.reshape': 'reshape',
    'array.resize_images': 'resize_images',
    'array.rollaxis': 'rollaxis',
    'array.scatter_add': 'scatter_add',
    'array.select_item': 'select_item',
    'array.separate': 'separate',
    'array.space2depth': 'space2depth',
    'array.spatial_transformer_grid': 'spatial_transformer_grid',
    'array.spatial_transformer_sampler': 'spatial_transformer_sampler',
    'array.split_axis': 'split_axis',
    'array.squeeze': 'squeeze',
    'array.stack': 'stack',
    'array.swapaxes': 'swapaxes',
    'array.tile': 'tile',
    'array.transpose': 'transpose',
    'array.transpose_sequence': 'transpose_sequence',
    'array.vstack': 'vstack',
    'array.where': 'where',
    # connection
    'connection.bilinear': 'bilinear',
    'connection.convolution_2d': 'convolution_2d',
    'connection.convolution_nd': 'convolution_1d convolution_3d convolution_nd',
    'connection.deconvolution_2d': 'deconvolution_2d',
    'connection.deconvolution_nd': 'deconvolution_1d deconvolution_3d deconvolution_nd',
    'connection.deformable_convolution_2d_sampler': 'deformable_convolution_2d_sampler',
    'connection.depthwise_convolution_2d': 'depthwise_convolution_2d',
    'connection.dilated_convolution_2d': 'dilated_convolution_2d',
    'connection.embed_id': 'embed_id',
    'connection.linear': 'linear',
    'connection.local_convolution_2d': 'local_convolution_2d',
    'connection.shift': 'shift',
    # evaluation
    'evaluation.accuracy': 'accuracy',
    'evaluation.binary_accuracy': 'binary_accuracy',
    'evaluation.classification_summary': 'classification_summary f1_score precision recall',
    'evaluation.r2_score': 'r2_score',
    # loss
    'loss.absolute_error': 'absolute_error',
    'loss.black_out': 'black_out',
    'loss.contrastive': 'contrastive',
    'loss.crf1d': 'argmax_crf1d crf1d',
    'loss.cross_covariance': 'cross_covariance',
    'loss.ctc': 'connectionist_temporal_classification',
    'loss.decov': 'decov',
    'loss.discriminative_loss': 'discriminative_margin_based_clustering_loss',
    'loss.hinge': 'hinge',
    'loss.huber_loss': 'huber_loss',
    'loss.mean_absolute_error': 'mean_absolute_error',
    'loss.mean_squared_error': 'mean_squared_error',
    'loss.negative_sampling': 'negative_sampling',
    'loss.sigmoid_cross_entropy': 'sigmoid_cross_entropy',
    'loss.softmax_cross_entropy': 'softmax_cross_entropy',
    'loss.squared_error': 'squared_difference squared_error',
    'loss.triplet': 'triplet',
    'loss.vae': 'bernoulli_nll gaussian_kl_divergence gaussian_nll',
    # math
    'math.arctanh': 'arctanh',
    'math.average': 'average mean',
    'math.basic_math': 'absolute add',
    'math.batch_l2_norm_squared': 'batch_l2_norm_squared',
    'math.bias': 'bias',
    'math.ceil': 'ceil',
    'math.cholesky': 'cholesky',
    'math.clip': 'clip',
    'math.cumprod': 'cumprod',
    'math.cumsum': 'cumsum',
    'math.det': 'batch_det det',
    'math.digamma': 'digamma',
    'math.einsum': 'einsum',
    'math.erf': 'erf',
    'math.erfc': 'erfc',
    'math.erfcinv': 'erfcinv',
    'math.erfcx': 'erfcx',
    'math.erfinv': 'erfinv',
    'math.exponential': 'exp log log10 log2',
    'math.exponential_m1': 'expm1',
    'math.fft': 'fft ifft',
    'math.fix': 'fix',
    'math.floor': 'floor',
    'math.fmod': 'fmod',
    'math.hyperbolic': 'cosh sinh',
    'math.identity': 'identity',
    'math.inv': 'batch_inv inv',
    'math.lgamma': 'lgamma',
    'math.linear_interpolate': 'linear_interpolate',
    'math.log_ndtr': 'log_ndtr',
    'math.logarithm_1p': 'log1p',
    'math.logsumexp': 'logsumexp',
    'math.matmul': 'batch_matmul matmul',
    'math.maximum': 'maximum',
    'math.minimum': 'minimum',
    'math.minmax': 'argmax argmin max min',
    'math.ndtr': 'ndtr',
    'math.ndtri': 'ndtri',
    'math.polygamma': 'polygamma',
    'math.prod': 'prod',
    'math.scale': 'scale',
    'math.sign': 'sign',
    'math.sparse_matmul': 'sparse_matmul',
    'math.sqrt': 'rsqrt sqrt',
    'math.square': 'square',
    'math.sum': 'sum sum_to',
    'math.tensordot': 'tensordot',
    'math.trigonometric': 'arccos arcsin arctan arctan2 cos sin tan',
    'math.zeta': 'zeta',
    # noise
    'noise.dropout': 'dropout',
    'noise.gaussian': 'gaussian',
    'noise.gumbel_softmax': 'gumbel_softmax',
    'noise.simplified_dropconnect': 'simplified_dropconnect',
    'noise.zoneout': 'zoneout',
    # normalization
    'normalization.batch_normalization': 'batch_normalization fixed_batch_normalization',
    'normalization.batch_renormalization': 'batch_renormalization fixed_batch_renormalization',
    'normalization.decorrelated_batch_normalization':
        'decorrelated_batch_normalization fixed_decorrelated_batch_normalization',
    'normalization.group_normalization': 'group_normalization',
    'normalization.l2_normalization': 'normalize',
    'normalization.layer_normalization': 'layer_normalization',
    'normalization.local_response_normalization': 'local_response_normalization',
    # pooling
    'pooling.average_pooling_2d': 'average_pooling_2d',
    'pooling.average_pooling_nd': 'average_pooling_1d average_pooling_3d average_pooling_nd',
    'pooling.max_pooling_nd': 'max_pooling_1d max_pooling_2d max_pooling_3d max_pooling_nd',
    'pooling.roi_average_align_2d': 'roi_average_align_2d',
    'pooling.roi_average_pooling_2d': 'roi_average_pooling_2d',
    'pooling.roi_max_align_2d': 'roi_max_align_2d',
    'pooling.roi_max_pooling_2d': 'roi_max_pooling_2d',
    'pooling.roi_pooling_2d': 'roi_pooling_2d',
    'pooling.spatial_pyramid_pooling_2d': 'spatial_pyramid_pooling_2d',
    'pooling.unpooling_2d': 'unpooling_2d',
    'pooling.unpooling_nd': 'unpooling_1d unpooling_3d unpooling_nd',
    'pooling.upsampling_2d': 'upsampling_2d',
    # rnn
    'rnn.lstm': 'lstm',
    'rnn.n_step_gru': 'n_step_bigru n_step_gru',
    'rnn.n_step_lstm': 'n_step_bilstm n_step_lstm',
    'rnn.n_step_rnn': 'n_step_birnn n_step_rnn',
    'rnn.slstm': 'slstm',
    'rnn.tree_lstm': 'tree_lstm',
    # util
    'util.forget': 'forget',
}

_NAME_TO_MODULE = {name: mod for mod, names in _MODULES.items() for name in names.split()}
__all__ = sorted(_NAME_TO_MODULE)
_FAMILIES = frozenset(mod.split('.')[0] for mod in _MODULES)


_class_index = None


def _find_class(name):
    # Old code also reaches the FunctionNode classes through this package (``F.ReLU``); they are
    # looked up, on first such access, among the classes defined in the function modules.
    global _class_index
    if _class_index is None:
        from chainer import function_node
        index = {}
        for mod in _MODULES:
            module = importlib.import_module('chainer.functions.' + mod)
            for attr, value in vars(module).items():
                if (isinstance(value, type) and issubclass(value, function_node.FunctionNode)
                        and value.__module__ == module.__name__ and not attr.startswith('_')):
                    index.setdefault(attr, value)
        _class_index = index
    return _class_index.get(name)


def __getattr__(name):
    mod = _NAME_TO_MODULE.get(name)
    if mod is None and (name in _FAMILIES or name == 'theano'):
        # ``chainer.functions.loss.crf1d`` works in Chainer (its package imports every family).
        value = importlib.import_module('chainer.functions.' + name)
    elif mod is None:
        value = _find_class(name) if name[:1].isupper() else None
        if value is None:
            raise AttributeError(f"module 'chainer.functions' has no attribute '{name}'")
    else:
        value = getattr(importlib.import_module('chainer.functions.' + mod), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))
