"""Converters of ``chainer.functions.noise``."""
from onnx_chainer import onnx_helper
from onnx_chainer.functions._registry import converts
from onnx_chainer.functions.opset_version import support  # NOQA


@converts('Dropout', opsets=(1, 6, 7))
def convert_Dropout(func, opset_version, input_names, output_names, context):
    """ONNX's Dropout, which runtimes apply only in training mode (Chainer's dropout is the
    identity outside training and is then not in the graph at all)."""
    attrs = {'ratio': float(func.dropout_ratio)}
    if opset_version < 7:
        attrs['is_test'] = 0
    return onnx_helper.make_node('Dropout', input_names, output_names, **attrs),
