"""A trainer driven by a mock updater, for testing extensions and triggers."""
import unittest.mock


def get_trainer_with_mock_updater(stop_trigger=(10, 'iteration'), iter_per_epoch=10,
                                  extensions=None):
    """Returns a :class:`~chainer.training.Trainer` whose updater is a mock.

    Each call of the updater's ``update`` (a ``unittest.mock.Mock`` method, so calls
    are recorded) advances ``iteration`` by one and keeps ``epoch``,
    ``epoch_detail``, ``previous_epoch_detail`` and ``is_new_epoch`` consistent with
    ``iter_per_epoch``; ``get_all_optimizers()`` returns ``{}``. Extensions and
    triggers can thus be run through ``trainer.run()`` without a model or data.

    Args:
        stop_trigger: Stop trigger of the trainer.
        iter_per_epoch (int): Number of iterations that make one epoch.
        extensions (list): Extensions registered to the trainer.

    Returns:
        ~chainer.training.Trainer: The trainer.
    """
    from chainer import training

    updater = unittest.mock.Mock()
    updater.get_all_optimizers.return_value = {}
    updater.iteration = 0
    updater.epoch = 0
    updater.epoch_detail = 0.0
    updater.previous_epoch_detail = None
    updater.is_new_epoch = False

    def advance():
        updater.previous_epoch_detail = updater.epoch_detail
        updater.iteration += 1
        epoch = updater.iteration // iter_per_epoch
        updater.is_new_epoch = epoch != updater.epoch
        updater.epoch = epoch
        updater.epoch_detail = updater.iteration / iter_per_epoch

    updater.update.side_effect = advance
    return training.Trainer(updater, stop_trigger, extensions=[] if extensions is None
                            else extensions)
