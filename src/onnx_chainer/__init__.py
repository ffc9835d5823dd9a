"""ONNX-Chainer: exports Chainer models to ONNX.

``export`` runs the model once, records the graph the forward pass builds and converts each
function of it to ONNX operators (``onnx_chainer.functions``); ``export_testcase`` also writes
the inputs and outputs in the layout of ONNX's backend tests. Exporting needs the ``onnx``
package (``pip install 'rechainer[onnx]'``); importing this package does not.
"""
import importlib as _importlib

# The submodules named ``export`` and ``export_testcase`` are shadowed by the functions of the
# same name, as in Chainer's onnx_chainer: import them first, then bind the functions.
from onnx_chainer import export as _export_module  # NOQA
from onnx_chainer.export import DEFAULT_OPSET_VERSION  # NOQA
from onnx_chainer.export import MAXIMUM_OPSET_VERSION  # NOQA
from onnx_chainer.export import MINIMUM_OPSET_VERSION  # NOQA
from onnx_chainer import export_testcase as _export_testcase_module  # NOQA
from onnx_chainer.export import convert_parameter  # NOQA
from onnx_chainer.export import export  # NOQA
from onnx_chainer.export_testcase import export_testcase  # NOQA

# Submodules that need the onnx package load when first used.
_LAZY = ('context', 'functions', 'graph', 'mapping', 'onnx_helper', 'replace_func', 'testing')


def __getattr__(name):
    if name in _LAZY:
        return _importlib.import_module('onnx_chainer.' + name)
    raise AttributeError("module 'onnx_chainer' has no attribute %r" % name)


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
