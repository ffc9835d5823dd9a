"""Marking APIs as experimental."""
import warnings

import chainer


def experimental(api_name):
    """Declares that the caller is using an experimental API.

    Issues a ``FutureWarning`` saying that ``api_name`` may change, unless
    ``chainer.disable_experimental_feature_warning`` is ``True``. Call it at
    the top of the experimental function, or in ``__init__`` to mark a class.

    Args:
        api_name (str): Name of the API shown in the warning, e.g.
            ``'chainer.foo.bar'``.
    """
    if not getattr(chainer, 'disable_experimental_feature_warning', False):
        warnings.warn(
            f'{api_name} is experimental. The interface can change in the future.',
            FutureWarning, stacklevel=3)
