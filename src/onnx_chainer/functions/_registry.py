"""The table of built-in converters: FunctionNode name -> converter.

A converter module declares each converter with :func:`converts`, which registers it under the
names of the FunctionNode classes it converts and, for converters with variants per opset,
applies ``opset_version.support``.
"""
from onnx_chainer.functions.opset_version import support

CONVERTERS = {}


def converts(*names, opsets=None, own_signature=False):
    """Registers the decorated ``convert_<Name>(func, opset_version, input_names,
    output_names, context)`` for the function names ``names``.

    Args:
        names (str): FunctionNode class names (or ``custom_function_node_name``).
        opsets (tuple of int): The opsets of its variants (``None``: one form for all).
        own_signature (bool): Show the converter's own signature rather than the opset
            wrapper's ``(*args, **kwargs)``, as onnx_chainer 7.8.1 did for the converters
            that had no opset variants there.
    """
    def wrapper(fn):
        converter = support(opsets)(fn) if opsets else fn
        if opsets and own_signature:
            converter.__wrapped__ = fn
        for name in names:
            if name in CONVERTERS:
                raise ValueError('two converters for {}'.format(name))
            CONVERTERS[name] = converter
        return converter
    return wrapper


def lowest_opset(name):
    """The lowest opset the converter of ``name`` supports (1 when it has no variants)."""
    versions = getattr(CONVERTERS[name], 'opset_versions', None)
    return versions[0] if versions else 1
