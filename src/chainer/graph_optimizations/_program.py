"""The program recorded for one static schedule: slots, steps per level, and their replay.

A static chain's first call runs its define-by-run code while this program records each
array operation (a *step*): which node (or ``static_code`` function) ran, which arrays it
read and which it produced. Arrays are identified by object identity and numbered
(*slots*). Level 0 holds the forward operations; level 1 the operations of the first
backward, recorded when that backward runs the engine over the recorded graph; level 2
those of a double backward, and so on.

Replaying a level calls the same steps again, in order, on the arrays of the current call:
a step's outputs are new arrays, and the slots are rebound to them. This is generated as
straight-line Python (one function per level) so that a replayed operation costs little
more than its ``forward``.

References to arrays that live outside the slots are what makes a replay subtle. A node
may keep arrays in its attributes (``self.mask``), and a backward node may have been
constructed with an array of the forward (``DropoutGrad(self.mask)``). The program finds
these references when it records a step, in the node's attributes before its forward ran:

- an attribute that *is* a recorded array is set again before each replay of the step,
  to the array of the current call (and an attribute the forward replaced is put back
  first, so that a node such as Dropout draws a new mask);
- an array reached inside a container or another object cannot be rebound, so it stays
  the same object at every replay, and the step that produces it copies its result into
  it (a *fixed* slot).

Arrays a step reads that no step produced are constants of level 0 (made by the chain's
code), parameters (read again, and checked to be the same arrays, at each replay), or, in
a backward level, a sign that the backward code computed an array outside any function:
such a program cannot be replayed, and the chain falls back to define-by-run.
"""
import itertools
import linecache
import types

import numpy

import chainer
from chainer import function_node as _function_node
from chainer import variable as _variable
from chainer.graph_optimizations import static_graph_utilities as _utilities

_is_array = _variable._is_array
_MISSING = object()

# Attributes of FunctionNode that describe its place in the graph (set by apply after the
# forward, read by backward): not state that a replayed forward reads.
_GRAPH_KEYS = frozenset((
    'inputs', 'outputs', 'rank', 'stack', '_retained_output_data', '_local_function_hooks',
    '_n_local_function_hooks', 'lazy_grad_sum'))

# Kinds of slot. Of these, 'const', 'stable' and 'buffer' are the same object at every
# replay; the others are rebound at each replay unless the slot is fixed.
_IN, _OUT, _ATTR, _CONST, _STABLE, _BUFFER, _UNKNOWN = (
    'in', 'out', 'attr', 'const', 'stable', 'buffer', 'unknown')
_SAME_OBJECT = frozenset((_CONST, _STABLE, _BUFFER))
_SCALARS = (int, float, complex, bool, str, bytes, type(None), numpy.generic, numpy.dtype,
            slice, range, type(Ellipsis))
_counter = itertools.count()


class NotReplayable(Exception):
    """The recorded program cannot be replayed (the message says why)."""


class StaleProgram(Exception):
    """A parameter read by the program is no longer the array it recorded."""


class _NodeForward:
    """The callable a node's step replays: ``node.forward`` on a tuple of arrays."""

    __slots__ = ('node', 'fix', 'on_device')

    def __init__(self, node, fix, on_device):
        self.node = node
        self.fix = fix
        self.on_device = on_device

    def __call__(self, inputs=()):
        inputs = tuple(inputs)
        if self.on_device:
            outputs = _utilities._forward_on_device(self.node, inputs)
        else:
            outputs = self.node.forward(inputs)
        if self.fix or self.on_device:
            outputs = self.node._output_arrays(outputs, inputs)
        return outputs

    def __repr__(self):
        return f'{self.node.label}.forward'


def _root(a):
    # The array owning the memory of ``a`` (itself if it is not a view).
    while True:
        base = getattr(a, 'base', None)
        if base is None or not _is_array(base):
            return a
        a = base


def _fill(buffer, value):
    """Copies ``value`` into ``buffer`` (a fixed slot), checking that it still fits."""
    if value is buffer:
        return
    if value.shape != buffer.shape or value.dtype != buffer.dtype:
        raise RuntimeError(
            f'static_graph: an operation of the replayed schedule produced an array of '
            f'shape {value.shape} and dtype {value.dtype}, but it recorded '
            f'{buffer.shape} {buffer.dtype}: the chain does not compute the same graph '
            f'at each call (static_graph requires a static graph)')
    buffer[...] = value


def _zeros(info):
    return info._zeros()


def _copy(a):
    return None if a is None else a.copy()


class Program:
    """All levels recorded for one schedule (see the module docstring).

    Args:
        label (str): Names the chain in messages.
    """

    def __init__(self, label):
        self.label = label
        self.values = []            # slot -> the object recorded there
        self.kinds = []
        self.level_of = []          # slot -> level that produced it
        self.infos = []             # slot -> ArrayInfo (arrays) or None
        self.by_id = {}             # id -> slot, while recording
        self.steps = []             # per level: list of ScheduleInfo
        self.level_in = []          # per level: its input slots (None: no input)
        self.level_out = []         # per level: its output slots (None: no output)
        self.stable_ids = set()     # arrays that are the same at every call
        self.fixed = set()
        self.problems = []
        self.level = None           # the level being recorded
        self.code = []              # per level: the generated function
        self.S = []                 # runtime values that cross levels (and level inputs)
        self.recording = True       # False once pruned: nothing more can be recorded
        self.stable_vars = []       # (Variable, recorded array) checked at each replay
        self.stable_inputs = []     # their Variables, the last inputs of each replay
        self.persistents = []       # (link, name, recorded array) checked at each replay
        self.n_ops = []             # per level: number of steps (for messages)

    # ---- slots -------------------------------------------------------------------
    def register(self, obj, kind):
        slot = len(self.values)
        self.values.append(obj)
        self.kinds.append(kind)
        self.level_of.append(self.level)
        self.infos.append(_array_info(obj) if _is_array(obj) else None)
        self.S.append(None)
        if obj is not None:
            self.by_id[id(obj)] = slot
        return slot

    def slot_of(self, obj):
        return self.by_id.get(id(obj))

    def begin_level(self, level):
        assert level == len(self.steps), (level, len(self.steps))
        self.level = level
        self.steps.append([])
        self.level_in.append([])
        self.level_out.append([])

    def add_stable(self, arrays):
        for a in arrays:
            if a is not None:
                self.stable_ids.add(id(a))

    def input_ref(self, x, where):
        """The slot of an array a step reads (registering an unseen one)."""
        if x is None:
            return None
        slot = self.by_id.get(id(x))
        if slot is not None:
            return slot
        return self._untracked(x, where, nested=False)

    def _untracked(self, x, where, nested):
        # An array no step produced. In level 0 it comes from the chain's own code (a
        # constant) or is a parameter; classify() decides later. In a backward level it
        # must be something already known to be constant.
        if self.level == 0:
            return self.register(x, _UNKNOWN)
        if id(x) in self.stable_ids:
            return self.register(x, _CONST)
        base = _root(x)
        if base is not x:
            slot = self.by_id.get(id(base))
            if slot is not None or id(base) in self.stable_ids:
                # A view (W.T, a slice) of a recorded array: valid as long as the array
                # behind it stays the same object, i.e. is fixed.
                if slot is not None and self.kinds[slot] not in _SAME_OBJECT:
                    self.fixed.add(slot)
                return self.register(x, _CONST)
        info = _array_info(x)
        self.problems.append(
            f'{where} uses an array ({info.describe()}) computed outside any function '
            f'node in its backward; a replay could not recompute it')
        return self.register(x, _CONST)

    # ---- recording steps ---------------------------------------------------------
    def record_node(self, node, inputs):
        """Runs a node's forward (which it records as one step) and returns its outputs."""
        from chainer.graph_optimizations.static_graph import ScheduleInfo
        where = node.label
        in_slots = [self.input_ref(x, where) for x in inputs]
        d = getattr(node, '__dict__', None)
        pre = dict(d) if d is not None else None
        outputs, on_device, fixed = _utilities._run_forward(node, inputs)
        return_hooks = []
        for i, y in enumerate(outputs):
            if y is not None:
                return_hooks.append((i, self.register(y, _OUT)))
        step = ScheduleInfo(_NodeForward(node, fixed, on_device), (), {'inputs': list(inputs)},
                            [(i, s) for i, s in enumerate(in_slots) if s is not None], [],
                            return_hooks, [], self.S, self.infos, func_name=where)
        step.in_slots = in_slots
        step.n_out = len(outputs)
        self._attach(step, node, pre, where)
        return outputs

    def record_static_node(self, node, inputs):
        """Runs the forward of a node that records its own ``static_code`` steps."""
        where = node.label
        for x in inputs:
            self.input_ref(x, where)
        n_before = len(self.steps[self.level])
        outputs, _, _ = _utilities._run_forward(node, inputs)
        if len(self.steps[self.level]) == n_before:
            raise RuntimeError(
                f'{where}: _supports_static_optimizations is set, but its forward called '
                f'no static_code function, so a static schedule would not run it')
        for i, y in enumerate(outputs):
            if y is not None and self.slot_of(y) is None:
                raise RuntimeError(
                    f'{where}: forward output #{i} was not computed by one of its '
                    f'static_code functions (returned, or written into outputs=), so a '
                    f'static schedule could not reproduce it')
        return outputs

    def record_call(self, func, args, kwargs, func_name):
        """Runs a ``static_code`` function (recording it as a step) and returns its result."""
        from chainer.graph_optimizations.static_graph import ScheduleInfo
        where = func_name or getattr(func, '__qualname__', repr(func))
        kwargs = dict(kwargs)
        inputs = kwargs.get('inputs')
        outputs = kwargs.get('outputs')
        for what, value in (('inputs', inputs), ('outputs', outputs)):
            if value is not None and not isinstance(value, (list, tuple)):
                raise TypeError(f'static_code function {where}: {what}= must be a list of '
                                f'arrays, got {type(value).__name__}')
        inputs_hooks = []
        if inputs is not None:
            inputs = kwargs['inputs'] = list(inputs)
            for i, x in enumerate(inputs):
                slot = self.input_ref(x, where)
                if slot is not None:
                    inputs_hooks.append((i, slot))
        outputs_hooks = []
        if outputs is not None:
            outputs = kwargs['outputs'] = list(outputs)
            for i, y in enumerate(outputs):
                if not _is_array(y):
                    raise TypeError(f'static_code function {where}: outputs[{i}] must be a '
                                    f'preallocated array, got {type(y).__name__}')
                slot = self.slot_of(y)
                if slot is None:
                    slot = self.register(y, _BUFFER)
                outputs_hooks.append((i, slot))
        # Any other argument is passed again as recorded: arrays of the schedule found in
        # them must therefore stay the same objects.
        others = [a for a in args] + [v for k, v in kwargs.items()
                                      if k not in ('inputs', 'outputs')]
        self._scan_nested(others, where)
        ret = func(*args, **kwargs)
        return_hooks = []
        if ret is not None:
            values = ret if isinstance(ret, (tuple, list)) else (ret,)
            for i, y in enumerate(values):
                if y is None:
                    continue
                if not _is_array(y):
                    raise TypeError(f'static_code function {where} must return None or a '
                                    f'tuple of arrays, got a {type(y).__name__} at #{i}')
                slot = self.slot_of(y)
                if slot is None:
                    slot = self.register(y, _OUT)
                return_hooks.append((i, slot))
            if not isinstance(ret, (tuple, list)):
                return_hooks = [(None, return_hooks[0][1])]
        step = ScheduleInfo(func, tuple(args), kwargs, inputs_hooks, outputs_hooks,
                            return_hooks, [], self.S, self.infos, func_name=func_name)
        step.in_slots = None
        self._attach(step, None, None, where)
        return ret

    def _attach(self, step, node, pre, where):
        # Works out the attribute assignments around a node's step and files the step.
        step.node = node
        step.level = self.level
        step.assigns = []       # (key, slot or None, constant): set before each call
        step.reads = []         # (key, slot): read after each call (an attribute source)
        if pre is not None:
            post = node.__dict__
            for key, old in pre.items():
                if key in _GRAPH_KEYS:
                    continue
                new = post.get(key, _MISSING)
                changed = new is not old
                slot = None if old is None else self.by_id.get(id(old))
                if slot is not None:
                    # A recorded array or object: set to the current one before each call
                    # (skipped at generation when it is always the same object).
                    step.assigns.append((key, slot, None))
                elif changed:
                    step.assigns.append((key, None, old))     # put back what forward replaced
                elif _is_array(old):
                    if self.level == 0:
                        # Given to the node by the chain's code: a constant, which the
                        # nodes of the backward may use as well.
                        self.stable_ids.add(id(old))
                    elif id(old) not in self.stable_ids:
                        # Made by a backward's code: recorded if it is a view of a
                        # recorded array; otherwise a problem.
                        self._untracked(old, where, nested=False)
                else:
                    self._scan_nested([old], where)
            for key, new in post.items():
                if key in _GRAPH_KEYS or pre.get(key, _MISSING) is new:
                    continue
                if new is None or isinstance(new, _SCALARS) or id(new) in self.by_id:
                    continue
                if _is_array(new) or _holds_arrays(new):
                    step.reads.append((key, self.register(new, _ATTR)))
        self.steps[self.level].append(step)

    def _scan_nested(self, objs, where):
        # Arrays of the program reached inside containers or objects: fixed.
        for a in _nested_arrays(objs, self):
            slot = self.by_id.get(id(a))
            if slot is not None:
                kind = self.kinds[slot]
                if kind in (_ATTR,) and not _is_array(self.values[slot]):
                    self.problems.append(
                        f'{where} keeps an object that the forward of another node '
                        f'creates anew at each call inside a container')
                elif kind not in _SAME_OBJECT and kind != _UNKNOWN:
                    self.fixed.add(slot)
            elif self.level == 0:
                self.stable_ids.add(id(a))
            elif id(a) not in self.stable_ids:
                self._untracked(a, where, nested=True)

    # ---- after level 0 -----------------------------------------------------------
    def classify_unknown(self, param_arrays):
        """Decides what each array that level 0 read without producing it is.

        Args:
            param_arrays (dict): ``id(array) -> Variable`` for the parameters and the
                other Variables the replay reads again (and checks) at each call.

        Returns:
            list of (slot, Variable): the stable inputs, in slot order.
        """
        stable = []
        for slot, kind in enumerate(self.kinds):
            if kind != _UNKNOWN:
                continue
            a = self.values[slot]
            var = param_arrays.get(id(a))
            if var is not None:
                self.kinds[slot] = _STABLE
                stable.append((slot, var))
            else:
                self.kinds[slot] = _CONST
            self.stable_ids.add(id(a))
        return stable

    # ---- generation --------------------------------------------------------------
    def check_replayable(self):
        if self.problems:
            raise NotReplayable('; '.join(dict.fromkeys(self.problems)))
        for slot in sorted(self.fixed):
            v = self.values[slot]
            if not _is_array(v):
                raise NotReplayable(f'a value of the schedule ({type(v).__name__}) is kept '
                                    f'inside another object and cannot be updated in place')
            if not v.flags.writeable:
                raise NotReplayable(f'an array of the schedule ({self.infos[slot].describe()}) '
                                    f'is kept inside another object but is read-only, so '
                                    f'it cannot be updated in place')

    def generate(self):
        """(Re)generates the function of every level recorded so far."""
        self.check_replayable()
        n_levels = len(self.steps)
        uses = self._uses()
        fixed_roots = {id(_root(self.values[s])) for s in self.fixed}
        self.code = [self._generate_level(L, uses, fixed_roots) for L in range(n_levels)]
        self.n_ops = [len(s) for s in self.steps]

    def seed(self):
        """Puts the recorded values into the runtime store (as if a replay had run)."""
        for slot, kind in enumerate(self.kinds):
            if kind not in _SAME_OBJECT:
                self.S[slot] = self.values[slot]

    def _uses(self):
        # slot -> set of levels reading it.
        uses = {}

        def use(slot, level):
            if slot is not None:
                uses.setdefault(slot, set()).add(level)
        for L, steps in enumerate(self.steps):
            for step in steps:
                for _, s in step.inputs_hooks:
                    use(s, L)
                for _, s in step.outputs_hooks:
                    use(s, L)
                for _, s, _ in step.assigns:
                    use(s, L)
            for s in self.level_out[L]:
                use(s, L)
        return uses

    def _generate_level(self, L, uses, fixed_roots):
        env = {'_fill': _fill, '_copy': _copy, '_zeros': _zeros, '_Stale': StaleProgram}
        lines = []
        emit = lines.append
        kinds = self.kinds
        local = set()           # slots bound as locals of this function

        def expr(slot):
            if slot is None:
                return 'None'
            if kinds[slot] in _SAME_OBJECT:
                name = f'c{slot}'
                env[name] = self.values[slot]
                return name
            if slot not in local:
                # Produced by an earlier level (or earlier in this one but not bound).
                emit(f'    a{slot} = S[{slot}]')
                local.add(slot)
            return f'a{slot}'

        def produced(slot, key_dict=None, key=None):
            # After a slot got its value for this call: keep it in place if fixed, store it
            # for later levels.
            local.add(slot)
            if slot in self.fixed:
                env[f'c{slot}'] = self.values[slot]
                emit(f'    _fill(c{slot}, a{slot})')
                emit(f'    a{slot} = c{slot}')
                if key_dict is not None:
                    emit(f'    {key_dict}[{key!r}] = c{slot}')
            if any(u > L for u in uses.get(slot, ())) or kinds[slot] == _IN:
                emit(f'    S[{slot}] = a{slot}')

        # Inputs of the level.
        for i, slot in enumerate(self.level_in[L]):
            if slot is None or kinds[slot] in _SAME_OBJECT:
                continue
            if slot not in uses and slot not in self.fixed and kinds[slot] != _IN:
                continue
            emit(f'    a{slot} = ins[{i}]')
            if L > 0:
                info = self.infos[slot]
                env[f't{slot}'] = info
                emit(f'    if a{slot} is None:')
                emit(f'        a{slot} = _zeros(t{slot})')
            produced(slot)

        # The last step of this level reading each slot: its local is deleted after it, so
        # that the arrays of a replay are freed as early as in define-by-run.
        last_use = {}
        for k, step in enumerate(self.steps[L]):
            for _, s in itertools.chain(step.inputs_hooks, step.outputs_hooks):
                last_use[s] = k
            for _, s, _ in step.assigns:
                if s is not None:
                    last_use[s] = k
        kept = {s for s in self.level_out[L] if s is not None}

        for k, step in enumerate(self.steps[L]):
            dname = None
            if step.node is not None and (step.assigns or step.reads):
                dname = f'd{k}'
                env[dname] = step.node.__dict__
            for j, (key, slot, const) in enumerate(step.assigns):
                if slot is None:
                    if const is None:
                        emit(f'    {dname}[{key!r}] = None')
                    else:
                        env[f'k{k}_{j}'] = const
                        emit(f'    {dname}[{key!r}] = k{k}_{j}')
                elif kinds[slot] in _SAME_OBJECT or slot in self.fixed:
                    # Always the same object; set it back only if forward may replace it.
                    if step.node.__dict__.get(key) is not self.values[slot]:
                        emit(f'    {dname}[{key!r}] = {expr(slot)}')
                else:
                    emit(f'    {dname}[{key!r}] = {expr(slot)}')
            fname = f'f{k}'
            if isinstance(step.func, _NodeForward):
                nf = step.func
                args = ', '.join(expr(s) for s in step.in_slots)
                args = f'({args},)' if step.in_slots else '()'
                env[fname] = nf if nf.fix or nf.on_device else nf.node.forward
                # Unpacked in one go (which also checks the number of outputs).
                targets = ['_'] * step.n_out
                for i, slot in step.return_hooks:
                    targets[i] = f'a{slot}'
                emit(f'    {", ".join(targets)}, = {fname}({args})')
            else:
                env[fname] = step.func
                env[f'p{k}'] = step.args
                parts = [f'*p{k}']
                kw = {key: v for key, v in step.kwargs.items()
                      if key not in ('inputs', 'outputs')}
                if 'inputs' in step.kwargs:
                    items = ['None'] * len(step.kwargs['inputs'])
                    for i, s in step.inputs_hooks:
                        items[i] = expr(s)
                    for i, x in enumerate(step.kwargs['inputs']):
                        if items[i] == 'None' and x is not None:
                            env[f'x{k}_{i}'] = x
                            items[i] = f'x{k}_{i}'
                    parts.append(f'inputs=[{", ".join(items)}]')
                if 'outputs' in step.kwargs:
                    items = [expr(s) for _, s in step.outputs_hooks]
                    parts.append(f'outputs=[{", ".join(items)}]')
                if kw:
                    env[f'q{k}'] = kw
                    parts.append(f'**q{k}')
                emit(f'    r = {fname}({", ".join(parts)})')
            if not isinstance(step.func, _NodeForward):
                for i, slot in step.return_hooks:
                    emit(f'    a{slot} = r' if i is None else f'    a{slot} = r[{i}]')
            for i, slot in step.return_hooks:
                produced(slot)
            for key, slot in step.reads:
                if slot in uses or slot in self.fixed:
                    emit(f'    a{slot} = {dname}[{key!r}]')
                    produced(slot, dname, key)
            dead = sorted(s for s in local if s not in kept and last_use.get(s, -1) <= k)
            if dead:
                emit('    del ' + ', '.join(f'a{s}' for s in dead))
                local.difference_update(dead)

        outs = []
        for slot in self.level_out[L]:
            if slot is None:
                outs.append('None')
                continue
            e = expr(slot)
            v = self.values[slot]
            if (slot in self.fixed or kinds[slot] in (_CONST, _BUFFER)
                    or (_is_array(v) and id(_root(v)) in fixed_roots)):
                e = f'_copy({e})'   # the caller must not get an array a later call reuses
            outs.append(e)
        emit(f'    return ({", ".join(outs)}{"," if len(outs) == 1 else ""})')
        name = f'static_schedule_{self._safe_label()}_level{L}'
        source = f'def {name}(S, ins):\n' + '\n'.join(lines) + '\n'
        filename = f'<static_graph {self.label} level {L} #{next(_counter)}>'
        linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
        exec(compile(source, filename, 'exec'), env)
        fn = env[name]
        fn.source = source
        return fn

    def _safe_label(self):
        return ''.join(c if c.isalnum() else '_' for c in self.label)

    # ---- running -----------------------------------------------------------------
    def run(self, level, ins):
        return self.code[level](self.S, ins)

    def prune(self):
        """Ends recording: drops what only recording needed (and the recorded arrays that
        the replays replace)."""
        if not self.recording:
            return
        self.recording = False
        self.by_id = None
        for slot, kind in enumerate(self.kinds):
            if kind not in _SAME_OBJECT and slot not in self.fixed:
                self.values[slot] = None
        for steps in self.steps:
            for step in steps:
                if 'inputs' in step.kwargs and step.inputs_hooks:
                    inputs = step.kwargs['inputs']
                    for i, _ in step.inputs_hooks:
                        inputs[i] = None

    def describe(self):
        lines = []
        for L, steps in enumerate(self.steps):
            lines.append(f'level {L} ({"forward" if L == 0 else "backward " + str(L)}): '
                         f'{len(steps)} operations')
            for step in steps:
                lines.append(f'  {step!r}')
        return '\n'.join(lines)


def _array_info(a):
    from chainer.graph_optimizations.static_graph import ArrayInfo
    return ArrayInfo(a)


def _holds_arrays(obj, depth=0):
    if depth > 3:
        return False
    if _is_array(obj):
        return True
    if isinstance(obj, (tuple, list)):
        return any(_holds_arrays(x, depth + 1) for x in obj)
    if isinstance(obj, dict):
        return any(_holds_arrays(x, depth + 1) for x in obj.values())
    if isinstance(obj, _variable.Variable):
        return obj._array is not None
    return False


def _nested_arrays(objs, program, depth=0, seen=None):
    """Yields the arrays reachable from ``objs`` (containers, Variables, plain objects,
    closures), without entering links (their parameters and persistents are stable) or the
    nodes of the schedule (whose own attributes are handled step by step)."""
    if seen is None:
        seen = set()
    if depth > 4:
        return
    for obj in objs:
        if obj is None or isinstance(obj, _SCALARS) or id(obj) in seen:
            continue
        seen.add(id(obj))
        if _is_array(obj):
            yield obj
        elif isinstance(obj, (tuple, list, set, frozenset)):
            yield from _nested_arrays(obj, program, depth + 1, seen)
        elif isinstance(obj, dict):
            yield from _nested_arrays(obj.values(), program, depth + 1, seen)
        elif isinstance(obj, _variable.Variable):
            if obj._array is not None:
                yield obj._array
        elif isinstance(obj, _variable.VariableNode):
            if obj.data is not None:
                yield obj.data
        elif isinstance(obj, (types.ModuleType, type, chainer.Link, chainer.Optimizer)):
            continue
        elif isinstance(obj, _function_node.FunctionNode):
            if not any(step.node is obj for steps in program.steps for step in steps):
                d = getattr(obj, '__dict__', {})
                yield from _nested_arrays(
                    [v for k, v in d.items() if k not in _GRAPH_KEYS], program, depth + 1, seen)
        elif isinstance(obj, types.FunctionType):
            cells = obj.__closure__ or ()
            yield from _nested_arrays([c.cell_contents for c in cells
                                       if _cell_filled(c)], program, depth + 1, seen)
        elif isinstance(obj, types.MethodType):
            yield from _nested_arrays([obj.__self__], program, depth + 1, seen)
        else:
            d = getattr(obj, '__dict__', None)
            if isinstance(d, dict):
                yield from _nested_arrays(d.values(), program, depth + 1, seen)


def _cell_filled(cell):
    try:
        cell.cell_contents
    except ValueError:
        return False
    return True
