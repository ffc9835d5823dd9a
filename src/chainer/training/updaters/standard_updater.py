"""The updater of the usual one-model, one-optimizer training."""
from chainer import backend
from chainer.dataset import convert
from chainer.training import _updater
from chainer.utils import argument


def _as_dict(value):
    # Custom updaters (a GAN's, say) pass dicts without 'main' and override
    # update_core, so 'main' is only required where it is used.
    if isinstance(value, dict):
        return dict(value)
    return {'main': value}


class StandardUpdater(_updater.Updater):
    """Updater that takes a batch, converts it and runs the main optimizer's update.

    Args:
        iterator: Dataset iterator, or a dict of them (``'main'`` is used).
        optimizer: Optimizer, or a dict of them (``'main'`` is updated).
        converter: Converts a batch to the arguments of the loss function
            (:func:`~chainer.dataset.concat_examples` by default).
        device: Device the model is sent to and the batches converted to.
        loss_func: Loss function (the target link of the optimizer by default).
            A tuple batch is passed as positional arguments, a dict as
            keyword arguments, anything else as one argument.
        loss_scale (float): Loss scaling factor given to each optimizer.
        auto_new_epoch (bool): Call ``optimizer.new_epoch()`` at each epoch end.
        input_device: Device of the converted batches (``device`` by default).

    Attributes:
        iteration (int): Number of updates done.
        converter, loss_func, loss_scale, auto_new_epoch: As given.
    """

    def __init__(self, iterator, optimizer, converter=convert.concat_examples, device=None,
                 loss_func=None, loss_scale=None, auto_new_epoch=True, **kwargs):
        (input_device,) = argument.parse_kwargs(kwargs, ('input_device', None))
        if device is not None:
            device = backend.get_device(device)
        input_device = device if input_device is None else backend.get_device(input_device)
        self._iterators = _as_dict(iterator)
        self._optimizers = _as_dict(optimizer)
        if device is not None:
            for opt in self._optimizers.values():
                opt.target.to_device(device)
        if loss_scale is not None:
            for opt in self._optimizers.values():
                opt.set_loss_scale(loss_scale)
        if auto_new_epoch:
            for opt in self._optimizers.values():
                opt.use_auto_new_epoch = True
        self._device = device
        self._input_device = input_device
        self.converter = converter
        self.loss_func = loss_func
        self.loss_scale = loss_scale
        self.auto_new_epoch = auto_new_epoch
        self.iteration = 0

    @property
    def device(self):
        return self._device

    @property
    def input_device(self):
        return self._input_device

    @property
    def epoch(self):
        return self._iterators['main'].epoch

    @property
    def epoch_detail(self):
        return self._iterators['main'].epoch_detail

    @property
    def previous_epoch_detail(self):
        return self._iterators['main'].previous_epoch_detail

    @property
    def is_new_epoch(self):
        return self._iterators['main'].is_new_epoch

    def finalize(self):
        for it in self._iterators.values():
            it.finalize()

    def get_optimizer(self, name):
        return self._optimizers[name]

    def get_all_optimizers(self):
        return dict(self._optimizers)

    def get_iterator(self, name):
        """Returns the iterator of the given name."""
        return self._iterators[name]

    def update(self):
        """Runs one iteration (:meth:`update_core`) and counts it."""
        self.update_core()
        self.iteration += 1

    def update_core(self):
        """Takes the next batch of ``'main'`` and updates the main optimizer with it."""
        iterator = self._iterators['main']
        batch = iterator.next()
        in_arrays = convert._call_converter(self.converter, batch, self.input_device)
        optimizer = self._optimizers['main']
        loss_func = self.loss_func or optimizer.target
        _call_update(optimizer, loss_func, in_arrays)
        if self.auto_new_epoch and iterator.is_new_epoch:
            optimizer.new_epoch(auto=True)

    def serialize(self, serializer):
        """Saves or loads iterators, optimizers, models and the iteration count.

        Keys: ``iterator:<name>/...``, ``optimizer:<name>/...``,
        ``model:<name>/...`` and ``iteration``.
        """
        for name, it in sorted(self._iterators.items()):
            it.serialize(serializer['iterator:' + name])
        for name, opt in sorted(self._optimizers.items()):
            opt.serialize(serializer['optimizer:' + name])
            opt.target.serialize(serializer['model:' + name])
        self.iteration = serializer('iteration', self.iteration)


def _call_update(optimizer, loss_func, in_arrays):
    if isinstance(in_arrays, tuple):
        optimizer.update(loss_func, *in_arrays)
    elif isinstance(in_arrays, dict):
        optimizer.update(loss_func, **in_arrays)
    else:
        optimizer.update(loss_func, in_arrays)
