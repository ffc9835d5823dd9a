"""Data-parallel updater: one model copy per device, gradients summed on the main one."""
import copy

from chainer import backend
from chainer import serializer as serializer_module
from chainer.dataset import convert
from chainer.training.updaters import standard_updater


class ParallelUpdater(standard_updater.StandardUpdater):
    """Splits each batch over model copies on several devices (in one process).

    Each copy computes the loss and gradients of its part of the batch; the
    gradients are added to the main model, the main optimizer updates it, and
    the new parameters are copied back to the other models.

    Args:
        iterator: Dataset iterator (or a dict with ``'main'``).
        optimizer: Optimizer of the main model (or a dict with ``'main'``).
        converter: Batch converter.
        models (dict): Models by name, ``'main'`` being the optimizer's
            target. Built from ``devices`` when ``None``.
        devices (dict): Devices by name (``'main'`` included); a copy of the
            target is sent to each.
        loss_func: Loss function (each model itself by default).
        loss_scale (float): Loss scaling factor.
        auto_new_epoch (bool): Call ``optimizer.new_epoch()`` at each epoch end.
    """

    def __init__(self, iterator, optimizer, converter=convert.concat_examples, models=None,
                 devices=None, loss_func=None, loss_scale=None, auto_new_epoch=True):
        super().__init__(iterator, optimizer, converter=converter, loss_func=loss_func,
                         loss_scale=loss_scale, auto_new_epoch=auto_new_epoch)
        if models is None:
            if devices is None:
                raise ValueError('ParallelUpdater: either models or devices must be specified')
            if 'main' not in devices:
                raise ValueError(f'ParallelUpdater: devices needs a "main" entry, got the '
                                 f'keys {sorted(devices)}')
            devices = {name: backend.get_device(d) for name, d in devices.items()}
            main = self.get_optimizer('main').target
            main.to_device(devices['main'])
            models = {'main': main}
            for name, device in devices.items():
                if name != 'main':
                    model = copy.deepcopy(main)
                    model.to_device(device)
                    models[name] = model
        elif 'main' not in models:
            raise ValueError(f'ParallelUpdater: models needs a "main" entry, got the keys '
                             f'{sorted(models)}')
        self._devices = devices
        self._models = models

    def serialize(self, serializer):
        """Saves or loads the state as :class:`StandardUpdater` does (the main model's).

        After a load the other copies take the main model's parameters, so that the
        next update starts from the loaded ones everywhere (Chainer 7.8.1 leaves them
        as they were until the update after).
        """
        super().serialize(serializer)
        if not isinstance(serializer, serializer_module.Serializer):
            main = self._models['main']
            for name, model in self._models.items():
                if name != 'main':
                    model.copyparams(main)

    def connect_trainer(self, trainer):
        # The copies report under the same names as the main model's links.
        for name, model in self._models.items():
            if name != 'main':
                trainer.reporter.add_observer(name, model)
                trainer.reporter.add_observers(name, model.namedlinks(skipself=True))

    def update_core(self):
        optimizer = self.get_optimizer('main')
        iterator = self.get_iterator('main')
        batch = iterator.next()
        names = list(self._models)
        n = len(names)
        losses = []
        for i, name in enumerate(names):
            model = self._models[name]
            part = batch[i::n]  # every n-th example, as Chainer 7.8.1 splits the batch
            in_arrays = convert._call_converter(self.converter, part, model.device)
            loss_func = self.loss_func or model
            if isinstance(in_arrays, tuple):
                loss = loss_func(*in_arrays)
            elif isinstance(in_arrays, dict):
                loss = loss_func(**in_arrays)
            else:
                loss = loss_func(in_arrays)
            losses.append(loss)
        for model in self._models.values():
            model.cleargrads()
        for loss in losses:
            loss.backward(loss_scale=self.loss_scale)
        main = self._models['main']
        for name in names:
            if name != 'main':
                main.addgrads(self._models[name])
        optimizer.update()
        for name in names:
            if name != 'main':
                self._models[name].copyparams(main)
        if self.auto_new_epoch and iterator.is_new_epoch:
            optimizer.new_epoch(auto=True)
