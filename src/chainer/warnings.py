"""Warning categories specific to Chainer."""


class PerformanceWarning(RuntimeWarning):
    """Issued when a computation takes a path known to be slow."""
