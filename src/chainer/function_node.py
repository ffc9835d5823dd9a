"""FunctionNode: the one door through which every differentiable op enters the graph."""
import collections
import operator
import sys
import threading
import traceback
import weakref

import numpy

from chainer import _errors
from chainer import configuration
from chainer import function_hook
from chainer.utils import type_check
from chainer.variable import Variable, VariableNode, _init_node, _is_array

_cfg_version = configuration._version
_flags_tls = threading.local()
_new_object = object.__new__
_get_array = operator.attrgetter('_array')
_get_requires_grad = operator.attrgetter('_requires_grad')
_get_node = operator.attrgetter('_node')
_get_vnode = operator.attrgetter('_vnode')
_get_rank = operator.attrgetter('_rank')
_ndarray = numpy.ndarray
# What type_check.get_light_types returns, without its call.
_LightTypes = type_check.LightTypeInfoTuple
# Whether add_hook was ever called: until then apply need not read _n_local_function_hooks.
_local_hooks_added = False
_weakref = weakref.ref


# NumPy 1.x promotes 0-d arrays mixed with Python scalars by value, so e.g.
# ``maximum(float16_0d, 0)`` gives float64 there (NumPy 2 keeps float16). Such results come
# back as NumPy scalars, which apply already has to turn into arrays; on NumPy 1.x it also casts
# a float result wider than every float input back to the widest input dtype.
_LEGACY_PROMOTION = numpy.lib.NumpyVersion(numpy.__version__) < '2.0.0'


def _undo_legacy_promotion(y, in_data):
    widest = None
    for x in in_data:
        dt = getattr(x, 'dtype', None)
        if dt is not None and dt.kind == 'f' and (widest is None or dt.itemsize > widest.itemsize):
            widest = dt
    if widest is not None and y.dtype.itemsize > widest.itemsize:
        return y.astype(widest)
    return y


def _thread_flags():
    """Rereads the config entries that ``apply`` needs and caches them for this thread.

    Reading four config entries costs more than a small op's arithmetic, so ``apply`` keeps
    them in a per-thread tuple headed by the config version token it was built under; any
    config write replaces the token (see ``configuration._version``), which makes every
    thread rebuild its tuple on its next call. The token is read before the entries so that a
    write racing with this rebuild leaves an outdated token behind, not an outdated value.
    The thread's function-hook dict is included: it is created once per thread and then only
    mutated, so holding on to the dict object itself is safe.
    """
    version = _cfg_version[0]
    config = configuration.config
    flags = (version, config.type_check, config.debug, config.enable_backprop,
             config.lazy_grad_sum, function_hook.get_function_hooks(), config.schedule_func)
    _flags_tls.flags = flags
    return flags


def _wrap_output(array, requires_grad):
    # Builds an output Variable without going through __init__'s checks. Its node is made by
    # apply when a graph is recorded, or lazily on first use otherwise.
    v = _new_object(Variable)
    v._array = array
    v._requires_grad = requires_grad
    v._vnode = None
    return v


class FunctionNode:
    """A node of the computational graph that stands for one function application.

    Subclasses implement :meth:`forward` (arrays in, arrays out) and
    :meth:`backward` (Variables in, Variables out, written with other
    differentiable functions so that higher-order gradients come for free),
    and are applied with :meth:`apply`. Subclasses do not need to call
    ``super().__init__()``.

    Attributes:
        inputs: Tuple of the input :class:`~chainer.variable.VariableNode`.
        outputs: Weak references to the output nodes, in a tuple.
        rank (int): Topological order in the graph.
        stack: Stack trace of the call (kept only in debug mode).
    """

    inputs = None
    outputs = None
    rank = 0
    stack = None
    lazy_grad_sum = False
    _input_indexes_to_retain = None
    _output_indexes_to_retain = None
    _retained_output_data = None
    _local_function_hooks = None
    _n_local_function_hooks = 0
    _supports_static_optimizations = False
    _is_chainerx_fallback_mode = False

    @property
    def local_function_hooks(self):
        """Ordered dict of the hooks registered on this node only."""
        if self._local_function_hooks is None:
            self._local_function_hooks = collections.OrderedDict()
        return self._local_function_hooks

    @property
    def label(self):
        """Short name of the function (the class name by default)."""
        return self.__class__.__name__

    @property
    def output_data(self):
        """Tuple of retained output arrays (``None`` where not retained)."""
        if self._retained_output_data is None:
            raise RuntimeError(f'{self.label}: retained output data is gone')
        out = [None] * len(self.outputs)
        for i, d in zip(self._output_indexes_to_retain, self._retained_output_data):
            out[i] = d
        return tuple(out)

    def __call__(self, *args, **kwargs):
        # A common slip from old-style Functions, which are called directly.
        name = type(self).__name__
        if type(self).__module__.startswith('chainer.'):
            hint = (f' Better still, call the function rather than its class (e.g. '
                    f'chainer.functions.{name.lower()}(...)).')
        else:
            hint = ''
        raise RuntimeError(
            f'A function class object ({name}) which is derived from chainer.FunctionNode has '
            f'been called as if it were a callable. Use apply() method instead. '
            f'{name} is a chainer.FunctionNode and cannot be called directly: use '
            f'{name}().apply((x, ...)), which returns a tuple of Variables.{hint}')

    def apply(self, inputs):
        """Computes the outputs and, when backprop is enabled, links them to the graph.

        Args:
            inputs: Tuple of input variables or arrays.

        Returns:
            tuple of Variable: One per output of :meth:`forward`.
        """
        # This runs once per op: the common case (Variables in, NumPy arrays, one output, no
        # hooks, no debug) is written out inline; everything else branches off to helpers.
        if inputs.__class__ is not tuple:
            try:
                inputs = tuple(inputs)      # any iterable is accepted (generators too)
            except TypeError as e:
                _errors.not_a_sequence(e, inputs)
                raise
        try:
            # (one input is the common case: a 1-tuple display is cheaper than map)
            if len(inputs) == 1:
                in_data = (inputs[0]._array,)
            else:
                in_data = tuple(map(_get_array, inputs))
            input_vars = inputs
        except AttributeError:
            input_vars = [x if isinstance(x, Variable) else self._as_input(i, x, inputs)
                          for i, x in enumerate(inputs)]
            in_data = tuple([x._array for x in input_vars])
        try:
            flags = _flags_tls.flags
            if flags[0] is not _cfg_version[0]:
                flags = _thread_flags()
        except AttributeError:      # first call in this thread
            flags = _thread_flags()
        _, type_check_on, debug, _, _, hooks, schedule = flags

        if type_check_on:
            try:
                self.check_type_forward(_LightTypes(in_data))
            except Exception:
                light_failed = True
            else:
                light_failed = False
            if light_failed:
                # Outside the handler, so that the full check's message stands alone.
                self._check_data_type_forward_full(in_data)

        if debug or hooks or schedule or (_local_hooks_added and self._n_local_function_hooks):
            outputs = self._forward_instrumented(in_data, debug, hooks)
        else:
            for x in in_data:
                if x.__class__ is not _ndarray:
                    outputs = self._forward_on_device(in_data)
                    break
            else:
                outputs = self.forward(in_data)
                if outputs.__class__ is not tuple:
                    self._bad_outputs(outputs)
                for y in outputs:
                    if y.__class__ is not _ndarray:
                        outputs = self._fix_outputs(outputs, in_data)
                        break

        if flags[0] is not _cfg_version[0]:     # forward (or a hook) changed the config
            flags = _thread_flags()
        _, _, _, enable_backprop, lazy_grad_sum, _, _ = flags
        if len(outputs) != 1:
            return self._wrap_outputs(input_vars, in_data, outputs, enable_backprop,
                                      lazy_grad_sum)

        # One output: build its Variable (and node) here, without Variable.__init__.
        if len(input_vars) == 1:
            requires_grad = input_vars[0]._requires_grad
        else:
            requires_grad = any(map(_get_requires_grad, input_vars))
        y = _new_object(Variable)
        y._array = array = outputs[0]
        y._requires_grad = requires_grad
        if not enable_backprop:
            y._vnode = None         # made on first use, if ever
            return (y,)

        rank = self._link_inputs(input_vars, in_data)
        node = _init_node(_new_object(VariableNode), y, requires_grad, array, self, rank)
        self.outputs = (_weakref(node),)
        if self._output_indexes_to_retain is not None:
            if any(i not in (0, -1) for i in self._output_indexes_to_retain):
                raise IndexError(f'tuple index out of range ({self.label}: retain_outputs got '
                                 f'{self._output_indexes_to_retain}, but forward returned one '
                                 f'output)')
            node.data = array
            self._retained_output_data = (array,)
        if lazy_grad_sum:
            self.lazy_grad_sum = True
        return (y,)

    def _link_inputs(self, input_vars, in_data):
        # Sets inputs (nodes) and rank, keeps the retained input arrays in their nodes, and
        # returns the rank of the outputs.
        if len(input_vars) == 1:
            node = input_vars[0]._vnode
            if node is None:
                node = input_vars[0]._node
            self.inputs = nodes = (node,)
            self.rank = rank = node._rank
        else:
            nodes = tuple(map(_get_vnode, input_vars))
            if None in nodes:
                nodes = tuple(map(_get_node, input_vars))
            self.inputs = nodes
            self.rank = rank = max(map(_get_rank, nodes)) if nodes else 0
        if self._input_indexes_to_retain is not None:
            for i in self._input_indexes_to_retain:
                nodes[i].data = in_data[i]
        return rank + 1

    def _wrap_outputs(self, input_vars, in_data, outputs, enable_backprop, lazy_grad_sum):
        # apply's tail for any number of outputs but one.
        requires_grad = any(map(_get_requires_grad, input_vars))
        ret = tuple([_wrap_output(y, requires_grad) for y in outputs])
        if not enable_backprop:
            return ret
        rank = self._link_inputs(input_vars, in_data)
        self.outputs = tuple([
            _weakref(_init_node(_new_object(VariableNode), y, requires_grad, y._array, self,
                                rank))
            for y in ret])
        if self._output_indexes_to_retain is not None:
            kept = []
            for i in self._output_indexes_to_retain:
                ret[i]._vnode.data = outputs[i]
                kept.append(outputs[i])
            self._retained_output_data = tuple(kept)
        if lazy_grad_sum:
            self.lazy_grad_sum = True
        return ret

    def _forward_instrumented(self, in_data, debug, hooks):
        # The forward with function hooks and/or debug checks around it.
        if hooks or self._n_local_function_hooks:
            hooks = collections.OrderedDict(hooks)
            if self._n_local_function_hooks:
                hooks.update(self.local_function_hooks)
            hooks = list(hooks.values())
            for hook in hooks:
                hook.forward_preprocess(self, in_data)
        if debug:
            self.stack = traceback.extract_stack()
        if configuration.config.schedule_func is not None:
            # Recording a static graph (chainer.static_graph): the schedule runs the forward
            # and keeps it for replay.
            from chainer.graph_optimizations import static_graph_utilities
            outputs = static_graph_utilities.static_forward_optimizations(self, in_data)
        elif any([x.__class__ is not _ndarray for x in in_data]):
            outputs = self._forward_on_device(in_data)
        else:
            outputs = self.forward(in_data)
            if outputs.__class__ is not tuple:
                self._bad_outputs(outputs)
            if any([y.__class__ is not _ndarray for y in outputs]):
                outputs = self._fix_outputs(outputs, in_data)
        if hooks:
            for hook in hooks:
                hook.forward_postprocess(self, in_data)
        if debug:
            self._check_nan(outputs, 'forward', in_data)
        return outputs

    def _as_input(self, i, x, inputs):
        # An array is a constant input. So is None for a node of the user's own (forward then
        # receives None there, as in Chainer); given to a chainer.functions function, it is a
        # mistake, reported with the function and the argument.
        if _is_array(x):
            return Variable(x, requires_grad=False)
        which = _errors.not_an_array(x, i)
        if x is None:
            if which is None:
                return Variable(None, requires_grad=False)
            raise TypeError(which)
        # Chainer's words first (the types of all inputs), then which input is wrong.
        actual = ', '.join(str(type(v._array if isinstance(v, Variable) else v))
                           for v in inputs)
        which = which or (
            f'{self.label}: input #{i} must be a Variable, an N-dimensional array '
            f'(numpy.ndarray or cupy.ndarray) or None, got {type(x).__name__}')
        raise TypeError(
            f'incompatible array types are mixed in the forward input ({self.label}).\n'
            f'Actual: {actual}\n{which}')

    def _bad_outputs(self, outputs):
        raise TypeError(f'forward output must be a tuple ({self.label})\n'
                        f'Actual: {type(outputs)}\n'
                        f'{self.label}: forward must return a tuple of arrays, '
                        f'got {type(outputs).__name__}')

    def _forward_on_device(self, in_data):
        # The forward for inputs that are not all NumPy arrays (CuPy arrays, None).
        from chainer import backend
        arrays = [x for x in in_data if x is not None]
        kinds = {type(x).__module__.split('.')[0] for x in arrays}
        if len(kinds) > 1:
            raise TypeError(
                f'{self.label}: incompatible array types are mixed in the forward input: '
                + ', '.join(type(x).__name__ + ' (' + type(x).__module__ + ')'
                            for x in arrays))
        if arrays and type(arrays[0]) is not numpy.ndarray:
            with backend.get_device_from_array(arrays[0]).create_context():
                outputs = self.forward(in_data)
        else:
            outputs = self.forward(in_data)
        if type(outputs) is not tuple:
            self._bad_outputs(outputs)
        return self._fix_outputs(outputs, in_data)

    def _fix_outputs(self, outputs, in_data):
        fixed = []
        for i, y in enumerate(outputs):
            if isinstance(y, numpy.generic):
                y = numpy.asarray(y)
                if _LEGACY_PROMOTION and y.dtype.kind == 'f':
                    y = _undo_legacy_promotion(y, in_data)
            elif y is not None and not _is_array(y):
                raise TypeError(
                    f'forward output must be a tuple of ndarrays.\n'
                    f'Function: {self.label}\n'
                    f'Actual output types: {tuple(type(v) for v in outputs)}\n'
                    f'{self.label}: forward output #{i} must be an N-dimensional array or '
                    f'None, got {type(y).__name__}')
            fixed.append(y)
        kinds = {type(y).__module__.split('.')[0] for y in fixed if y is not None}
        if len(kinds) > 1:
            raise TypeError(
                f'{self.label}: incompatible array types are mixed in the forward output: '
                + ', '.join(type(y).__module__ + '.' + type(y).__name__ for y in fixed))
        return tuple(fixed)

    def _check_nan(self, arrays, direction, inputs=None):
        for a in arrays:
            if a is None or a.dtype.kind != 'f':
                continue
            from chainer import backend
            xp = backend.get_array_module(a)
            if bool(xp.isnan(a).any()):
                # (the function the user called, and the input that caused it)
                raise RuntimeError(_errors.nan_report(self.label, direction, arrays, inputs))

    def _check_data_type_forward_full(self, in_data):
        # The cheap check failed (or needs the full DSL): redo it with expression
        # objects so the error can say what was expected and what was found.
        try:
            in_types = type_check.get_types(in_data, 'in_types', False)
            with type_check.get_function_check_context(self):
                self.check_type_forward(in_types)
        except Exception as e:
            # (named after the function the user called, which may not be this node)
            _errors.explain_type_error(e, in_data)
            raise

    def check_type_forward(self, in_types):
        """Checks the types of the inputs (override with ``type_check.expect``)."""
        pass

    def forward(self, inputs):
        """Computes the outputs from a tuple of input arrays.

        The default dispatches to :meth:`forward_cpu` or :meth:`forward_gpu`.

        Returns:
            tuple: The output arrays (``None`` is allowed for an output that is
            not computed).
        """
        if inputs and type(inputs[0]) is not numpy.ndarray:
            cupy = sys.modules.get('cupy')
            if cupy is not None and isinstance(inputs[0], cupy.ndarray):
                return self.forward_gpu(inputs)
        return self.forward_cpu(inputs)

    def forward_cpu(self, inputs):
        """Computes the outputs on the CPU (NumPy arrays)."""
        raise NotImplementedError(f'{self.label} does not implement forward_cpu')

    def forward_gpu(self, inputs):
        """Computes the outputs on the GPU (CuPy arrays)."""
        raise NotImplementedError(f'{self.label} does not implement forward_gpu')

    def retain_inputs(self, indexes):
        """Keeps the given inputs for :meth:`backward` (call inside forward)."""
        self._input_indexes_to_retain = indexes

    def retain_outputs(self, indexes):
        """Keeps the given outputs for :meth:`backward` (call inside forward)."""
        self._output_indexes_to_retain = indexes

    def backward(self, target_input_indexes, grad_outputs):
        """Computes gradients of the inputs listed in ``target_input_indexes``.

        Args:
            target_input_indexes (tuple of int): Inputs that need gradients.
            grad_outputs (tuple of Variable): Gradients of the outputs (``None``
                for an output that got no gradient).

        Returns:
            Tuple of gradient Variables (or ``None``), one per target input, or one
            per input.
        """
        return (None,) * len(target_input_indexes)

    def backward_accumulate(self, target_input_indexes, grad_outputs, grad_inputs):
        """Computes gradients and adds them to ``grad_inputs``.

        Override to fuse the accumulation; the default calls :meth:`backward`.
        """
        gxs = self.backward(target_input_indexes, grad_outputs)
        n = len(gxs)
        if n == len(self.inputs) and n != len(target_input_indexes):
            gxs = tuple([gxs[i] for i in target_input_indexes])
        ret = []
        for gx, g in zip(gxs, grad_inputs):
            if g is None:
                ret.append(gx)
            elif gx is None:
                ret.append(g)
            else:
                ret.append(gx + g)
        return tuple(ret)

    def get_retained_inputs(self):
        """Returns the retained inputs as a tuple of Variables (``None`` for a None input)."""
        idx = self._input_indexes_to_retain
        if idx is None:
            return ()
        inputs = self.inputs
        return tuple([None if inputs[i].data is None else inputs[i].get_variable()
                      for i in idx])

    def get_retained_outputs(self):
        """Returns the retained outputs as a tuple of Variables (``None`` for a None output).

        An output whose variable was freed is rebuilt from the retained array.
        """
        idx = self._output_indexes_to_retain
        if idx is None:
            return ()
        if len(idx) == 1:
            node = self.outputs[idx[0]]()
            if node is not None and node.data is not None:
                return (node.get_variable(),)
        outputs = list(self.outputs)
        ret = []
        changed = False
        for i, data in zip(idx, self._retained_output_data):
            node = outputs[i]()
            if data is None:
                var = None
            elif node is None:
                var = Variable(data)
                var.creator_node = self
                outputs[i] = _weakref(var._node)
                changed = True
            else:
                var = node.get_variable()
            ret.append(var)
        if changed:
            self.outputs = tuple(outputs)
        return tuple(ret)

    def unchain(self):
        """Detaches this node from the graph (its outputs become roots)."""
        for ref in self.outputs or ():
            node = ref()
            if node is not None:
                node.unchain()
        self.inputs = None

    def add_hook(self, hook, name=None):
        """Registers a function hook on this node only."""
        if not isinstance(hook, function_hook.FunctionHook):
            raise TypeError('Hook must be of type FunctionHook')
        if name is None:
            name = hook.name
        hooks = self.local_function_hooks
        if name in hooks:
            raise KeyError(f'Hook {name} already exists')
        hooks[name] = hook
        self._n_local_function_hooks = len(hooks)
        global _local_hooks_added
        _local_hooks_added = True
        hook.added(self)

    def delete_hook(self, name):
        """Unregisters the local function hook called ``name``."""
        hooks = self.local_function_hooks
        if name not in hooks:
            raise KeyError(f'Hook {name} does not exist')
        hooks[name].deleted(self)
        del hooks[name]
        self._n_local_function_hooks = len(hooks)


def __getattr__(name):
    # ``chainer.function_node.grad``, where Chainer defines it (rechainer: chainer._backprop).
    if name == 'grad':
        from chainer import _backprop
        return _backprop.grad
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
