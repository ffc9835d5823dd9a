"""Which sizes of the traced graph follow the named (dynamic) dimensions of ``input_shapes``.

Chainer's functions hold their shapes as numbers: the target of a reshape, the size of a
constant made with ``xp.zeros((len(x), ...))``. When ``input_shapes`` names a dimension
(``('batch', 3, 224, 224)``), the export runs the model once more for each name, with that
dimension one larger, and compares the shapes that every function saw: a size that changed
with the name is written as an expression of the network input's size at run time
(``Shape`` and ``Gather``), so that the file runs at every size of that dimension.

A size is expressed as ``coeff * (product of the names' sizes)`` (a reshape that merges
axes) or, for one name, ``coeff * size + offset`` (a concatenation along that axis). A size
that changes in another way is :data:`UNKNOWN`: its converter keeps the traced number.
"""
import copy
import warnings

import numpy

from chainer import backend


class Dim:
    """A size that follows named input dimensions: ``coeff * prod(sizes of symbols) +
    offset``.

    Attributes:
        coeff (int): The factor.
        symbols (tuple of str): The names, sorted (a name may repeat).
        offset (int): The constant term (only with one name).
        traced (int): The size in the traced run.
    """

    __slots__ = ('coeff', 'symbols', 'offset', 'traced')

    def __init__(self, coeff, symbols, offset, traced):
        self.coeff = coeff
        self.symbols = tuple(sorted(symbols))
        self.offset = offset
        self.traced = traced

    def _key(self):
        return self.coeff, self.symbols, self.offset

    def __eq__(self, other):
        # A size without an expression equals none, not even another such size.
        return (isinstance(other, Dim) and self.known and other.known
                and self._key() == other._key())

    def __hash__(self):
        return hash(self._key())

    @property
    def known(self):
        """Whether the size has an expression (it is not :data:`UNKNOWN`)."""
        return self.symbols is not None

    def __repr__(self):
        if not self.known:
            return 'Dim(unknown, traced={})'.format(self.traced)
        text = '*'.join(([str(self.coeff)] if self.coeff != 1 else []) + list(self.symbols))
        if self.offset:
            text += '{:+d}'.format(self.offset)
        return 'Dim({})'.format(text)


def unknown(traced):
    """A size that changes with the named dimensions in a way no expression here covers."""
    dim = Dim(1, (), 0, traced)
    dim.symbols = None
    return dim


def _solve(base, probes, sizes):
    """The size ``base`` as an int or a :class:`Dim`, from its values ``probes[s]`` in the
    run where the dimension ``s`` (traced at ``sizes[s]``) was one larger."""
    moved = [s for s, v in probes.items() if v != base]
    if not moved:
        return base
    product = 1
    for s in moved:
        product *= sizes[s]
    if base % product == 0:
        coeff = base // product
        if coeff and all(probes[s] == coeff * product // sizes[s] * (sizes[s] + 1)
                         for s in moved):
            return Dim(coeff, moved, 0, base)
    if len(moved) == 1:
        s = moved[0]
        coeff = probes[s] - base
        return Dim(coeff, (s,), base - coeff * sizes[s], base)
    return unknown(base)


class DimTable:
    """The sizes of every function's inputs and outputs, as ints or :class:`Dim`.

    Attributes:
        symbols (dict): Name -> ``(index of the network input, axis)`` where it is read.
    """

    def __init__(self, symbols):
        self.symbols = symbols
        self._dims = {}

    def set(self, func, kind, index, dims):
        self._dims[(id(func), kind, index)] = dims

    def get(self, func, kind, index):
        """The dims of input (``kind='in'``) or output ``index`` of ``func``, or None when
        they are all static."""
        return self._dims.get((id(func), kind, index))


def _shapes(func):
    ins = [tuple(node.shape) for node in func.inputs]
    outs = []
    for ref in func.outputs:
        node = ref()
        outs.append(None if node is None else tuple(node.shape))
    return ins, outs


def _resized(array, axes):
    # ``array`` one larger along ``axes``, its rows repeated (labels and ids stay valid).
    xp = backend.get_array_module(array)
    for axis in axes:
        n = array.shape[axis]
        array = xp.take(array, xp.arange(n + 1) % n, axis=axis)
    return array


def symbols_of(shapes, in_vars):
    """``{symbol: (traced size, [(input index, axis), ...])}`` of the named dimensions.

    A name is one symbol. A name given to dimensions of different traced sizes (ONNX only
    labels them alike) is one symbol per size, ``'name#size'``.
    """
    places = {}
    for i, (shape, var) in enumerate(zip(shapes, in_vars)):
        for axis, dim in enumerate(shape):
            if isinstance(dim, str):
                places.setdefault(dim, {}).setdefault(var.shape[axis], []).append((i, axis))
    out = {}
    for name, by_size in places.items():
        for size, where in by_size.items():
            key = name if len(by_size) == 1 else '{}#{}'.format(name, size)
            out[key] = (size, where)
    return out


def probe(in_vars, symbols, run, order_of, names_of, functions, snapshot, rng_state):
    """Runs the model once per named dimension and returns the :class:`DimTable` of the
    traced ``functions``, or None (with a warning) when a run fails or builds another graph.

    Args:
        in_vars (list): The network inputs of the traced run.
        symbols (dict): :func:`symbols_of`'s answer.
        run: ``run(model, args)`` runs the model as the traced run did; returns its
            output variables.
        order_of: Returns the functions of a run in the order of conversion.
        names_of: The lookup name of a function.
        functions (list): The functions of the traced run, in that order.
        snapshot: Returns a fresh copy of the model as it was before the traced run.
        rng_state: NumPy's random state before the traced run (each run starts from it).
    """
    traced = [_shapes(f) for f in functions]
    names = [names_of(f) for f in functions]
    per_symbol = {}
    for name, (size, places) in symbols.items():
        args = [v.array for v in in_vars]
        for i in sorted({i for i, _ in places}):
            args[i] = _resized(args[i], [a for j, a in places if j == i])
        numpy.random.set_state(rng_state)
        try:
            outputs = run(snapshot(), args)
            order = order_of(outputs)
        except Exception as e:  # NOQA: any failure of the model leaves the sizes static
            warnings.warn(
                'ONNX-Chainer could not run the model with the dynamic dimension {!r} one '
                'larger ({}: {}); sizes that follow it are written as traced'.format(
                    name, type(e).__name__, e), UserWarning)
            return None
        if [names_of(f) for f in order] != names:
            warnings.warn(
                'ONNX-Chainer: the model builds another graph when the dynamic dimension {!r} '
                'changes; sizes that follow it are written as traced'.format(name),
                UserWarning)
            return None
        per_symbol[name] = [_shapes(f) for f in order]
        del outputs, order
    sizes = {name: entry[0] for name, entry in symbols.items()}
    table = DimTable({name: entry[1][0] for name, entry in symbols.items()})
    for k, func in enumerate(functions):
        for kind, pos in (('in', 0), ('out', 1)):
            for index, shape in enumerate(traced[k][pos]):
                if shape is None:
                    continue
                others = {}
                for name in symbols:
                    shapes = per_symbol[name][k][pos]
                    if index < len(shapes) and shapes[index] is not None and (
                            len(shapes[index]) == len(shape)):
                        others[name] = shapes[index]
                if len(others) != len(symbols):
                    continue
                dims = tuple(_solve(d, {n: s[a] for n, s in others.items()}, sizes)
                             for a, d in enumerate(shape))
                if any(isinstance(d, Dim) for d in dims):
                    table.set(func, kind, index, dims)
    return table


def copy_model(model):
    """A deep copy of ``model`` (None with a warning when it cannot be copied)."""
    try:
        return copy.deepcopy(model)
    except Exception as e:  # NOQA
        warnings.warn('ONNX-Chainer could not copy the model to find the sizes that follow '
                      'the dynamic dimensions ({}: {}); they are written as traced'.format(
                          type(e).__name__, e), UserWarning)
        return None
