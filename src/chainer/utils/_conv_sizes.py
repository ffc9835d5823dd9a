"""Output sizes of convolutions along one axis: the one module both ``conv`` (2-D) and
``conv_nd`` (N-D) take them from."""


def get_conv_outsize(size, k, s, p, cover_all=False, d=1):
    """Calculates the output size of a convolution along one axis.

    Args:
        size (int): Input size.
        k (int): Kernel size.
        s (int): Stride.
        p (int): Padding on each side.
        cover_all (bool): If ``True``, add an output for a last partial window
            so that every input element is covered.
        d (int): Dilation.

    Returns:
        int: The output size.
    """
    span = (k - 1) * d + 1
    if cover_all:
        return (size + 2 * p - span + s - 1) // s + 1
    return (size + 2 * p - span) // s + 1


def get_deconv_outsize(size, k, s, p, cover_all=False, d=1):
    """Calculates the output size of a deconvolution along one axis.

    This is the input size of the convolution whose output size is ``size``.

    Args:
        size (int): Input size.
        k (int): Kernel size.
        s (int): Stride.
        p (int): Padding on each side.
        cover_all (bool): Whether the matching convolution uses ``cover_all``.
        d (int): Dilation.

    Returns:
        int: The output size.
    """
    span = (k - 1) * d + 1
    if cover_all:
        return s * (size - 1) + span - s + 1 - 2 * p
    return s * (size - 1) + span - 2 * p
