"""The interface of updaters."""


class Updater:
    """Base of updaters: one :meth:`update` is one training iteration.

    An updater owns the iterators and optimizers of a training and exposes
    the progress (``iteration``, ``epoch``, ``epoch_detail``...) that triggers
    read.
    """

    def connect_trainer(self, trainer):
        """Called by the trainer that owns this updater (does nothing by default)."""

    def finalize(self):
        """Releases what the updater holds (called when training ends)."""

    def get_optimizer(self, name):
        """Returns the optimizer of the given name."""
        raise NotImplementedError

    def get_all_optimizers(self):
        """Returns a dictionary of all optimizers by name."""
        raise NotImplementedError

    def update(self):
        """Runs one iteration."""
        raise NotImplementedError

    def serialize(self, serializer):
        """Saves or loads the updater's state."""
        raise NotImplementedError
