"""Links: layers with parameters (``chainer.links``, usually imported as ``L``).

Each link lives at the same module path as in Chainer
(``chainer.links.connection.linear``...). This package only re-exports them; a
module is imported the first time one of its names is used, which keeps
``import chainer`` fast. A new link adds one line to ``_MODULES``.
"""
import importlib

from chainer import _lazy

# module (relative to this package) -> public names it provides
_MODULES = {
    # activation
    'activation.maxout': 'Maxout',
    'activation.prelu': 'PReLU',
    'activation.simplified_dropconnect': 'SimplifiedDropconnect',
    'activation.swish': 'Swish',
    # connection
    'connection.bias': 'Bias',
    'connection.bilinear': 'Bilinear',
    'connection.convolution_2d': 'Convolution2D',
    'connection.convolution_nd': 'Convolution1D Convolution3D ConvolutionND',
    'connection.deconvolution_2d': 'Deconvolution2D',
    'connection.deconvolution_nd': 'Deconvolution1D Deconvolution3D DeconvolutionND',
    'connection.deformable_convolution_2d': 'DeformableConvolution2D',
    'connection.depthwise_convolution_2d': 'DepthwiseConvolution2D',
    'connection.dilated_convolution_2d': 'DilatedConvolution2D',
    'connection.embed_id': 'EmbedID',
    'connection.highway': 'Highway',
    'connection.inception': 'Inception',
    'connection.inceptionbn': 'InceptionBN',
    'connection.linear': 'Linear',
    'connection.local_convolution_2d': 'LocalConvolution2D',
    'connection.mlp_convolution_2d': 'MLPConvolution2D',
    'connection.parameter': 'Parameter',
    'connection.scale': 'Scale',
    # loss
    'loss.black_out': 'BlackOut',
    'loss.crf1d': 'CRF1d',
    'loss.hierarchical_softmax': 'BinaryHierarchicalSoftmax',
    'loss.negative_sampling': 'NegativeSampling',
    # model
    'model.classifier': 'Classifier',
    'model.torch_module': 'TorchModule',
    'model.vision.googlenet': 'GoogLeNet',
    'model.vision.resnet': 'ResNet101Layers ResNet152Layers ResNet50Layers',
    'model.vision.vgg': 'VGG16Layers VGG19Layers',
    # normalization
    'normalization.batch_normalization': 'BatchNormalization',
    'normalization.batch_renormalization': 'BatchRenormalization',
    'normalization.decorrelated_batch_normalization': 'DecorrelatedBatchNormalization',
    'normalization.group_normalization': 'GroupNormalization',
    'normalization.layer_normalization': 'LayerNormalization',
    # rnn
    'rnn.gru': 'GRU StatefulGRU StatelessGRU',
    'rnn.lstm': 'LSTM StatelessLSTM',
    'rnn.mgu': 'StatefulMGU StatelessMGU',
    'rnn.n_step_gru': 'NStepBiGRU NStepGRU',
    'rnn.n_step_lstm': 'NStepBiLSTM NStepLSTM',
    'rnn.n_step_rnn': 'NStepBiRNNReLU NStepBiRNNTanh NStepRNNReLU NStepRNNTanh',
    'rnn.peephole': 'StatefulPeepholeLSTM',
    'rnn.tree_lstm': 'ChildSumTreeLSTM NaryTreeLSTM',
    'rnn.zoneoutlstm': 'StatefulZoneoutLSTM',
    # theano
    'theano.theano_function': 'TheanoFunction',
}

_NAME_TO_MODULE = {name: mod for mod, names in _MODULES.items() for name in names.split()}
__all__ = sorted(_NAME_TO_MODULE)


def __getattr__(name):
    mod = _NAME_TO_MODULE.get(name)
    if mod is None:
        # the families (``chainer.links.connection``...), as Chainer's eager imports make them
        value = _lazy.import_submodule(__name__, name)
        if value is None:
            raise AttributeError(f"module 'chainer.links' has no attribute '{name}'")
        return value
    value = getattr(importlib.import_module('chainer.links.' + mod), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))
