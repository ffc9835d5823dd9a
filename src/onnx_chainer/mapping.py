"""The built-in converters by function name, and the functions an export runs as one node."""
import contextlib
import importlib

from onnx_chainer import functions
from onnx_chainer.functions import _registry
from onnx_chainer.functions.converter import FunctionConverter
from onnx_chainer.replace_func import fake_as_funcnode

converters = {name: FunctionConverter(fn) for name, fn in _registry.CONVERTERS.items()}

# (module, attribute, node name): Python functions over smaller FunctionNodes that an export
# records as one node each, so that they become one ONNX operator.
_N_STEP = ('n_step_rnn', 'n_step_birnn', 'n_step_gru', 'n_step_bigru', 'n_step_lstm',
           'n_step_bilstm')
_PATCHED = tuple(
    [('chainer.functions', name, name) for name in _N_STEP]
    + [('chainer.functions.rnn.' + name.replace('bi', ''), name, name) for name in _N_STEP]
    + [('chainer.functions', 'sign', 'sign')])
_RENAMED = {name: [(0, 'n_layers'), (1, 'dropout_ratio')] for name in _N_STEP}

@contextlib.contextmanager
def patch_functions():
    """Within the block, the functions of ``_PATCHED`` record one node each."""
    saved = []
    try:
        for module_name, attr, node_name in _PATCHED:
            module = importlib.import_module(module_name)
            original = getattr(module, attr)
            saved.append((module, attr, original, attr in vars(module)))
            setattr(module, attr, fake_as_funcnode(
                original, node_name, _RENAMED.get(node_name), experimental_warning=False))
        yield
    finally:
        for module, attr, original, present in reversed(saved):
            if present:
                setattr(module, attr, original)
            else:
                delattr(module, attr)

