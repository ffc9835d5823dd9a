"""The built-in converters, one ``convert_<FunctionNode name>`` each.

A converter takes ``(func, opset_version, input_names, output_names, context)`` and returns
the ONNX nodes of one function of the graph (see ``converter.FunctionConverter``).
"""
from onnx_chainer.functions import activation  # NOQA
from onnx_chainer.functions import array  # NOQA
from onnx_chainer.functions import connection  # NOQA
from onnx_chainer.functions import converter  # NOQA
from onnx_chainer.functions import loss  # NOQA
from onnx_chainer.functions import math  # NOQA
from onnx_chainer.functions import noise  # NOQA
from onnx_chainer.functions import normalization  # NOQA
from onnx_chainer.functions import opset_version  # NOQA
from onnx_chainer.functions import pooling  # NOQA
from onnx_chainer.functions import rnn  # NOQA


def _export_converters():
    for module in (activation, array, connection, loss, math, noise, normalization, pooling,
                   rnn):
        for name, value in vars(module).items():
            if name.startswith('convert_'):
                globals()[name] = value


_export_converters()
