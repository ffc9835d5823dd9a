"""The one place that imports the optional ``onnx`` package."""

_INSTALL_HINT = ("ONNX is not installed on your environment. Exporting your model in ONNX "
                 "format needs the onnx package.\n\n\t$ pip install 'rechainer[onnx]'\n\n"
                 "(the extra 'onnx' brings onnx and onnxruntime)")


def require():
    """Returns the ``onnx`` module, or raises ImportError naming the extra to install."""
    try:
        import onnx
        import onnx.checker  # NOQA
        import onnx.helper  # NOQA
        import onnx.numpy_helper  # NOQA
        import onnx.shape_inference  # NOQA
    except ImportError as e:
        raise ImportError(_INSTALL_HINT) from e
    return onnx


def available():
    """Whether the ``onnx`` package can be imported."""
    try:
        require()
    except ImportError:
        return False
    return True
