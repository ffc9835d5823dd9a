"""Small helpers shared by the optimizers' modules."""
import numpy

from chainer import optimizer
from chainer import variable


def set_given(hyperparam, **values):
    """Sets the hyperparameters whose value is not ``None`` (the others are inherited)."""
    for name, value in values.items():
        if value is not None:
            setattr(hyperparam, name, value)


def defaults(**values):
    """A parentless :class:`~chainer.optimizer.Hyperparameter` holding ``values``."""
    hp = optimizer.Hyperparameter()
    for name, value in values.items():
        setattr(hp, name, value)
    return hp


def zeros_like(param, fill=0):
    """A state array shaped like ``param``'s, on its device."""
    return param.device.xp.full_like(param.array, fill)


class MomentumRule(optimizer.UpdateRule):
    """A rule with a learning rate, a momentum and a velocity ``v`` shaped like the parameter.

    Subclasses set ``_defaults`` and write the update itself.
    """

    is_elementwise = True
    _defaults = None

    def __init__(self, parent_hyperparam=None, lr=None, momentum=None):
        super().__init__(parent_hyperparam or self._defaults)
        set_given(self.hyperparam, lr=lr, momentum=momentum)

    def init_state(self, param):
        self.state['v'] = zeros_like(param)


class MomentumOptimizer(optimizer.GradientMethod):
    """An optimizer whose update rule (``_rule``) takes ``lr`` and ``momentum``."""

    _rule = None

    def __init__(self, lr=0.01, momentum=0.9):
        super().__init__()
        set_given(self.hyperparam, lr=lr, momentum=momentum)

    lr = optimizer.HyperparameterProxy('lr')
    momentum = optimizer.HyperparameterProxy('momentum')

    def create_update_rule(self):
        return self._rule(self.hyperparam)


# Parameters of at most this many elements are updated together (FlatStates). Above it,
# the arithmetic outweighs the per-call cost that grouping saves, and the gradient's copy
# into the group would cost more than it saves.
SMALL = 1 << 14

# Rule attributes that, set on an instance, would change how it updates: such a rule
# updates on its own.
_OWN_METHODS = frozenset(('update', 'update_core', 'update_core_cpu', '_prepare'))
_Parameter = variable.Parameter
_Hyperparameter = optimizer.Hyperparameter


def _plain_small(params, rule_type, hyperparam):
    # The parameters that rule_type's own CPU update would update alike (see group_small).
    # (The checks run at every update: the cheapest and most telling first.)
    group, rest, seen = [], [], set()
    t = dtype = None
    for param in params:
        rule = param.update_rule
        if (type(param) is not _Parameter or type(rule) is not rule_type or not rule.enabled
                or param._loss_scale is not None):
            rest.append(param)
            continue
        array, grad_var = param._array, param._grad_var
        if type(array) is not numpy.ndarray or grad_var is None:
            rest.append(param)
            continue
        grad = grad_var._array
        if (type(grad) is not numpy.ndarray or array.size > SMALL
                or grad.shape != array.shape or grad.dtype != array.dtype):
            rest.append(param)
            continue
        if dtype is None:
            dtype, t = array.dtype, rule.t
        elif array.dtype != dtype or rule.t != t:
            rest.append(param)
            continue
        hooks, hp = rule._hooks, rule.hyperparam
        if (rule._state is None or type(rule._state_device) is not optimizer._CpuDevice
                or hooks._pre or hooks._post or type(hp) is not _Hyperparameter
                or hp._parent is not hyperparam or len(hp.__dict__) != 1
                or (rule._use_fp32_update and dtype == numpy.float16)
                or not _OWN_METHODS.isdisjoint(rule.__dict__) or id(rule) in seen):
            rest.append(param)
            continue
        seen.add(id(rule))
        group.append(param)
    return group, rest


def _state_fits(param, keys):
    # Whether the rule's state holds exactly ``keys``, as arrays of the parameter's shape and
    # dtype (anything else stays with the rule's own update, and its errors).
    state = param.update_rule._state
    array = param.array
    return len(state) == len(keys) and all(
        type(state.get(key)) is numpy.ndarray and state[key].shape == array.shape
        and state[key].dtype == array.dtype for key in keys)


def group_small(optimizer_, params, rule_type, keys):
    """Finds the parameters that ``optimizer_`` can update together through
    :class:`FlatStates`.

    A parameter can be when its rule is exactly ``rule_type``, enabled, with no hooks, no
    hyperparameter of its own (the optimizer's ``hyperparam`` holds every value), a state of
    ``keys`` already created on the CPU and the same ``t`` as the others; and when the
    parameter is a :class:`~chainer.Parameter` (not a subclass) of at most :data:`SMALL`
    elements in a NumPy array, with a gradient of its shape and dtype and no loss scale.
    The optimizer's layout (``optimizer_._flat_states``) is built again when those
    parameters changed.

    Args:
        optimizer_: The optimizer.
        params (list): Its parameters, in order.
        rule_type: The update rule's class.
        keys (tuple of str): The rule's state keys.

    Returns:
        tuple: ``(layout, group, rest)``: the :class:`FlatStates` of the parameters in
        ``group`` (``None`` when fewer than two qualify), and the other parameters.
    """
    group, rest = _plain_small(params, rule_type, optimizer_.hyperparam)
    layout = optimizer_._flat_states
    if len(group) < 2:
        return None, [], params
    if layout is None or not layout.matches(group):
        fits = [p for p in group if _state_fits(p, keys)]
        if len(fits) < 2:
            return None, [], params
        if len(fits) < len(group):
            ids = set(map(id, fits))
            group, rest = fits, [p for p in params if id(p) not in ids]
        layout = optimizer_._flat_states = FlatStates(group, keys)
    return layout, group, rest


class FlatStates:
    """The state arrays of several parameters held as views into one flat array per key.

    An elementwise update rule can then update many small parameters with one NumPy call
    per operation, rather than one per operation and parameter. The rules' ``state`` dicts
    hold the views, so serializers, users and the one-by-one update read and write the same
    memory. A state array replaced by another (a load that does not copy in place, a device
    move) is noticed by :meth:`matches`, and the optimizer builds a new layout. A pickled
    or copied layout is an empty one, which matches nothing.

    Args:
        params: The parameters (their rules' states are moved into the flat arrays).
        keys: The state keys, in the order :attr:`views` gives them.
    """

    def __init__(self, params=(), keys=()):
        self.rules = [p.update_rule for p in params]
        self.shapes = [p.array.shape for p in params]
        sizes = [p.array.size for p in params]
        bounds = numpy.cumsum([0] + sizes).tolist()
        self.dtype = dtype = params[0].array.dtype if params else None
        n = bounds[-1]

        def views_of(flat):
            return [flat[a:b].reshape(shape)
                    for a, b, shape in zip(bounds, bounds[1:], self.shapes)]
        self.flats = []
        self.views = []     # per key: the views, one per parameter
        for key in keys:
            flat = numpy.empty(n, dtype)
            views = views_of(flat)
            for rule, view in zip(self.rules, views):
                view[...] = rule.state[key]
                rule.state[key] = view
            self.flats.append(flat)
            self.views.append(views)
        self.keys = tuple(keys)
        self._by_param = list(zip(*self.views)) if keys else [() for _ in self.rules]
        self.grad = numpy.empty(n, dtype)       # the gradients, gathered
        self.step = numpy.empty(n, dtype)       # scratch: the step the rule takes off
        self.steps = views_of(self.step)

    def matches(self, params):
        """Whether this layout holds the states of exactly ``params``' rules."""
        if len(params) != len(self.rules) or params[0]._array.dtype != self.dtype:
            return False
        keys = self.keys
        for param, rule, shape, views in zip(params, self.rules, self.shapes, self._by_param):
            if param.update_rule is not rule or param._array.shape != shape:
                return False
            state = rule._state
            if len(state) != len(keys):
                return False
            for key, view in zip(keys, views):
                if state.get(key) is not view:
                    return False
        return True

    def gather_grads(self, params):
        """Copies the gradients of ``params`` into :attr:`grad` and returns it."""
        return numpy.concatenate([p._grad_var._array for p in params], axis=None,
                                 out=self.grad)

    def __reduce__(self):
        return FlatStates, ()
