"""Exporting a model to Caffe's format: not supported by rechainer.

Chainer 7.8.1 writes ``.prototxt``/``.caffemodel`` files through protobuf bindings generated
from Caffe's schema; rechainer does not ship those bindings. Export with Chainer 7.8.1 (load
the model saved here with :func:`chainer.serializers.save_npz` into it), or export to ONNX with
``onnx_chainer``.
"""


def export(model, args, directory=None, export_params=True, graph_name='Graph'):
    """Exports ``model`` to Caffe's format; not supported by rechainer (raises RuntimeError)."""
    raise RuntimeError(
        'chainer.exporters.caffe.export: exporting to Caffe is not supported by rechainer '
        '(it needs bindings of Caffe\'s protobuf schema); export with Chainer 7.8.1, or to '
        'ONNX with onnx_chainer')
