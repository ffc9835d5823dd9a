"""Warning for functions whose results may differ from run to run."""
import warnings

from chainer import configuration


def nondeterministic(f_name):
    """Warns that non-deterministic code runs, if the user asked to be told.

    Functions that use atomic additions on the GPU (scatter-adds and the like)
    call this; it warns only under ``chainer.config.warn_nondeterministic``.

    Args:
        f_name (str): Name of the function, shown in the warning.
    """
    if configuration.config.warn_nondeterministic:
        warnings.warn(
            f'{f_name} may give non-deterministic results (it runs code such as atomic '
            'additions), and chainer.config.warn_nondeterministic is set', stacklevel=3)
