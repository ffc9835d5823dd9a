"""Links: layers with parameters (``chainer.links``, usually imported as ``L``).

Each link lives at the same module path as in Chainer
(``chainer.links.connection.linear``...). This package only re-exports them; a
module is imported the first time one of its names is used, which keeps
``import chainer`` fast. A new link adds one line to ``_MODULES``.
"""
import importlib

# module (relative to this package) -> public names it provides
_MODULES = {
    # connection
    'connection.embed_id': 'EmbedID',
    'connection.linear': 'Linear',
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
}

_NAME_TO_MODULE = {name: mod for mod, names in _MODULES.items() for name in names.split()}
__all__ = sorted(_NAME_TO_MODULE)


def __getattr__(name):
    mod = _NAME_TO_MODULE.get(name)
    if mod is None:
        raise AttributeError(f"module 'chainer.links' has no attribute '{name}'")
    value = getattr(importlib.import_module('chainer.links.' + mod), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))
