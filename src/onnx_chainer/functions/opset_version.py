"""Converters with variants per ONNX opset."""
import functools


def support(opset_versions):
    """Declares the opsets at which a converter's output changes.

    The decorated converter is called with the highest of ``opset_versions`` that does not
    exceed the opset being exported (so that it branches on the variants it knows), and
    refuses opsets below the lowest with a RuntimeError.

    Args:
        opset_versions (tuple of int): The opsets of the variants, in increasing order.
    """
    versions = tuple(sorted(opset_versions))

    def wrapper(converter):
        @functools.wraps(converter)
        def converter_with_variant(*args, **kwargs):
            func, opset_version = args[0], args[1]
            variant = None
            for v in versions:
                if v <= opset_version:
                    variant = v
            if variant is None:
                raise RuntimeError(
                    'ONNX-Chainer cannot convert `{}` of Chainer with ONNX opset_version '
                    '{}'.format(type(func).__name__, opset_version))
            return converter(func, variant, *args[2:], **kwargs)
        converter_with_variant.opset_versions = versions
        # (its signature is ``(*args, **kwargs)``, as in onnx_chainer 7.8.1, not the wrapped
        # converter's)
        del converter_with_variant.__wrapped__
        return converter_with_variant
    return wrapper
