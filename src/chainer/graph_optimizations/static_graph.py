"""Static graphs: ``@static_graph`` on a Chain's ``forward``, recorded once and replayed.

The first call of a decorated ``forward`` runs its define-by-run code while the array
operations it performs are recorded (see :mod:`chainer.graph_optimizations._program`); the
first backward through its outputs records the operations of the backward the same way.
Later calls with inputs of the same shapes and dtypes, under the same ``train`` and
``enable_backprop`` configuration, replay the recorded operations on the new arrays: the
chain's Python code does not run again, no function node is created inside the chain, and
the whole chain appears in the graph as one :class:`StaticScheduleFunction` node whose
backward replays the recorded backward.
"""
import functools
import sys  # NOQA: part of this module's namespace in Chainer
import warnings
import weakref

import numpy as np

import chainer
from chainer.backends import cuda  # NOQA: part of this module's namespace in Chainer
from chainer import configuration
from chainer import function_node
from chainer.graph_optimizations import _program
from chainer import variable as _variable


# ---- small records -------------------------------------------------------------------

class ArrayInfo:
    """What a static schedule remembers about one of its arrays.

    Args:
        array (N-dimensional array): The array as recorded.
    """

    def __init__(self, array):
        self.shape = array.shape
        self.dtype = array.dtype
        self.array_type = type(array)
        self.id = id(array)
        self.device = chainer.backend.get_device_from_array(array)
        try:
            self.weakref = weakref.ref(array)
        except TypeError:
            self.weakref = None

    def was_deleted(self):
        """Returns whether the recorded array no longer exists."""
        return self.weakref is not None and self.weakref() is None

    def get_new_empty_array(self):
        """Returns a new uninitialized array of the recorded shape, dtype and device."""
        with chainer.using_device(self.device):
            return self.device.xp.empty(self.shape, self.dtype)

    def _zeros(self):
        with chainer.using_device(self.device):
            return self.device.xp.zeros(self.shape, self.dtype)

    def describe(self):
        return f'shape {self.shape}, dtype {self.dtype}'

    def __repr__(self):
        state = 'deleted' if self.was_deleted() else 'alive'
        return (f'ArrayInfo({self.array_type.__module__}.{self.array_type.__name__}, '
                f'shape={self.shape}, dtype={self.dtype}, id={self.id:#x}, {state})')


class ScheduleInfo:
    """One recorded step of a static schedule: a function and where its arrays live.

    The arrays a step reads and writes are kept by slot number in ``unique_arrays``, the
    store of the schedule's current arrays.

    Args:
        func (callable): What the step calls.
        args (tuple): Positional arguments, passed as recorded.
        kwargs (dict): Keyword arguments; ``inputs`` and ``outputs`` (lists of arrays) are
            refreshed from the store before each call.
        inputs_hooks (list): ``(position in inputs, slot)`` pairs.
        outputs_hooks (list): ``(position in outputs, slot)`` pairs.
        return_hooks (list): ``(position in the returned tuple, slot)`` pairs
            (position ``None``: the whole return value).
        delete_hooks (list): Slots that this step reads for the last time.
        unique_arrays (list): The store of current arrays, indexed by slot.
        array_infos (list): An :class:`ArrayInfo` per slot (``None`` for non-arrays).
        func_name (str): A name for messages.
    """

    def __init__(self, func, args, kwargs, inputs_hooks, outputs_hooks, return_hooks,
                 delete_hooks, unique_arrays, array_infos, func_name=None):
        self.func = func
        self.args = args
        self.kwargs = kwargs
        self.inputs_hooks = inputs_hooks
        self.outputs_hooks = outputs_hooks
        self.return_hooks = return_hooks
        self.delete_hooks = delete_hooks
        self.unique_arrays = unique_arrays
        self.array_infos = array_infos
        self.func_name = func_name

    def run_pre_hooks(self):
        """Puts the current arrays of the store into the ``inputs``/``outputs`` lists."""
        store = self.unique_arrays
        for i, slot in self.inputs_hooks:
            self.kwargs['inputs'][i] = store[slot]
        for i, slot in self.outputs_hooks:
            self.kwargs['outputs'][i] = store[slot]

    def run_post_hooks(self, return_arrays):
        """Files what the call returned into the store, and drops what is no longer read."""
        store = self.unique_arrays
        for i, slot in self.return_hooks:
            store[slot] = return_arrays if i is None else return_arrays[i]
        for slot in self.delete_hooks:
            store[slot] = None

    def __call__(self):
        """Runs this step on the arrays of the store."""
        self.run_pre_hooks()
        ret = self.func(*self.args, **self.kwargs)
        self.run_post_hooks(ret)
        return ret

    def __repr__(self):
        name = self.func_name or getattr(self.func, '__qualname__', None) or repr(self.func)
        ins = [s for _, s in self.inputs_hooks]
        outs = [s for _, s in self.outputs_hooks] + [s for _, s in self.return_hooks]
        return f'{name}: reads {ins}, writes {outs}'


# ---- argument structures ---------------------------------------------------------------

def _is_xp(x):
    """Returns whether ``x`` is an N-dimensional array (NumPy or CuPy)."""
    return _variable._is_array(x)


def _flatten_args(xs):
    """Flattens nested lists and tuples of Variables and arrays.

    Returns:
        tuple: ``(flat, structure, count)``: the leaves in order, a description of the
        nesting for :func:`_unflatten_args`, and the number of leaves.
    """
    flat = []

    def walk(x, where):
        if isinstance(x, (list, tuple)):
            return (type(x), tuple(walk(e, f'{where}[{i}]') for i, e in enumerate(x)))
        if x is None:
            return None
        if not isinstance(x, chainer.Variable) and not _is_xp(x):
            raise TypeError(
                f'static_graph: {where} must be a Variable, an array, or a list or tuple of '
                f'them, got {type(x).__name__}')
        flat.append(x)
        return len(flat) - 1

    structure = walk(xs, 'the arguments') if isinstance(xs, (list, tuple)) else walk(
        xs, 'the argument')
    return tuple(flat), structure, len(flat)


def _unflatten_args(xs, inds):
    """Rebuilds the nesting described by ``inds`` (see :func:`_flatten_args`) from ``xs``."""
    if inds is None:
        return None
    if isinstance(inds, int):
        return xs[inds]
    kind, children = inds
    return kind(_unflatten_args(xs, c) for c in children)


def _unflatten_args_as_list(xs, inds):
    """Like :func:`_unflatten_args`, with the outermost level as a list."""
    ret = _unflatten_args(xs, inds)
    return list(ret) if isinstance(ret, (tuple, list)) else [ret]


def _flatten_outputs(out, where):
    flat = []

    def walk(x, path):
        if isinstance(x, (list, tuple)):
            return (type(x), tuple(walk(e, f'{path}[{i}]') for i, e in enumerate(x)))
        if x is None:
            return None
        if not isinstance(x, chainer.Variable):
            raise RuntimeError(
                f'static_graph: {where} must return a Variable, None, or lists and tuples '
                f'of them, but {path} is a {type(x).__name__}')
        flat.append(x)
        return len(flat) - 1
    return flat, walk(out, 'the result')


def _signature(x):
    # What must agree for a call to replay a schedule: array type, shape, dtype and whether
    # the input needs a gradient.
    if isinstance(x, chainer.Variable):
        a = x._array
        return (type(a), a.shape, a.dtype.str, x._requires_grad)
    return (type(x), x.shape, x.dtype.str, False)


def _structure_key(s):
    if s is None or isinstance(s, int):
        return s
    return (s[0].__name__, tuple(_structure_key(c) for c in s[1]))


_ONE_ARG = (tuple, (0,))    # what _flatten_args finds in the arguments (x,)
_ONE_ARG_KEY = _structure_key(_ONE_ARG)


# ---- the schedule manager ---------------------------------------------------------------

class ScheduleManager:
    """The static schedules of one static chain, by input signature and configuration.

    A schedule is chosen by the shapes, dtypes and array types of the chain's inputs, by
    ``chainer.config.train`` and ``chainer.config.enable_backprop``, and by the state the
    chain's links hold (an LSTM's ``h`` and ``c``). While both ``train`` and
    ``enable_backprop`` are on, each call in an iteration gets a schedule of its own (its
    arrays are needed by its backward); the schedules become free again when a backward
    runs through one of them, or when :meth:`end_forward` is called. Otherwise one schedule
    per signature is reused.

    Args:
        minimize_cache_size (bool): Keep only the schedules of the latest signature (a new
            batch size or mode then records again).
        verbosity_level (int): 1 reports each new schedule, 2 also each call.
    """

    def __init__(self, minimize_cache_size=True, verbosity_level=0):
        self.schedules = {}
        self.minimize_cache_size = minimize_cache_size
        self.verbosity_level = verbosity_level
        self._in_use = []
        self._last_key = None
        self._chain = None
        self._func = None
        self._enable_double_backprop = False
        self._state_attrs = []        # (link, attribute name): state a chain's links keep
        self._define_by_run = None    # the reason replays are off for this chain, if they are
        self._n_recorded = 0
        self._warned_graph = False

    def _bind(self, chain, func, enable_double_backprop):
        self._chain = weakref.ref(chain)
        self._func = func
        self._enable_double_backprop = enable_double_backprop

    def _label(self):
        chain = self._chain() if self._chain is not None else None
        name = type(chain).__name__ if chain is not None else 'chain'
        return f'{name}.{getattr(self._func, "__name__", "forward")}'

    def _key(self, in_vars, structure, train, enable_backprop):
        states = []
        for link, name in self._state_attrs:
            v = link.__dict__.get(name)
            states.append(_signature(v) if isinstance(v, chainer.Variable) else None)
        return (train, enable_backprop,
                _ONE_ARG_KEY if structure is _ONE_ARG else _structure_key(structure),
                tuple(map(_signature, in_vars)), tuple(states))

    def get_schedule(self, in_vars, enable_double_backprop=False):
        """Returns the schedule for a call with inputs ``in_vars`` in the current mode.

        A schedule of the same signature is returned when one is free; otherwise a new,
        empty one, which the call records.

        Args:
            in_vars (tuple): The flattened inputs of the call (Variables or arrays).
            enable_double_backprop (bool): Whether a new schedule supports double
                backprop.

        Returns:
            StaticScheduleFunction: The schedule.
        """
        return self._get_schedule(in_vars, None, enable_double_backprop)

    def _get_schedule(self, in_vars, structure, enable_double_backprop):
        config = configuration.config
        train, backprop = bool(config.train), bool(config.enable_backprop)
        key = self._key(in_vars, structure, train, backprop)
        if self.minimize_cache_size and self._last_key is not None and key != self._last_key:
            self.schedules = {key: self.schedules[key]} if key in self.schedules else {}
            self._in_use = [s for s in self._in_use if s._key == key]
        self._last_key = key
        schedules = self.schedules.setdefault(key, [])
        exclusive = train and backprop
        for s in schedules:
            if not exclusive or not s._in_use:
                break
        else:
            s = StaticScheduleFunction(self, self.verbosity_level, enable_double_backprop)
            s._key = key
            schedules.append(s)
        if exclusive:
            s._in_use = True
            self._in_use.append(s)
        return s

    def _compare(self, schedule):
        # A static chain computes the same operations at every call: a new recording whose
        # operations differ from an earlier one of the same mode means it does not.
        program = schedule._program
        ops = [step.func_name for step in program.steps[0]]
        for key, schedules in self.schedules.items():
            if key[:3] != schedule._key[:3] or key[4] != schedule._key[4]:
                continue        # another mode, argument structure or link state
            for other in schedules:
                if other is schedule or other._program is None:
                    continue
                theirs = [step.func_name for step in other._program.steps[0]]
                if theirs != ops and not self._warned_graph:
                    self._warned_graph = True
                    warnings.warn(
                        f'static_graph: {self._label()} computed {len(ops)} operations at '
                        f'this call but {len(theirs)} at an earlier one'
                        + ('' if len(ops) != len(theirs) else ' (different ones)')
                        + ': its graph is not static, and each replay repeats the '
                        'operations of the call that recorded it. Remove @static_graph, or '
                        'move what changes outside of the static chain',
                        RuntimeWarning, stacklevel=5)
                return

    def _rekey(self, schedule, key):
        self._discard(schedule)
        schedule._key = key
        self.schedules.setdefault(key, []).append(schedule)
        if schedule._in_use:
            self._in_use.append(schedule)
        self._last_key = key

    def _discard(self, schedule):
        schedules = self.schedules.get(schedule._key, [])
        if schedule in schedules:
            schedules.remove(schedule)
        if schedule in self._in_use:
            self._in_use.remove(schedule)

    def end_forward(self):
        """Marks the end of an iteration's forward passes: every schedule is free again.

        Called by the backward of a static chain; call it yourself when a static chain is
        called in training mode (``train`` and ``enable_backprop`` on) without a backward.
        """
        for s in self._in_use:
            s._in_use = False
        self._in_use = []

    def __deepcopy__(self, memo):
        # Schedules hold the nodes and arrays of one chain: a copied chain records its own.
        return ScheduleManager(self.minimize_cache_size, self.verbosity_level)

    def __reduce__(self):
        return ScheduleManager, (self.minimize_cache_size, self.verbosity_level)

    def __repr__(self):
        lines = [f'ScheduleManager of {self._label() if self._chain else "(unused)"}:']
        for key, schedules in self.schedules.items():
            train, backprop, _, sig, _ = key
            shapes = ', '.join(f'{s[1]} {np.dtype(s[2])}' for s in sig)
            lines.append(f'  train={train} enable_backprop={backprop} inputs=[{shapes}]: '
                         f'{len(schedules)} schedule(s)')
        if self._define_by_run:
            lines.append(f'  replay disabled: {self._define_by_run}')
        return '\n'.join(lines)


# ---- the schedule as a node of the graph ----------------------------------------------

class StaticScheduleFunction(function_node.FunctionNode):
    """The node that stands for one call of a static chain in the graph.

    Its forward replays the chain's recorded forward operations, and its backward the
    operations recorded for the backward. The same node is applied at every call that uses
    this schedule. A node of level 1 (see :meth:`get_contained_schedule`) stands for the
    backward itself when a gradient of the gradient is taken.

    Args:
        schedule_manager (ScheduleManager): The manager holding this schedule.
        verbosity_level (int): 1 reports recordings, 2 also each replay.
        enable_double_backprop (bool): Whether the backward can be differentiated again.
    """

    def __init__(self, schedule_manager, verbosity_level=0, enable_double_backprop=False):
        self._manager = schedule_manager
        self.verbosity_level = verbosity_level
        self.enable_double_backprop = enable_double_backprop
        self._head = self           # the level-0 schedule, which holds the program
        self._schedule_level = 0
        self._levels = [self]
        self._program = None
        self._pending = None        # what the next forward returns (values just recorded)
        self._context = None        # per level: (inner outputs, inner inputs) of the recording
        self._in_use = False
        self._key = None
        self._warned_double = False
        self._n_outputs = 0
        self._out_structure = None
        self._state_in = []         # (link, name) read at each call
        self._state_out = []        # (link, name) written after each call
        self._restore = None

    @property
    def label(self):
        return 'StaticScheduleFunction'

    def is_empty(self):
        """Returns whether nothing has been recorded in this schedule yet."""
        return self._head._program is None

    # ---- recording ---------------------------------------------------------------
    def append_function(self, func, args, kwargs, func_name=None):
        """Records a call of a :func:`static_code` function and runs it.

        Args:
            func (callable): The undecorated function.
            args (tuple): Its positional arguments.
            kwargs (dict): Its keyword arguments (``inputs=``, ``outputs=``...).
            func_name (str): Its name in the schedule.

        Returns:
            What ``func`` returns.
        """
        return self._head._program.record_call(func, args, kwargs, func_name)

    def get_unique_index_from_array(self, array):
        """Returns the slot of ``array`` in this schedule's store (``None`` if unknown)."""
        program = self._head._program
        if program is None or program.by_id is None:
            return None
        return program.slot_of(array)

    def set_out_variables(self, out_vars):
        """Sets the (inner) Variables that the recorded forward returned."""
        self._head._inner_outputs = list(out_vars)

    def build_schedule(self, chain, in_vars):
        """Completes the recording of the forward: classifies what it read, generates the
        replay, and prepares the node's inputs.

        Args:
            chain (~chainer.Chain): The static chain.
            in_vars (tuple): The flattened inputs of the call.

        Returns:
            list: The inputs to apply this node to (the call's inputs, link states,
            parameters and other Variables the forward read).
        """
        head = self._head
        program = head._program
        manager = head._manager

        # State that links keep between calls (an LSTM's h and c): what changed to a new
        # Variable during this call is written back after every replay.
        state_out = []
        discovered = []
        for link in chain.links():
            before = head._link_attrs.get(id(link), {})
            for name, value in link.__dict__.items():
                if (isinstance(value, chainer.Variable)
                        and not isinstance(value, chainer.Parameter)
                        and before.get(name, _program._MISSING) is not value):
                    state_out.append((link, name, value))
                    if not any(lk is link and n == name for lk, n in manager._state_attrs):
                        manager._state_attrs.append((link, name))
                        old = before.get(name)
                        discovered.append(_signature(old) if isinstance(
                            old, chainer.Variable) else None)
        if discovered and head._key is not None:
            # The schedule is found again by the states it started from.
            manager._rekey(head, head._key[:4] + (head._key[4] + tuple(discovered),))
        inner_outputs = head._inner_outputs
        outs = inner_outputs + [v for _, _, v in state_out]
        program.level_out[0] = [None if v is None else program.input_ref(v._array, 'output')
                                for v in outs]

        # A state the code did not read is no input: its Variable links to the graph of the
        # previous call, which the node would then keep alive.
        read = {s for step in program.steps[0] for _, s in step.inputs_hooks}
        read.update(s for step in program.steps[0] for _, s, _ in step.assigns)
        read.update(s for s in program.level_out[0] if s is not None)
        n_args = len(in_vars)
        keep = [k for k, slot in enumerate(program.level_in[0][n_args:]) if slot in read]
        program.level_in[0][n_args:] = [program.level_in[0][n_args + k] for k in keep]
        head._state_in = [head._state_in[k] for k in keep]
        head._state_values = [head._state_values[k] for k in keep]
        inner_inputs = head._inner_inputs[:n_args] + [head._inner_inputs[n_args + k]
                                                      for k in keep]

        # Arrays read but not produced: parameters and other Variables that need a gradient
        # become inputs of this node (checked at each call); the rest are constants.
        readers = {}
        for p in chain.params():
            if p._array is not None:
                readers[id(p._array)] = p
        for var in _leaves(outs):
            a = var._array
            if a is not None and var._requires_grad and id(a) not in readers:
                readers[id(a)] = var
        stable = program.classify_unknown(readers)
        program.level_in[0] += [slot for slot, _ in stable]
        program.stable_vars = [(var, program.values[slot]) for slot, var in stable]
        program.stable_inputs = [var for var, _ in program.stable_vars]
        head._state_out = [(link, name) for link, name, _ in state_out]
        head._n_outputs = len(inner_outputs)
        head._context = None
        if configuration.config.enable_backprop:
            head._context = [(outs, inner_inputs + [var for _, var in stable])]
        head._generate()
        return list(in_vars) + head._state_values + [var for _, var in stable]

    def _generate(self):
        program = self._head._program
        try:
            program.generate()
        except _program.NotReplayable as e:
            program.replayable = False
            manager = self._head._manager
            if not manager._define_by_run:
                manager._define_by_run = str(e)
                warnings.warn(
                    f'static_graph: {manager._label()} cannot be replayed and runs '
                    f'define-by-run from now on: {e}', RuntimeWarning, stacklevel=4)
        else:
            program.replayable = True
        program.seed()

    def _record_forward(self, chain, func, flat, structure, states=None):
        """Runs the chain's code once while a new program records it (see build_schedule).

        ``states`` gives the link states to start from as ``(link, name, Variable)``
        (default: what the links hold). Returns the inputs to apply this node to.
        """
        manager = self._manager
        program = self._program = _program.Program(manager._label())
        program.begin_level(0)
        program.add_stable(p._array for p in chain.params())
        # Persistent arrays (running statistics) are updated in place; one replaced by
        # another array (a user's assignment) makes the next call record again.
        program.persistents = []
        for link in chain.links():
            for name in link._persistent:
                value = link.__dict__.get(name)
                if _variable._is_array(value):
                    program.persistents.append((link, name, value))
                    program.add_stable((value,))

        # The define-by-run code runs on copies of the inputs: arrays that the recorded
        # nodes keep must belong to the schedule, not to the caller.
        inner = []
        for x in flat:
            is_var = isinstance(x, chainer.Variable)
            array = x._array if is_var else x
            if array is None:
                raise TypeError('static_graph: an input Variable has no array')
            copy = array.copy()
            program.level_in[0].append(program.register(copy, _program._IN))
            inner.append(chainer.Variable(copy, requires_grad=is_var and x._requires_grad))
        if states is None:
            states = [(link, name, link.__dict__.get(name))
                      for link, name in manager._state_attrs]
        self._state_in = []
        self._state_values = []
        restore = []
        for link, name, value in states:
            if isinstance(value, chainer.Variable):
                copy = value._array.copy()
                program.level_in[0].append(program.register(copy, _program._IN))
                v = chainer.Variable(copy, requires_grad=value._requires_grad)
                restore.append((link, name, link.__dict__.get(name, _program._MISSING), v))
                object.__setattr__(link, name, v)
                inner.append(v)
                self._state_in.append((link, name))
                self._state_values.append(value)
        self._inner_inputs = inner
        self._link_attrs = {
            id(link): {n: v for n, v in link.__dict__.items()
                       if v is None or isinstance(v, chainer.Variable)}
            for link in chain.links()}
        try:
            with chainer.using_config('schedule_func', self):
                out = func(chain, *_unflatten_args(inner[:len(flat)], structure))
            out_flat, self._out_structure = _flatten_outputs(out, manager._label())
            self.set_out_variables(out_flat)
            node_inputs = self.build_schedule(chain, flat)
        except BaseException:
            _restore_attrs(restore)
            self._program = None
            self._context = None
            raise
        finally:
            del self._link_attrs
        self._restore = restore
        manager._n_recorded += 1
        manager._compare(self)
        if self.verbosity_level >= 1:
            print(f'static_graph: recorded a schedule of {manager._label()} '
                  f'({len(program.steps[0])} operations)')
            if self.verbosity_level >= 2:
                print(program.describe())
        return node_inputs

    def _record_call(self, chain, func, flat, structure):
        try:
            node_inputs = self._record_forward(chain, func, flat, structure)
        except BaseException:
            self._manager._discard(self)
            raise
        self._in_structure = structure
        self._in_requires_grad = [isinstance(x, chainer.Variable) and x._requires_grad
                                  for x in flat]
        program = self._program
        if self._context:
            self._pending = tuple(None if v is None else v._array.copy()
                                  for v in self._context[0][0])
        else:
            self._pending = tuple(_program._copy(program.values[s]) if s is not None else None
                                  for s in program.level_out[0])
        return self._finish_call(node_inputs)

    def _finish_call(self, node_inputs):
        outs = self.apply(node_inputs)
        n = self._n_outputs
        for (link, name), v in zip(self._state_out, outs[n:]):
            object.__setattr__(link, name, v)
        if self._restore:
            # A state this call did not replace goes back to the caller's Variable.
            _restore_attrs([r for r in self._restore if r[0].__dict__.get(r[1]) is r[3]])
            self._restore = None
        ys = [None if y._array is None else y for y in outs[:n]]
        return _unflatten_args(ys, self._out_structure)

    def _rerecord(self, level, grad_outputs):
        # The backward of ``level - 1`` is needed but the graph it would be recorded from is
        # gone (the schedule was replayed since it was recorded): run the chain's code again
        # on the inputs of this call and record every level up to ``level``. The code's side
        # effects on the chain (running statistics, link states) are undone afterwards.
        head = self._head
        manager = head._manager
        chain = manager._chain() if manager._chain is not None else None
        old = head._program
        if chain is None or not getattr(old, 'replayable', False):
            raise RuntimeError(f'static_graph: the backward of {manager._label()} cannot be '
                               f'recorded again')
        n_args = len(head._in_requires_grad)
        ins = old.level_in[0]
        flat = [chainer.Variable(old.S[s], requires_grad=rg)
                for s, rg in zip(ins[:n_args], head._in_requires_grad)]
        states = [(link, name, chainer.Variable(old.S[s]))
                  for (link, name), s in zip(head._state_in, ins[n_args:])]
        saved_gys = [[None if s is None else old.S[s] for s in old.level_in[L]]
                     for L in range(1, level)]
        snapshot = _snapshot_chain(chain, manager)
        try:
            with chainer.using_config('enable_backprop', True):
                head._record_forward(chain, manager._func, flat, head._in_structure, states)
            new = head._program
            if len(new.level_in[0]) != len(ins):
                raise RuntimeError(
                    f'static_graph: {manager._label()} read other inputs when its code ran '
                    f'again; a static chain must compute the same graph at every call')
            for L in range(1, level):
                head._record_level(L, saved_gys[L - 1])
            return head._record_level(level, grad_outputs)
        finally:
            _restore_chain(snapshot)

    def _replay_call(self, chain, flat):
        program = self._program
        if self._context is not None:
            self._end_recording()
        if not self.run_param_pre_hooks():
            # A parameter was replaced by another array: record this schedule again.
            self._program = None
            self._levels[1:] = []
            return None
        self._state_values = [link.__dict__.get(name) for link, name in self._state_in]
        # (a tuple of Variables: apply then takes it as it is; an array input becomes a
        # constant Variable here, without __init__'s checks)
        new = function_node._output_variable
        node_inputs = tuple([x if isinstance(x, chainer.Variable) else new(x, False)
                             for x in flat] + self._state_values + program.stable_inputs)
        if self.verbosity_level >= 2:
            print(f'static_graph: replaying {self._manager._label()}')
        return self._finish_call(node_inputs)

    def _end_recording(self):
        self._context = None
        self._inner_outputs = None
        self._inner_inputs = None
        self._program.prune()

    def _record_level(self, level, grad_outputs):
        # Records the backward of level ``level - 1`` by running the engine over the graph
        # recorded at that level, and returns the gradients it computed.
        head = self._head
        program = head._program
        outs, ins = head._context[level - 1]
        program.begin_level(level)
        double = head.enable_double_backprop
        gy_vars = []
        for o, g in zip(outs, grad_outputs):
            if o is None:
                program.level_in[level].append(None)
                gy_vars.append(None)
                continue
            g = o.xp.zeros_like(o._array) if g is None else g
            copy = g.copy()
            program.level_in[level].append(program.register(copy, _program._IN))
            gy_vars.append(chainer.Variable(copy, requires_grad=double))
        targets = [i for i, v in enumerate(ins) if v is not None and v._requires_grad]
        ys = [o for o in outs if o is not None]
        gys = [g for o, g in zip(outs, gy_vars) if o is not None]
        node = head._level_node(level)
        with chainer.using_config('schedule_func', node):
            grads = chainer.grad(ys, [ins[i] for i in targets], gys,
                                 enable_double_backprop=double) if targets else []
        full = [None] * len(ins)
        for i, g in zip(targets, grads):
            full[i] = g
        program.level_out[level] = [None if g is None else program.input_ref(g._array,
                                                                              'backward')
                                    for g in full]
        if double:
            head._context.append((full, list(ins) + gy_vars))
        head._generate()
        if head.verbosity_level >= 1:
            print(f'static_graph: recorded the backward (level {level}) of '
                  f'{head._manager._label()} ({len(program.steps[level])} operations)')
        return tuple(None if g is None else g._array.copy() for g in full)

    def _level_node(self, level):
        head = self._head
        while len(head._levels) <= level:
            node = StaticScheduleFunction(head._manager, head.verbosity_level,
                                          head.enable_double_backprop)
            node._head = head
            node._schedule_level = len(head._levels)
            node._levels = head._levels
            head._levels.append(node)
        return head._levels[level]

    def get_contained_schedule(self):
        """Returns the schedule of this schedule's backward (a node of the next level)."""
        return self._level_node(self._schedule_level + 1)

    # ---- running -----------------------------------------------------------------
    def forward(self, inputs):
        if self._pending is not None:
            outputs, self._pending = self._pending, None
        else:
            head = self._head
            if self._schedule_level == 0 and head._context is not None:
                head._end_recording()
            level = self._schedule_level
            n = len(head._program.level_in[level])
            outputs = head._program.run(level, inputs[len(inputs) - n:])
        if self.enable_double_backprop:
            self.retain_inputs(tuple(range(len(inputs))))
        return outputs

    def backward(self, target_input_indexes, grad_outputs):
        head = self._head
        level = self._schedule_level
        if level == 0:
            head._manager.end_forward()
        program = head._program
        nxt = level + 1
        gys = tuple(None if g is None else g._array for g in grad_outputs)
        create_graph = configuration.config.enable_backprop
        double = create_graph and head.enable_double_backprop
        if len(program.steps) > nxt:
            if not getattr(program, 'replayable', True):
                raise RuntimeError(
                    f'static_graph: the backward of {head._manager._label()} was not '
                    f'recorded in a replayable form')
            if double:
                return self._apply_level(nxt, grad_outputs, target_input_indexes)
            values = program.run(nxt, gys)
        else:
            if head._context is not None and len(head._context) > level:
                values = head._record_level(nxt, gys)
            else:
                values = head._rerecord(nxt, gys)
            if double:
                head._level_node(nxt)._pending = values
                return self._apply_level(nxt, grad_outputs, target_input_indexes)
        if create_graph and not head.enable_double_backprop and not head._warned_double:
            head._warned_double = True
            warnings.warn(
                f'static_graph: {head._manager._label()} was decorated without '
                f'enable_double_backprop=True, so the gradients it returns cannot be '
                f'differentiated again', RuntimeWarning, stacklevel=3)
        # (the replay's own arrays, already checked when recorded: Variables without checks)
        new = function_node._output_variable
        return tuple([None if values[i] is None else new(values[i], False)
                      for i in target_input_indexes])

    def _apply_level(self, level, grad_outputs, target_input_indexes):
        node = self._head._level_node(level)
        xs = self.get_retained_inputs()
        outs = node.apply(list(xs) + list(grad_outputs))
        return tuple(None if outs[i].array is None else outs[i] for i in target_input_indexes)

    # ---- parts of a call -------------------------------------------------------------
    def run_in_var_hooks(self, input_var_arrays):
        """Puts the arrays of a call's inputs into the store of the forward."""
        program = self._head._program
        for slot, a in zip(program.level_in[0], input_var_arrays):
            if slot is not None:
                if slot in program.fixed:
                    _program._fill(program.values[slot], a)
                else:
                    program.S[slot] = a

    def run_out_var_hooks(self):
        """Returns the arrays of the forward's outputs held in the store."""
        program = self._head._program
        return tuple(None if s is None else program.S[s] for s in program.level_out[0])

    def run_param_pre_hooks(self):
        """Returns whether every parameter and persistent array the schedule reads is still
        the recorded array (updated in place is fine; a new array needs a new recording)."""
        program = self._head._program
        for var, recorded in program.stable_vars:
            if var._array is not recorded:
                return False
        for link, name, recorded in program.persistents:
            if link.__dict__.get(name) is not recorded:
                return False
        return True

    def run_param_post_hooks(self):
        """Nothing to do after a forward: parameter gradients come from the backward."""

    # ---- inspection ---------------------------------------------------------------
    def debug_print_ref_counts(self):
        """Prints how many references each array of the store has."""
        program = self._head._program
        for slot, a in enumerate(program.S):
            if a is not None:
                print(f'slot {slot}: {sys.getrefcount(a) - 1} references')

    def debug_print_unique_arrays_info(self):
        """Prints what the schedule knows about each of its arrays."""
        program = self._head._program
        for slot, info in enumerate(program.infos):
            fixed = ' (fixed)' if slot in program.fixed else ''
            print(f'slot {slot} [{program.kinds[slot]}]{fixed}: {info!r}')

    def __deepcopy__(self, memo):
        return StaticScheduleFunction(self._manager.__deepcopy__(memo), self.verbosity_level,
                                      self.enable_double_backprop)

    def __reduce__(self):
        return StaticScheduleFunction, (ScheduleManager(), self.verbosity_level,
                                        self.enable_double_backprop)

    def __repr__(self):
        program = self._head._program
        if program is None:
            return 'StaticScheduleFunction (empty)'
        return f'StaticScheduleFunction of {program.label}:\n{program.describe()}'


def _restore_attrs(restore):
    for link, name, value, _ in restore:
        if value is _program._MISSING:
            link.__dict__.pop(name, None)
        else:
            object.__setattr__(link, name, value)


def _snapshot_chain(chain, manager):
    # The persistent values and link states of ``chain``, to be put back after its code ran
    # once more for a recording.
    saved = []
    for link in chain.links():
        for name in link._persistent:
            value = getattr(link, name, None)
            saved.append((link, name, value,
                          value.copy() if _variable._is_array(value) else value))
    for link, name in manager._state_attrs:
        value = link.__dict__.get(name, _program._MISSING)
        saved.append((link, name, value, value))
    return saved


def _restore_chain(saved):
    for link, name, obj, value in saved:
        if _variable._is_array(obj) and obj is getattr(link, name, None):
            obj[...] = value        # in place, as running statistics are updated
        elif obj is _program._MISSING:
            link.__dict__.pop(name, None)
        else:
            object.__setattr__(link, name, value)


def _leaves(outputs):
    # The Variables at the leaves of the graph behind ``outputs``.
    seen = set()
    leaves = []
    todo = [v._node for v in outputs if v is not None]
    while todo:
        node = todo.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        creator = node._creator_node
        if creator is None:
            var = node._variable()
            if var is not None:
                leaves.append(var)
            continue
        for x in creator.inputs or ():
            todo.append(x)
    return leaves


# ---- the decorator ----------------------------------------------------------------------

_OPTIONS = {'force_test_define_by_run': False, 'minimize_cache_size': False,
            'verbosity_level': 0, 'enable_double_backprop': False}


def static_graph(*args, **kwargs):
    """Decorator marking a Chain's ``forward`` (or ``__call__``) as a static graph.

    The first call runs the define-by-run code as usual and records the array operations
    it performs; the first backward through its outputs records the backward's. Later
    calls whose inputs have the same shapes, dtypes and array types, in the same ``train``
    and ``enable_backprop`` mode, replay these operations instead of running the code:
    results and gradients are the same as define-by-run's, at a fraction of its overhead.
    Another signature or mode records another schedule.

    What this requires of the decorated code:

    - It computes the same operations at every call (the same graph); Python control flow
      on values is not seen by the replay. Code with other side effects (a counter, a
      print) runs at the first call only, unless it is in a :func:`static_code` function.
    - Its arguments are Variables or arrays, or lists and tuples of them (no keyword
      arguments); it returns a Variable, or lists and tuples of Variables.
    - Static chains do not nest: only the outermost chain is decorated.
    - In training mode, a backward (or ``chain.schedule_manager.end_forward()``) ends
      each iteration, as explained in :class:`ScheduleManager`.

    Parameters the optimizer updates in place are seen by the replay; a parameter given a
    new array makes the call record again. Random functions (dropout) draw new numbers at
    each replay. State that the chain's links keep between calls (an LSTM link's ``h`` and
    ``c``) is read and written by the replay as by the code. A schedule that cannot be
    replayed faithfully (its backward computes arrays outside any function node) is
    reported with a warning, and the chain then runs define-by-run.

    Args:
        force_test_define_by_run (bool): Run define-by-run when ``chainer.config.train``
            is off.
        minimize_cache_size (bool): Keep only the schedules of the latest input signature.
        verbosity_level (int): 0: warnings only; 1: report new schedules; 2: report each
            call and list the recorded operations.
        enable_double_backprop (bool): Make the replayed backward differentiable.

    Returns:
        The decorated method (or, called with keyword arguments, the decorator).
    """
    if len(args) == 1 and not kwargs and callable(args[0]):
        return _make_static(args[0], dict(_OPTIONS))
    if args:
        raise TypeError('static_graph is used as @static_graph or '
                        '@static_graph(option=value, ...)')
    options = dict(_OPTIONS)
    for name, value in kwargs.items():
        if name not in options:
            raise TypeError(f'static_graph got an unexpected keyword argument {name!r} '
                            f'(options: {", ".join(_OPTIONS)})')
        options[name] = value

    def wrap(func):
        return _make_static(func, options)
    return wrap


def _make_static(func, options):
    force_test = options['force_test_define_by_run']
    minimize = options['minimize_cache_size']
    verbosity = options['verbosity_level']
    double = options['enable_double_backprop']

    @functools.wraps(func)
    def wrapped(chain, *args, **kwargs):
        config = configuration.config
        if not config.use_static_graph or (force_test and not config.train):
            return func(chain, *args, **kwargs)
        if config.schedule_func is not None:
            raise RuntimeError(
                f'static_graph: {type(chain).__name__}.{func.__name__} was called while '
                f'another static chain is being recorded; static chains cannot be nested '
                f'(decorate only the outermost chain)')
        if kwargs:
            raise TypeError(
                f'static_graph: {type(chain).__name__}.{func.__name__} got keyword '
                f'argument(s) {", ".join(map(repr, kwargs))}; a static chain takes its '
                f'inputs as positional arguments only')
        if not isinstance(chain, chainer.Chain):
            raise TypeError(f'static_graph decorates a method of a chainer.Chain, not of '
                            f'{type(chain).__name__}')
        manager = chain.__dict__.get('schedule_manager')
        if (not isinstance(manager, ScheduleManager) or manager._chain is None
                or manager._chain() is not chain):
            manager = ScheduleManager(minimize, verbosity)
            manager._bind(chain, func, double)
            object.__setattr__(chain, 'schedule_manager', manager)
        if manager._define_by_run:
            return func(chain, *args)
        if len(args) == 1 and (args[0].__class__ is chainer.Variable or _is_xp(args[0])):
            flat, structure = args, _ONE_ARG    # (the usual call: nothing to walk)
        else:
            flat, structure, _ = _flatten_args(args)
        while True:
            schedule = manager._get_schedule(flat, structure, double)
            object.__setattr__(chain, 'static_schedule', schedule)
            if schedule.is_empty():
                return schedule._record_call(chain, func, flat, structure)
            out = schedule._replay_call(chain, flat)
            if out is not None or schedule._program is not None:
                return out
            manager._discard(schedule)     # stale: record a fresh one
    wrapped._static_graph_options = options
    return wrapped
