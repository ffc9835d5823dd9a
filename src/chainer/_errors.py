"""Errors that name what the user called: the function, the argument, what it accepts.

A bad argument is usually found deep inside: in ``FunctionNode.apply`` (an input that is not an
array), in a node's type check (often a node that the public function applies internally, with
a name of its own), in ``as_variable``. Those places call the helpers below, which find the
``chainer.functions`` function that the user called by looking up the call stack, and the
argument by comparing the values of that function's parameters with the offending input.

All of this runs only once an error is certain: the calls that succeed pay nothing for it.
"""
import sys

import numpy

import chainer     # (Variable and Link through the package: they are built on this module)

ACCEPTS = 'a Variable or an N-dimensional array (numpy.ndarray or cupy.ndarray)'

_PACKAGE = 'chainer'
_FUNCTIONS = 'chainer.functions.'
# Frames of the backprop engine: a function applied inside a backward is not what the user
# called.
_ENGINE = ('chainer._backprop', 'chainer._backprop_utils')
_NO_DEFAULT = object()


def _public_function(frame):
    """The public ``chainer.functions`` function that ``frame`` runs, or None."""
    module = frame.f_globals.get('__name__', '')
    if not module.startswith(_FUNCTIONS):
        return None
    code = frame.f_code
    name = code.co_name
    if name.startswith('_'):
        return None
    functions = sys.modules.get('chainer.functions')
    if functions is None or name not in getattr(functions, '_NAME_TO_MODULE', ()):
        return None
    try:
        fn = getattr(functions, name)
    except AttributeError:
        return None
    while fn is not None and getattr(fn, '__code__', None) is not code:
        fn = getattr(fn, '__wrapped__', None)
    return fn


def caller():
    """``(function, frame)``: the outermost public ``chainer.functions`` function on the call
    stack below the user's code (which starts at the first frame outside the ``chainer``
    package), and the frame that runs it; ``(None, None)`` if there is none, or if the error
    arises inside a backward pass. (Called from within ``chainer``: the walk starts at the
    caller's frame.)"""
    try:
        frame = sys._getframe(1)
    except (AttributeError, ValueError):     # (an interpreter without frames)
        return None, None
    found = (None, None)
    while frame is not None:
        module = frame.f_globals.get('__name__', '')
        if module != _PACKAGE and not module.startswith(_PACKAGE + '.'):
            break
        if module in _ENGINE:
            return None, None
        fn = _public_function(frame)
        if fn is not None:
            found = (fn, frame)
        frame = frame.f_back
    return found


def public_name(default):
    """The name of the public function the user called (see :func:`caller`), or ``default``."""
    fn, _ = caller()
    return default if fn is None else fn.__name__


def _parameters(frame):
    code = frame.f_code
    n = code.co_argcount + code.co_kwonlyargcount
    names = list(code.co_varnames[:n])
    if code.co_flags & 0x04:    # *args
        names.append(code.co_varnames[n])
    return names


def _defaults(fn):
    code = fn.__code__
    out = {}
    positional = code.co_varnames[:code.co_argcount]
    for name, value in zip(positional[len(positional) - len(fn.__defaults__ or ()):],
                           fn.__defaults__ or ()):
        out[name] = value
    out.update(fn.__kwdefaults__ or {})
    return out


def argument(fn, frame, value, index=None):
    """The name under which the public function ``fn`` (running in ``frame``) received
    ``value`` (``'x'``, ``'xs[1]'``), or None.

    ``None`` is matched by position among the parameters the user set to None (``index``: the
    position of the input among the node's inputs, as a tie-break).
    """
    params = _parameters(frame)
    values = frame.f_locals
    if value is not None:
        def same(v):
            # the value itself, or the Variable holding it
            return v is value or getattr(v, '_array', _NO_DEFAULT) is value

        for name in params:
            v = values.get(name, _NO_DEFAULT)
            if same(v):
                return name
            if isinstance(v, (list, tuple)):
                for k, item in enumerate(v):
                    if same(item):
                        return f'{name}[{k}]'
        return None
    # None: a parameter the user set to None (one whose default is not None), else an entry
    # of a list or tuple parameter, else a parameter left at its default None
    defaults = _defaults(fn)
    nones = [name for name in params
             if values.get(name, _NO_DEFAULT) is None and defaults.get(name, _NO_DEFAULT)
             is not None]
    if len(nones) > 1 and index is not None and index < len(params) and params[index] in nones:
        return params[index]
    if nones:
        return nones[0]
    for name in params:
        v = values.get(name)
        if isinstance(v, (list, tuple)):
            for k, item in enumerate(v):
                if item is None:
                    return f'{name}[{k}]'
    nones = [name for name in params if values.get(name, _NO_DEFAULT) is None]
    return nones[0] if nones else None


def describe(value):
    """A short description of an argument: ``float32 (2, 3)``, ``None``, ``list``, ``3``."""
    array = value.array if isinstance(value, chainer.Variable) else value
    if hasattr(array, 'dtype') and hasattr(array, 'shape'):
        return f'{array.dtype} {tuple(array.shape)}'
    if isinstance(value, (list, tuple)):
        if value and all(isinstance(v, (int, float, complex, list, tuple)) for v in value):
            return f'{type(value).__name__} of {len(value)} items'     # data, not arguments
        items = [describe(v) for v in value[:3]]
        if len(value) > 3:
            items.append('...')
        return ('[{}]' if isinstance(value, list) else '({})').format(', '.join(items))
    if callable(value) and hasattr(value, '__name__'):
        return value.__name__
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + '...'


def call_line(fn, frame):
    """``linear was called with x: float32 (2, 3), W: int32 (4, 3), b: None``."""
    values = frame.f_locals
    parts = [f'{name}: {describe(values[name])}' for name in _parameters(frame)
             if name in values]
    return f'{fn.__name__} was called with ' + ', '.join(parts)


def not_an_array(value, index=None):
    """The sentence ``relu: argument x must be ... got list`` for an input ``value`` that is not
    an array, or None when the public function is not found."""
    fn, frame = caller()
    if fn is None:
        return None
    name = argument(fn, frame, value, index)
    what = f'argument {name}' if name else 'an argument'
    got = 'None' if value is None else type(value).__name__
    return f'{fn.__name__}: {what} must be {ACCEPTS}, got {got}'


def not_a_sequence(error, value):
    """Adds to ``error`` (raised turning ``value``, the inputs given to ``apply``, into a tuple)
    which argument of the public function was no list or tuple."""
    fn, frame = caller()
    if fn is None:
        return
    name = argument(fn, frame, value)
    what = f'argument {name}' if name else 'an argument'
    got = 'None' if value is None else type(value).__name__
    add_to_message(error, f'{fn.__name__}: {what} must be a list or tuple of Variables or '
                          f'N-dimensional arrays, got {got}')


def _layer_path(link):
    """The path of ``link`` in the model being called (``/predictor/l1``), read off the links
    whose ``__call__`` or ``forward`` run on the call stack; ``''`` when it is the model."""
    chain = []
    frame = sys._getframe(1)
    while frame is not None:
        owner = frame.f_locals.get('self') if frame.f_code.co_name in (
            '__call__', 'forward', '_call_with_hooks') else None
        if isinstance(owner, chainer.Link) and (not chain or chain[-1] is not owner):
            chain.append(owner)
        frame = frame.f_back
    if not chain or chain[0] is not link:
        return getattr(link, 'name', None) or ''
    # chain: innermost first; each link is a child of the next (the root's own name is not
    # part of the path)
    names = [getattr(c, 'name', None) or '?' for c in chain[:-1]]
    if names:
        return '/' + '/'.join(reversed(names))
    return getattr(link, 'name', None) or ''    # called by itself: its own name, if any


def name_link(error, link, args, kwargs):
    """Adds to ``error`` (an InvalidType raised while ``link`` ran on ``args``) which link and
    layer it was, and what the link expects; once, by the innermost link."""
    if getattr(error, '_chainer_link_named', False):
        return
    error._chainer_link_named = True
    name = type(link).__name__
    path = _layer_path(link)
    where = f'{name} link {path}' if path else f'{name} link'
    hint = None
    try:
        hint = link._input_error_hint(*args, **kwargs)
    except Exception:       # (a hint is a courtesy: never let it hide the error)
        hint = None
    if hint is None:
        params = ', '.join(f'{n[1:]} {describe(p)}' for n, p in sorted(link.namedparams())
                           if p.array is not None and n.count('/') == 1)
        try:
            import inspect
            names = [n for n, p in inspect.signature(link.forward).parameters.items()
                     if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        except (TypeError, ValueError):
            names = []
        given = ', '.join(f'{n}: {describe(a)}' if n else describe(a)
                          for n, a in zip(names + [None] * len(args), args))
        hint = f'got {given}' + (f' (its parameters: {params})' if params else '')
    add_to_message(error, f'{where}: {hint}')


def _first_nan(a):
    """The index of the first NaN of ``a`` (a float array with one), as a tuple."""
    from chainer import backend
    xp = backend.get_array_module(a)
    flat = int(xp.argmax(xp.isnan(a).ravel()))
    return tuple(int(i) for i in numpy.unravel_index(flat, a.shape))


def _has_nan(a):
    from chainer import backend
    return (a is not None and getattr(a, 'dtype', None) is not None and a.dtype.kind in 'fc'
            and bool(backend.get_array_module(a).isnan(a).any()))


def nan_report(label, direction, outputs, inputs=None):
    """The message of the debug mode's NaN check: Chainer's first line (``NaN is detected on
    forward computation of <label>``), then the public function that produced the first NaN,
    where, and the input that caused it (``inputs``: the node's input arrays, when known)."""
    lines = [f'NaN is detected on {direction} computation of {label}']
    fn, frame = caller()
    who = fn.__name__ if fn is not None else label
    k = next((k for k, y in enumerate(outputs) if _has_nan(y)), None)
    if k is None:
        return lines[0]
    y = outputs[k]
    at = _first_nan(y)
    what = 'output' if direction == 'forward' else 'gradient'
    lines.append(f'{who}: {what} #{k} ({describe(y)}) holds NaN first at index {at}')
    if inputs is None:
        return '\n'.join(lines)

    def name(i, x):
        n = argument(fn, frame, x, i) if fn is not None and x is not None else None
        return n or f'input #{i}'

    nan_inputs = [(i, x) for i, x in enumerate(inputs) if _has_nan(x)]
    if nan_inputs:
        i, x = nan_inputs[0]
        lines.append(f'{who} got NaN: its {name(i, x)} ({describe(x)}) holds NaN at index '
                     f'{_first_nan(x)}, so the NaN came with the input (from data, or from '
                     f'code outside the graph)')
        return '\n'.join(lines)
    parts = []
    for i, x in enumerate(inputs):
        if x is None:
            continue
        if tuple(x.shape) == tuple(y.shape):
            parts.append(f'{name(i, x)}{list(at)} = {x[at].item()!r}')
            continue
        part = f'{name(i, x)} ({describe(x)}'
        if x.dtype.kind == 'f':
            from chainer import backend
            inf = backend.get_array_module(x).isinf(x)
            if bool(inf.any()):
                first = numpy.unravel_index(int(inf.ravel().argmax()), x.shape)
                part += f', holding infinity at index {tuple(int(j) for j in first)}'
        parts.append(part + ')')
    lines.append(f'{who} produced it from inputs without NaN: ' + ', '.join(parts))
    return '\n'.join(lines)


def add_to_message(error, text):
    """Appends the line ``text`` to the message of ``error`` (in place), where its message is a
    plain string."""
    args = error.args
    if len(args) == 1 and isinstance(args[0], str):
        error.args = (args[0] + '\n' + text,)


def explain_type_error(error, inputs):
    """Adds to ``error``, raised by a node's type check on ``inputs`` (the arrays given to
    ``apply``), which public function was called, and how: the argument that is None, or the
    arguments it got."""
    fn, frame = caller()
    if fn is None:
        return
    for i, x in enumerate(inputs):
        if x is None:
            name = argument(fn, frame, None, i)
            what = f'argument {name}' if name else 'an argument'
            add_to_message(error, f'{fn.__name__}: {what} is None; it must be {ACCEPTS}')
            return
    add_to_message(error, call_line(fn, frame))
