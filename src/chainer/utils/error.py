"""Formatting helpers for error messages."""


def _format_array_props(arrays):
    # "(2, 3):float32, (2,):int32": the shapes and dtypes a function was given.
    return ', '.join(f'{a.shape}:{a.dtype}' for a in arrays)
