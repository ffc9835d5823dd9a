"""Optimizers: the base classes, update rules and their hyperparameters.

An :class:`Optimizer` is set up on a link; a :class:`GradientMethod` gives
every parameter its own :class:`UpdateRule`, whose :class:`Hyperparameter`
falls back to the optimizer's, so a parameter's learning rate can be changed
alone while the others follow the optimizer.
"""
import collections
import copy
import math
import warnings

import numpy

import chainer
from chainer import _errors
from chainer import backend
from chainer import link as _link
from chainer import serializer as serializer_module
from chainer import variable

_CpuDevice = backend.CpuDevice


class Hyperparameter:
    """Set of hyperparameters that falls back to a parent set.

    An attribute not set on this object is looked up on ``parent``.

    Args:
        parent (Hyperparameter): Where missing attributes are looked up.
    """

    def __init__(self, parent=None):
        self._parent = parent

    def __getattr__(self, name):
        # Only reached for attributes not set here. Names of the copy/pickle
        # protocols and the parent itself must not recurse.
        if name.startswith('__') or name == '_parent':
            raise AttributeError(name)
        parent = self.__dict__.get('_parent')
        if parent is None:
            raise AttributeError(f'hyperparameter {name!r} does not exist')
        return getattr(parent, name)

    def __repr__(self):
        items = sorted(self.get_dict().items())
        return 'Hyperparameter(%s)' % ', '.join('%s=%r' % kv for kv in items)

    @property
    def parent(self):
        """The hyperparameter set this one falls back to."""
        return self._parent

    def get_dict(self):
        """Returns every hyperparameter, including the inherited ones, as a dict."""
        d = {} if self._parent is None else self._parent.get_dict()
        d.update((k, v) for k, v in self.__dict__.items() if k != '_parent')
        return d


def _read_hyperparameters(hyperparam, names):
    """The values of ``names`` in ``hyperparam``, inherited ones included, in order.

    Update rules read several hyperparameters per parameter and step. Through attributes,
    each read of an inherited value is a failed lookup and a ``__getattr__`` call per level
    of fallback; this walks the sets' dicts once. A chain holding anything but plain
    :class:`Hyperparameter` objects (a subclass may compute its values) is read through
    attributes, and so is a missing name, for its error.
    """
    dicts = []
    hp = hyperparam
    while type(hp) is Hyperparameter:
        values = hp.__dict__
        dicts.append(values)
        hp = values.get('_parent')
    if hp is not None:
        return [getattr(hyperparam, name) for name in names]
    found = []
    for name in names:
        for values in dicts:
            if name in values:
                found.append(values[name])
                break
        else:
            found.append(getattr(hyperparam, name))
    return found


class HyperparameterProxy:
    """Property that reads and writes an attribute of ``self.hyperparam``.

    Optimizers declare ``lr = HyperparameterProxy('lr')`` so that
    ``optimizer.lr`` is ``optimizer.hyperparam.lr``.

    Args:
        attr_name (str): Name of the hyperparameter.
    """

    def __init__(self, attr_name):
        self._attr_name = attr_name
        self.__doc__ = f'Alias of ``hyperparam.{attr_name}``.'

    def __get__(self, obj, type=None):
        if obj is None:
            return self
        return getattr(obj.hyperparam, self._attr_name)

    def __set__(self, obj, value):
        setattr(obj.hyperparam, self._attr_name, value)


_TIMINGS = ('pre', 'post')


class _Hookable:
    """Named hooks called before (``'pre'``) or after (``'post'``) an update."""

    def __init__(self, invalid_timing_fallback=False):
        self._pre = collections.OrderedDict()
        self._post = collections.OrderedDict()
        # Old optimizer hooks may carry a timing this API does not know; they
        # then run before the update, as they did when there was no timing.
        self._invalid_timing_fallback = invalid_timing_fallback

    def add_hook(self, hook, name, timing):
        if not callable(hook):
            raise TypeError(f'hook function must be callable (add_hook got {type(hook).__name__})')
        if timing not in ('pre', 'post', 'auto'):
            raise ValueError(f"add_hook: timing must be 'pre', 'post' or 'auto', got {timing!r}")
        if timing == 'auto':
            timing = getattr(hook, 'timing', 'pre')
            if timing not in _TIMINGS:
                if not self._invalid_timing_fallback:
                    raise ValueError(f'add_hook: the hook {name!r} has an invalid timing '
                                     f'{timing!r} (expected pre or post)')
                warnings.warn(f'hook {name!r} has an invalid timing {timing!r}; it runs '
                              f"'pre'", FutureWarning)
                timing = 'pre'
        if name in self._pre or name in self._post:
            raise KeyError(f'hook "{name}" already exists (add_hook)')
        self.__get_hooks(timing)[name] = hook

    def remove_hook(self, name):
        for hooks in (self._pre, self._post):
            if name in hooks:
                del hooks[name]
                return
        raise KeyError(f'remove_hook: no hook named {name!r}')

    def call_hooks(self, timing, args):
        for hook in list(self.__get_hooks(timing).values()):
            self.call_hook(hook, args)

    def call_hook(self, hook, args):
        hook(*args)

    def __get_hooks(self, timing):
        if timing == 'pre':
            return self._pre
        if timing == 'post':
            return self._post
        raise ValueError(f"timing must be 'pre' or 'post', got {timing!r}")


def _hook_name(hook, name):
    if name is None:
        name = getattr(hook, 'name', None)
        if name is None:
            name = getattr(hook, '__name__', None)
    if name is None:
        raise ValueError('add_hook: the hook has neither a name nor a __name__; '
                         'pass name=')
    return name


class UpdateRule:
    """How one parameter is updated from its gradient.

    Subclasses implement :meth:`update_core` (or :meth:`update_core_cpu` and
    :meth:`update_core_gpu`) and, if they keep state, :meth:`init_state`.

    Args:
        parent_hyperparam (Hyperparameter): Hyperparameters to fall back to
            (an optimizer's).

    Attributes:
        enabled (bool): ``False`` skips the update.
        hyperparam (Hyperparameter): This rule's hyperparameters.
        t (int): Number of updates done.
    """

    is_elementwise = False
    _state_device = None  # where the state arrays were last checked to be

    def __init__(self, parent_hyperparam=None):
        self._hooks = _Hookable(invalid_timing_fallback=True)
        self._state = None
        self.enabled = True
        self.hyperparam = Hyperparameter(parent_hyperparam)
        self.t = 0
        self._use_fp32_update = False
        self._fp32_param = None

    @property
    def state(self):
        """Dictionary of the rule's state arrays (``None`` before the first update)."""
        return self._state

    def add_hook(self, hook, name=None, timing='auto'):
        """Adds a hook called as ``hook(rule, param)`` around each update.

        Args:
            hook (callable): The hook.
            name (str): Its name (default: ``hook.name`` or ``hook.__name__``).
            timing (str): ``'pre'``, ``'post'``, or ``'auto'`` (the hook's
                ``timing`` attribute, else ``'pre'``).
        """
        if not callable(hook):
            raise TypeError(f'hook function must be callable (add_hook got {type(hook).__name__})')
        self._hooks.add_hook(hook, _hook_name(hook, name), timing)

    def remove_hook(self, name):
        """Removes the hook of that name (:class:`KeyError` if there is none)."""
        self._hooks.remove_hook(name)

    def update(self, param):
        """Updates ``param`` from its gradient (nothing if :attr:`enabled` is off).

        Args:
            param (~chainer.Variable): The parameter.
        """
        if not self.enabled:
            return
        self.t += 1
        if self._use_fp32_update and _dtype_or_none(param) == numpy.float16:
            fp32 = self._fp32_param
            if fp32 is None:
                fp32 = self._fp32_param = self._create_fp32_param(param)
            if param.array is not None:
                if fp32.array is None:
                    fp32.array = param.array.astype(numpy.float32)
                grad = param.grad
                fp32.grad = None if grad is None else grad.astype(numpy.float32)
            fp32._loss_scale = param._loss_scale
            self.__update(fp32)
            if param.array is not None:
                param.array[...] = fp32.array
            fp32.grad = None
        else:
            self.__update(param)

    def __update(self, param):
        loss_scale = param._loss_scale
        if loss_scale is not None and param.grad is not None:
            # The loss was scaled before backward; scale the gradient back.
            grad = param.grad
            grad /= loss_scale
        if param.array is not None:
            self._prepare(param)
        hooks = self._hooks
        if hooks._pre:      # (most rules have no hooks: no call, no argument tuple)
            hooks.call_hooks('pre', (self, param))
        self.update_core(param)
        if hooks._post:
            hooks.call_hooks('post', (self, param))

    def _create_fp32_param(self, param):
        if param.array is None:
            fp32 = variable.Parameter(name=param.name)
            fp32.initializer = _DtypeOnly(numpy.float32)
            return fp32
        return variable.Variable(param.array.astype(numpy.float32), name=param.name)

    def update_core(self, param):
        """Updates ``param``; dispatches to the CPU or GPU implementation."""
        if isinstance(param.array, numpy.ndarray):
            self.update_core_cpu(param)
            return
        device = param.device
        xp = device.xp
        if xp is numpy:
            self.update_core_cpu(param)
        elif getattr(xp, '__name__', '') == 'cupy':
            with chainer.using_device(device):
                self.update_core_gpu(param)
        else:
            self.update_core_chainerx(param)

    def update_core_cpu(self, param):
        """Updates a parameter held in a NumPy array."""
        raise NotImplementedError

    def update_core_gpu(self, param):
        """Updates a parameter held in a CuPy array."""
        raise NotImplementedError

    def update_core_chainerx(self, param):
        """Updates a parameter held in a ChainerX array (not supported by rechainer)."""
        raise NotImplementedError('ChainerX arrays are not supported by rechainer')

    def init_state(self, param):
        """Creates the state arrays for ``param`` in :attr:`state` (none by default)."""

    def serialize(self, serializer):
        """Saves or loads ``t`` and the state arrays.

        When loading into a rule that has no state yet, the state's keys are
        found by initialising a copy of the rule on a dummy parameter. If the
        file lacks them (a non-strict load) the state stays ``None``, to be
        created at the next update; a missing key is only an error while the
        rule is enabled.
        """
        self.t = serializer('t', self.t)
        self._state_device = None  # loaded arrays are on the CPU until the next update
        if self._state is None:
            if not isinstance(serializer, serializer_module.Deserializer):
                return
            self._state = {}
            probe = copy.copy(self)
            dummy = numpy.empty(1, numpy.float32)
            probe.init_state(variable.Variable(dummy, grad=dummy))
            loaded, missing = {}, None
            for key in list(self._state):
                try:
                    loaded[key] = serializer(key, None)
                except KeyError as e:
                    missing = e
            self._state = None
            if missing is not None:
                # No state key at all: the rule had no state when saved (its parameter was
                # not initialized yet), which Chainer 7 writes but cannot read back.
                if loaded and self.enabled:
                    raise missing
                return
            if all(value is not None for value in loaded.values()):
                self._state = loaded
        else:
            for key in self._state:
                self._state[key] = serializer(key, self._state[key])

    def _prepare(self, param):
        state = self._state
        if (state is not None and isinstance(param.array, numpy.ndarray)
                and type(self._state_device) is _CpuDevice):
            return      # the usual case, decided without building a device object
        device = param.device
        if state is None:
            with chainer.using_device(device):
                self._state = {}
                self.init_state(param)
        elif device != self._state_device:
            # Loaded state, or a parameter moved to another device: bring the arrays along.
            for key, value in state.items():
                if hasattr(value, 'shape') and not numpy.isscalar(value):
                    if not device.is_array_supported(value):
                        state[key] = device.send(value)
        self._state_device = device

    def use_fp32_update(self, flag=True):
        """Updates float16 parameters through a float32 master copy.

        Args:
            flag (bool): Whether to do so.
        """
        self._use_fp32_update = flag


def _dtype_or_none(param):
    try:
        return param.dtype
    except RuntimeError:  # uninitialized, with an initializer that gives no dtype
        return None


class _DtypeOnly:
    # Initializer stand-in giving an uninitialised float32 copy its dtype.

    def __init__(self, dtype):
        self.dtype = numpy.dtype(dtype)

    def __call__(self, array):
        array[...] = 0


class _OptimizerHookable(_Hookable):
    # Optimizer hooks take the optimizer; those with ``call_for_each_param``
    # take (update_rule, param) for every parameter instead.

    def __init__(self, optimizer):
        super().__init__()
        self.optimizer = optimizer

    def call_hook(self, hook, args):
        self.optimizer.call_hook(hook)


class Optimizer:
    """Base class of optimizers.

    Attributes:
        target (~chainer.Link): The link being optimized (set by :meth:`setup`).
        t (int): Number of updates done.
        epoch (int): Current epoch (advanced by :meth:`new_epoch`).
        use_auto_new_epoch (bool): Whether the updater calls :meth:`new_epoch`
            itself (then a manual call is an error).
    """

    target = None
    t = 0
    epoch = 0
    _loss_scale = None
    _loss_scale_max = 65504
    _loss_scaling_is_dynamic = False
    _loss_scaling_isnan = False
    use_auto_new_epoch = False
    _hookable = None

    def setup(self, link):
        """Sets the link to optimize and resets the counters.

        Args:
            link (~chainer.Link): The target.

        Returns:
            Optimizer: ``self``.
        """
        from chainer import link as link_module
        if not isinstance(link, link_module.Link):
            raise TypeError(f'optimization target must be a link ({type(self).__name__}.setup '
                            f'got {type(link).__name__})')
        self.target = link
        self.t = 0
        self.epoch = 0
        self._hookable = _OptimizerHookable(self)
        return self

    def update(self, lossfun=None, *args, **kwds):
        """Updates the parameters (implemented by subclasses)."""
        raise NotImplementedError

    def new_epoch(self, auto=False):
        """Starts a new epoch (``epoch += 1``).

        Args:
            auto (bool): ``True`` when the call comes from an updater with
                ``auto_new_epoch``; it must agree with :attr:`use_auto_new_epoch`.
        """
        if self.use_auto_new_epoch and not auto:
            raise RuntimeError(
                'new_epoch: this optimizer advances its epoch automatically '
                '(use_auto_new_epoch=True); do not call new_epoch yourself')
        if auto and not self.use_auto_new_epoch:
            raise RuntimeError(
                'new_epoch(auto=True) on an optimizer without use_auto_new_epoch')
        self.epoch += 1

    def _check_set_up(self):
        if self._hookable is None:
            raise RuntimeError(f'Optimizer is not set up. Call `setup` method. '
                               f'({type(self).__name__} has no target link yet)')

    def add_hook(self, hook, name=None, timing='auto'):
        """Adds an optimizer hook (e.g. :class:`~chainer.optimizer_hooks.WeightDecay`).

        Args:
            hook (callable): Called as ``hook(optimizer)``, or as
                ``hook(update_rule, param)`` for each parameter if it has
                ``call_for_each_param = True``.
            name (str): Its name (default: ``hook.name`` or ``hook.__name__``).
            timing (str): ``'pre'`` (before the update), ``'post'``, or
                ``'auto'`` (the hook's ``timing`` attribute, else ``'pre'``).
        """
        self._check_set_up()
        if not callable(hook):
            raise TypeError(f'hook function must be callable (add_hook got {type(hook).__name__})')
        self._hookable.add_hook(hook, _hook_name(hook, name), timing)

    def remove_hook(self, name):
        """Removes the hook of that name."""
        self._check_set_up()
        self._hookable.remove_hook(name)

    def call_hooks(self, timing='pre'):
        """Calls the hooks registered for ``timing``."""
        self._check_set_up()
        self._hookable.call_hooks(timing, (self,))

    def call_hook(self, hook):
        if getattr(hook, 'call_for_each_param', False):
            for param in self.target.params():
                hook(param.update_rule, param)
        else:
            hook(self)

    def serialize(self, serializer):
        """Saves or loads ``t``, ``epoch`` and each parameter's update rule."""
        self.t = serializer('t', self.t)
        self.epoch = serializer('epoch', self.epoch)
        for name, param in self.target.namedparams():
            rule = getattr(param, 'update_rule', None)
            if rule is not None:
                rule.serialize(serializer[name])

    def loss_scaling(self, interval=1000, scale=None):
        """Turns on loss scaling (for float16 training).

        With ``scale=None`` the scale is dynamic: it starts at 1 and doubles at
        every update until a gradient first holds inf or NaN; from then on,
        such an update is skipped and halves the scale, and every good update
        multiplies it by ``2 ** (1 / interval)`` (doubling it after
        ``interval`` good updates). The scale stays within ``[1, 65504]``.

        Args:
            interval (int): Good updates it takes to double the scale.
            scale (float): A fixed scale instead of the dynamic one.
        """
        if interval < 1:
            raise ValueError(f'loss_scaling: interval must be at least 1, got {interval}')
        if scale is not None and scale <= 0:
            raise ValueError(f'loss_scaling: scale must be positive, got {scale}')
        self._loss_scale_max = 65504
        self._loss_scaling_multiplier = math.pow(2.0, 1.0 / interval)
        self._loss_scaling_isnan_ever = False
        if scale is None:
            self._loss_scaling_is_dynamic = True
            scale = 1.0
        else:
            self._loss_scaling_is_dynamic = False
        self._loss_scale = scale

    def set_loss_scale(self, loss_scale):
        """Sets the loss scale used by :meth:`update` with a loss function."""
        self._loss_scale = loss_scale

    def check_nan_in_grads(self):
        """Records whether any gradient holds inf or NaN (with dynamic scaling only)."""
        self._loss_scaling_isnan = False
        if not self._loss_scaling_is_dynamic:
            return
        for name, param in self.target.namedparams():
            grad = param.grad
            if grad is None:
                continue
            xp = backend.get_array_module(grad)
            if not xp.isfinite(grad).all():
                self._loss_scaling_isnan = True
                warnings.warn(f'Non finite number found in param.grad of {name} '
                              f'(iteration: {self.t}, loss_scale: {self._loss_scale})')

    def is_safe_to_update(self):
        """Whether the last :meth:`check_nan_in_grads` found only finite gradients."""
        return not self._loss_scaling_isnan

    def update_loss_scale(self):
        """Adjusts the dynamic loss scale after an update (see :meth:`loss_scaling`)."""
        if not self._loss_scaling_is_dynamic:
            return
        if self._loss_scaling_isnan:
            self._loss_scaling_isnan_ever = True
            multiplier = 0.5
        elif self._loss_scaling_isnan_ever:
            multiplier = self._loss_scaling_multiplier
        else:
            multiplier = 2.0
        self._loss_scale = max(1, min(self._loss_scale_max, self._loss_scale * multiplier))


def _reallocate_cleared_grads(params):
    # GradientMethod.reallocate_cleared_grads on the given parameters (those not initialised
    # are left alone).
    for param in params:
        if param.grad is None and param.array is not None:
            device = param.device
            with chainer.using_device(device):
                param.grad = device.xp.zeros_like(param.array)


class GradientMethod(Optimizer):
    """Base class of the optimizers that update each parameter from its gradient.

    Subclasses implement :meth:`create_update_rule`.

    Attributes:
        hyperparam (Hyperparameter): The optimizer's hyperparameters, parent
            of every update rule's.
    """

    def __init__(self):
        super().__init__()
        self.hyperparam = Hyperparameter()
        self._use_fp32_update = False

    def setup(self, link):
        super().setup(link)
        for param in link.params():
            rule = self.create_update_rule()
            if self._use_fp32_update:
                rule.use_fp32_update()
            param.update_rule = rule
        return self

    def reallocate_cleared_grads(self):
        """Gives each initialised parameter whose gradient is ``None`` a zero one."""
        _reallocate_cleared_grads(self.target.params(False))

    def call_hook(self, hook):
        with chainer.using_device(self.target.device):
            super().call_hook(hook)
        # A hook may clear gradients; the next hooks and the rules expect arrays.
        self.reallocate_cleared_grads()

    def update(self, lossfun=None, *args, **kwds):
        """Updates every parameter once.

        Args:
            lossfun (callable): If given, gradients are cleared, the loss
                ``lossfun(*args, **kwds)`` is computed and backpropagated
                (scaled by the loss scale, if any) first; otherwise the
                gradients already computed are used.
        """
        self._check_set_up()
        params = None
        if lossfun is not None:
            use_cleargrads = getattr(self, '_use_cleargrads', True)
            try:
                loss = lossfun(*args, **kwds)
            except TypeError as e:
                if not callable(lossfun):
                    _errors.add_to_message(e, f'{type(self).__name__}.update: lossfun must be '
                                              f'callable, got {type(lossfun).__name__}')
                raise
            if not use_cleargrads:
                self.target.zerograds()
            elif type(self.target).cleargrads is _link.Link.cleargrads:
                # (Link.cleargrads, on the walk that the reallocations and updates reuse)
                params = list(self.target.params())
                for param in params:
                    param.cleargrad()
            else:
                self.target.cleargrads()
            try:
                backward = loss.backward
            except AttributeError as e:
                _errors.add_to_message(e, f'{type(self).__name__}.update: lossfun must return '
                                          f'the loss as a Variable, got {type(loss).__name__}')
                raise
            backward(loss_scale=self._loss_scale)
            del loss, backward
        self.check_nan_in_grads()
        # One walk over the parameters serves the reallocations and the updates, unless a
        # hook runs in between (it may change the model) or the reallocation is not ours.
        own = type(self).reallocate_cleared_grads is GradientMethod.reallocate_cleared_grads
        if params is None:
            params = list(self.target.params())
        if own:
            _reallocate_cleared_grads(params)
        else:
            self.reallocate_cleared_grads()
        self.call_hooks('pre')
        if self._hookable._pre or type(self).call_hooks is not Optimizer.call_hooks:
            params = list(self.target.params())
        self.t += 1
        if self.is_safe_to_update():
            for param in self._update_together(params):
                try:
                    param.update()
                except Exception as e:
                    # (costs nothing unless raised) which optimizer and parameter
                    self._name_parameter(e, param)
                    raise
        if own:
            _reallocate_cleared_grads(params)
        else:
            self.reallocate_cleared_grads()
        self.call_hooks('post')
        self.update_loss_scale()

    def _update_together(self, params):
        """Updates some of the parameters in the list ``params`` at once and returns the
        others, which ``update`` then updates one by one. An optimizer whose rule is
        elementwise may override this (see :class:`~chainer.optimizers._util.FlatStates`); by
        default none is updated here."""
        return params

    def _name_parameter(self, error, param):
        path = next((n for n, p in self.target.namedparams() if p is param), param.name)
        _errors.add_to_message(
            error, f'{type(self).__name__}.update: updating parameter {path} of '
                   f'{_errors.describe(param)} with a gradient of '
                   f'{_errors.describe(param.grad)} failed')

    def use_cleargrads(self, use=True):
        """Chooses ``cleargrads`` (default) or ``zerograds`` before a loss is backpropagated.

        Deprecated in Chainer: ``cleargrads`` is always better.
        """
        warnings.warn('GradientMethod.use_cleargrads is deprecated', DeprecationWarning)
        self._use_cleargrads = use

    def create_update_rule(self):
        """Returns a new update rule for one parameter (implemented by subclasses)."""
        raise NotImplementedError

    def use_fp32_update(self, flag=True):
        """Makes every update rule update float16 parameters through float32 copies.

        Call before :meth:`setup`.
        """
        self._use_fp32_update = flag
        if self.target is not None:
            for param in self.target.params():
                param.update_rule.use_fp32_update(flag)


# Old names of the optimizer hooks, kept in this module with a deprecation warning.
_DEPRECATED_HOOKS = {
    'WeightDecay': 'weight_decay',
    'Lasso': 'lasso',
    'GradientClipping': 'gradient_clipping',
    'GradientHardClipping': 'gradient_hard_clipping',
    'GradientNoise': 'gradient_noise',
}


def _deprecated_hook(name):
    import importlib
    base = getattr(importlib.import_module(
        'chainer.optimizer_hooks.' + _DEPRECATED_HOOKS[name]), name)

    def __init__(self, *args, **kwargs):
        warnings.warn(f'chainer.optimizer.{name} is deprecated; use '
                      f'chainer.optimizer_hooks.{name}', DeprecationWarning, stacklevel=2)
        base.__init__(self, *args, **kwargs)

    return type(name, (base,), {'__init__': __init__, '__module__': __name__,
                                '__doc__': f'Deprecated alias of '
                                           f':class:`chainer.optimizer_hooks.{name}`.'})


def __getattr__(name):
    if name in _DEPRECATED_HOOKS:
        cls = globals()[name] = _deprecated_hook(name)
        return cls
    raise AttributeError(f"module 'chainer.optimizer' has no attribute '{name}'")
