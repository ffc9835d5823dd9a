"""FunctionNode: the one door through which every differentiable op enters the graph."""
import collections
import contextlib
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
_new_object = object.__new__
_array_of = operator.attrgetter('_array')
_requires_grad_of = operator.attrgetter('_requires_grad')
_weakref = weakref.ref
_ndarray = numpy.ndarray
# What type_check.get_light_types returns, without its call.
_LightTypes = type_check.LightTypeInfoTuple


# NumPy 1.x promotes 0-d arrays mixed with Python scalars by value, so e.g.
# ``maximum(float16_0d, 0)`` gives float64 there (NumPy 2 keeps float16). Such results come
# back as NumPy scalars, which apply already has to turn into arrays; on NumPy 1.x it also casts
# a float result wider than every float input back to the widest input dtype.
_LEGACY_PROMOTION = numpy.lib.NumpyVersion(numpy.__version__) < '2.0.0'


def _undo_legacy_promotion(y, in_data):
    widest = max([x.dtype for x in in_data if getattr(x, 'dtype', None) is not None
                  and x.dtype.kind == 'f'], key=lambda dt: dt.itemsize, default=None)
    if widest is not None and y.dtype.itemsize > widest.itemsize:
        return y.astype(widest)
    return y


class _ThreadFlags(threading.local):
    # What apply reads of the config, per thread: (version token, type_check, debug,
    # enable_backprop, lazy_grad_sum, function hooks, schedule_func). No token matches the
    # default.
    flags = (None,) * 7


_thread_flags = _ThreadFlags()


def _read_flags():
    """Rereads what ``apply`` needs of the config (four entries cost more than a small op)
    into this thread's cache, under the current version token: any config write replaces the
    token (``configuration._version``). The token is read first, so that a racing write
    leaves an outdated token behind, never an outdated value. (The thread's hook dict is
    only ever mutated, so the cache may hold it.)"""
    version = _cfg_version[0]
    type_check_on, debug, enable_backprop, lazy_grad_sum, schedule = configuration._entries(
        _FLAG_NAMES)
    flags = _thread_flags.flags = (version, type_check_on, debug, enable_backprop,
                                   lazy_grad_sum, function_hook.get_function_hooks(), schedule)
    return flags


_FLAG_NAMES = ('type_check', 'debug', 'enable_backprop', 'lazy_grad_sum', 'schedule_func')


def _output_variable(array, requires_grad):
    # An output Variable, without __init__'s checks; its node comes from apply's step 4 or,
    # when no graph is recorded, on first use.
    v = _new_object(Variable)
    v._array = array
    v._requires_grad = requires_grad
    v._vnode = None
    return v


# Step 4 for several inputs or outputs (their comprehensions, out of _record's way).
def _output_variables(outputs, requires_grad):
    return tuple([_output_variable(y, requires_grad) for y in outputs])


def _input_nodes(input_vars):
    nodes = tuple([x._vnode or x._node for x in input_vars])
    return nodes, max([x._rank for x in nodes], default=0)


def _output_nodes(ys, func, rank):
    return tuple([_weakref(_init_node(_new_object(VariableNode), y, y._requires_grad, y._array,
                                      func, rank)) for y in ys])


def _retain(ys, outputs, indexes):
    for i in indexes:
        ys[i]._vnode.data = outputs[i]
    return tuple([outputs[i] for i in indexes])


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
        hint = (f' Better still, call the function rather than its class (e.g. chainer.functions.'
                f'{name.lower()}(...)).' if type(self).__module__.startswith('chainer.') else '')
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
        # 1. Gather the inputs: Variables (an array or None becomes a constant one), arrays.
        if inputs.__class__ is tuple and len(inputs) == 1 and inputs[0].__class__ is Variable:
            in_data = (inputs[0]._array,)   # (the usual case, without a call: ~8% per op)
            on_numpy = in_data[0].__class__ is _ndarray
        else:
            inputs, in_data, on_numpy = self._gather_inputs(inputs)
        flags = _thread_flags.flags
        if flags[0] is not _cfg_version[0]:
            flags = _read_flags()
        _, type_check_on, debug, _, _, hooks, schedule = flags
        # 2. Check their types on the arrays; if that fails, again for Chainer's full message.
        if type_check_on:
            try:
                self.check_type_forward(_LightTypes(in_data))
                light_failed = False
            except Exception:
                light_failed = True
            if light_failed:    # (outside the handler: the full check's error stands alone)
                self._check_types_fully(in_data)
        # 3. Run forward: directly on NumPy arrays; otherwise in the arrays' device context and
        # inside the function hooks, debug checks and static-graph recording that are on.
        if on_numpy and not (debug or hooks or schedule or self._n_local_function_hooks):
            outputs = self.forward(in_data)
        else:
            outputs = self._forward_in_context(in_data, debug, hooks, schedule)
        # 4. Record: the output Variables and, with backprop enabled, this node in the graph.
        return self._record(inputs, in_data, outputs, flags)

    def _gather_inputs(self, inputs):
        # Step 1 in general: any iterable of Variables, arrays and None; also says whether
        # every array is a NumPy one.
        if inputs.__class__ is not tuple:
            try:
                inputs = tuple(inputs)      # (generators too)
            except TypeError as e:
                _errors.not_a_sequence(e, inputs)
                raise
        for x in inputs:
            if not isinstance(x, Variable):
                inputs = tuple([x if isinstance(x, Variable) else self._as_input(i, x, inputs)
                                for i, x in enumerate(inputs)])
                break
        in_data = tuple(map(_array_of, inputs))
        on_numpy = True
        for x in in_data:
            if x.__class__ is not _ndarray:
                on_numpy = False
        return inputs, in_data, on_numpy

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

    def _check_types_fully(self, in_data):
        # Step 2 after the light check failed: with the type_check expressions, whose error
        # says what was expected and what was found, and (added to it) the function the user
        # called, which may not be this node.
        try:
            in_types = type_check.get_types(in_data, 'in_types', False)
            with type_check.get_function_check_context(self):
                self.check_type_forward(in_types)
        except Exception as e:
            _errors.explain_type_error(e, in_data)
            raise

    def _forward_in_context(self, in_data, debug, hooks, schedule):
        # Step 3 for arrays of another device (or None), with function hooks, in debug mode or
        # while a static graph records (chainer.static_graph: its schedule runs the forward
        # and keeps it for replay).
        if hooks or self._n_local_function_hooks:
            hooks = self._hooks_with_local(hooks)
            for hook in hooks:
                hook.forward_preprocess(self, in_data)
        if debug:
            self.stack = traceback.extract_stack()
        with self._device_context(in_data):
            if schedule is None:
                outputs = self.forward(in_data)
            else:
                from chainer.graph_optimizations import static_graph_utilities
                outputs = static_graph_utilities.static_forward_optimizations(self, in_data)
        if hooks:
            for hook in hooks:
                hook.forward_postprocess(self, in_data)
        return outputs

    def _hooks_with_local(self, hooks):
        # The thread's function hooks, then this node's own (which replace those of the same
        # name), as a list.
        hooks = dict(hooks)
        if self._n_local_function_hooks:
            hooks.update(self.local_function_hooks)
        return list(hooks.values())

    def _record(self, input_vars, in_data, outputs, flags):
        # Step 4: the output Variables and, when backprop is enabled, the graph: the input
        # nodes, the rank, the output nodes (weakly held: they hold this node), the retained
        # arrays. One input and one output, the usual case, are written out; the helpers'
        # comprehensions cost a call each on Python 3.11 (~25% per op together).
        if outputs.__class__ is not tuple or not (
                len(outputs) == 1 and outputs[0].__class__ is _ndarray):
            outputs = self._output_arrays(outputs, in_data)
        if flags[0] is not _cfg_version[0]:     # forward changed the config
            flags = _read_flags()
        _, _, debug, enable_backprop, lazy_grad_sum, _, _ = flags
        if debug:
            self._check_nan(outputs, 'forward', in_data)
        one_in, one_out = len(input_vars) == 1, len(outputs) == 1
        requires_grad = (input_vars[0]._requires_grad if one_in
                         else any(map(_requires_grad_of, input_vars)))
        if one_out:
            y = _new_object(Variable)       # (_output_variable, written out)
            y._array = outputs[0]
            y._requires_grad = requires_grad
            y._vnode = None
            ys = (y,)
        else:
            ys = _output_variables(outputs, requires_grad)
        if not enable_backprop:
            return ys

        if one_in:
            self.inputs = nodes = (input_vars[0]._vnode or input_vars[0]._node,)
            self.rank = rank = nodes[0]._rank
        else:
            nodes, rank = _input_nodes(input_vars)
            self.inputs, self.rank = nodes, rank
        if self._input_indexes_to_retain is not None:
            for i in self._input_indexes_to_retain:
                nodes[i].data = in_data[i]
        if one_out:
            self.outputs = (_weakref(_init_node(_new_object(VariableNode), y, requires_grad,
                                                outputs[0], self, rank + 1)),)
        else:
            self.outputs = _output_nodes(ys, self, rank + 1)
        retain = self._output_indexes_to_retain
        if retain is not None:
            if one_out and len(retain) == 1:
                if retain[0] not in (0, -1):
                    raise IndexError(f'tuple index out of range ({self.label}: retain_outputs '
                                     f'got {retain}, but forward returned one output)')
                y._vnode.data = outputs[0]
                self._retained_output_data = outputs
            else:
                self._retained_output_data = _retain(ys, outputs, retain)
        if lazy_grad_sum:
            self.lazy_grad_sum = True
        return ys

    def _device_context(self, in_data):
        # The device of the (CuPy) inputs, as a context; inputs of mixed array types fail.
        arrays = self._one_kind(in_data, 'input')
        if arrays and type(arrays[0]) is not numpy.ndarray:
            from chainer import backend
            return backend.get_device_from_array(arrays[0]).create_context()
        return contextlib.nullcontext()

    def _output_arrays(self, outputs, in_data):
        # What forward returned, as a tuple of arrays (or None): NumPy scalars become 0-d
        # arrays; anything else is an error.
        if outputs.__class__ is not tuple:
            raise TypeError(f'forward output must be a tuple ({self.label})\n'
                            f'Actual: {type(outputs)}\n'
                            f'{self.label}: forward must return a tuple of arrays, '
                            f'got {type(outputs).__name__}')
        if all([y.__class__ is _ndarray for y in outputs]):
            return outputs
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
        self._one_kind(fixed, 'output')
        return tuple(fixed)

    def _one_kind(self, arrays, what):
        # The arrays (None left out), which must all be NumPy's or all CuPy's.
        arrays = [a for a in arrays if a is not None]
        if len({type(a).__module__.split('.')[0] for a in arrays}) > 1:
            raise TypeError(
                f'{self.label}: incompatible array types are mixed in the forward {what}: '
                + ', '.join(f'{type(a).__module__}.{type(a).__name__}' for a in arrays))
        return arrays

    def _check_nan(self, arrays, direction, inputs=None):
        # (the report names the function the user called, and the input that caused it)
        from chainer import backend
        for a in arrays:
            if a is not None and a.dtype.kind == 'f' and bool(
                    backend.get_array_module(a).isnan(a).any()):
                raise RuntimeError(_errors.nan_report(self.label, direction, arrays, inputs))

    def check_type_forward(self, in_types):
        """Checks the types of the inputs (override with ``type_check.expect``)."""
        pass

    def forward(self, inputs):
        """Computes the outputs; by default with :meth:`forward_cpu` or :meth:`forward_gpu`.

        Args:
            inputs (tuple): The input arrays.

        Returns:
            tuple: The output arrays (``None`` for an output not computed).
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
        """Computes the gradients of the inputs, written with differentiable functions.

        Args:
            target_input_indexes (tuple of int): The inputs that need gradients, increasing.
            grad_outputs (tuple): The outputs' gradients (Variables; ``None`` for none).

        Returns:
            tuple: Gradient Variables (or ``None``), one per target input or one per input.
        """
        return (None,) * len(target_input_indexes)

    def backward_accumulate(self, target_input_indexes, grad_outputs, grad_inputs):
        """Computes :meth:`backward`'s gradients plus those gathered so far (override to fuse).

        Args:
            target_input_indexes, grad_outputs: As for :meth:`backward`.
            grad_inputs (tuple): The targets' gradients so far (Variables or ``None``).

        Returns:
            tuple: The targets' summed gradients (Variables or ``None``), one per target.
        """
        gxs = self.backward(target_input_indexes, grad_outputs)
        n = len(gxs)
        if n == len(self.inputs) and n != len(target_input_indexes):
            gxs = tuple([gxs[i] for i in target_input_indexes])
        return tuple([gx if g is None else g if gx is None else gx + g
                      for gx, g in zip(gxs, grad_inputs)])

    def get_retained_inputs(self):
        """Returns the retained inputs as a tuple of Variables (``None`` for a None input)."""
        idx = self._input_indexes_to_retain
        if idx is None:
            return ()
        inputs = self.inputs
        return tuple([None if inputs[i].data is None else inputs[i].get_variable()
                      for i in idx])

    def get_retained_outputs(self):
        """Returns the retained outputs as a tuple of Variables (``None`` for a None output),
        rebuilding those whose variable was freed from the retained array."""
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
        name = hook.name if name is None else name
        hooks = self.local_function_hooks
        if name in hooks:
            raise KeyError(f'Hook {name} already exists')
        hooks[name] = hook
        self._n_local_function_hooks = len(hooks)
        hook.added(self)

    def delete_hook(self, name):
        """Unregisters the local function hook called ``name``."""
        hooks = self.local_function_hooks
        if name not in hooks:
            raise KeyError(f'Hook {name} does not exist')
        hooks[name].deleted(self)
        del hooks[name]
        self._n_local_function_hooks = len(hooks)
