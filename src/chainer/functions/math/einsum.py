"""Einstein summation over any number of operands."""
import string

import numpy

import chainer
from chainer import backend
from chainer import function_node
from chainer.functions import _checks
from chainer.utils import type_check

# Sorted by character code, as NumPy orders the implicit output, so that the
# integers of the sublist format keep their order too.
einsum_symbols = string.ascii_uppercase + string.ascii_lowercase
einsum_symbols_set = set(einsum_symbols)


def _parse_subscripts(subscripts):
    """Splits ``'ij,jk->ik'`` into ``(['ij', 'jk'], 'ik')`` (output ``None`` if implicit)."""
    if not isinstance(subscripts, str):
        raise TypeError(f'einsum subscripts must be a str, got {type(subscripts).__name__}')
    s = subscripts.replace(' ', '')
    if s.count('->') > 1:
        raise ValueError(f"einsum subscripts may hold at most one '->', got {subscripts!r}")
    if '->' in s:
        ins, out = s.split('->')
    else:
        ins, out = s, None
    in_subs = ins.split(',')
    for sub in in_subs + ([] if out is None else [out]):
        rest = sub.replace('...', '', 1)
        bad = [c for c in rest if c not in einsum_symbols]
        if bad:
            raise ValueError(
                f'einsum subscripts take letters, commas, "->" and one "..." per operand, '
                f'got {bad[0]!r} in {subscripts!r}')
    if out is not None and len(set(out.replace('...', ''))) != len(out.replace('...', '')):
        raise ValueError(f'einsum output subscripts must not repeat a letter, got {out!r}')
    return in_subs, out


def _sublist_to_str(sublist):
    chars = []
    for s in sublist:
        if s is Ellipsis:
            chars.append('...')
        elif not isinstance(s, (int, numpy.integer)) or isinstance(s, bool):
            raise TypeError(f'einsum sublists hold integers or Ellipsis, got {s!r}')
        elif 0 <= s < len(einsum_symbols):
            chars.append(einsum_symbols[s])
        else:
            raise ValueError(f'einsum sublist integers must be in [0, {len(einsum_symbols)}), got {s}')
    return ''.join(chars)


def _parse_operands(operands):
    """Returns ``(in_subs, out_sub, arrays)`` from either calling format."""
    if not operands:
        raise ValueError('einsum requires at least one operand')
    if isinstance(operands[0], str):
        in_subs, out = _parse_subscripts(operands[0])
        arrays = operands[1:]
    else:
        out = None
        if len(operands) % 2:
            out = _sublist_to_str(operands[-1])
            operands = operands[:-1]
        arrays = operands[0::2]
        in_subs = [_sublist_to_str(s) for s in operands[1::2]]
    if len(in_subs) != len(arrays):
        raise ValueError(
            f'einsum got {len(in_subs)} operand subscripts but {len(arrays)} operands')
    return in_subs, out, tuple(arrays)


class EinSum(function_node.FunctionNode):
    """Einstein summation; subscripts may use ``...`` and broadcast axes of length one."""

    def __init__(self, in_subs, out_sub):
        # Chainer passes and keeps the input subscripts joined by commas ('ij,jk').
        self._subs = tuple(in_subs.split(',') if isinstance(in_subs, str) else in_subs)
        self.in_subs = ','.join(self._subs)
        self.out_sub = out_sub

    def check_type_forward(self, in_types):
        type_check._argname(in_types, tuple(f'x{i}' for i in range(len(self._subs))))
        for in_type, sub in zip(in_types, self._subs):
            type_check.expect(in_type.dtype.kind == 'f')
            if '...' in sub:
                type_check.expect(in_type.ndim >= len(sub) - 3)
            else:
                type_check.expect(in_type.ndim == len(sub))
        # A letter has one length wherever it appears (but where it is 1, which broadcasts),
        # stated against its first appearance, as Chainer words it.
        first = {}
        for i, (in_type, sub) in enumerate(zip(in_types, self._subs)):
            shape = _checks._value(in_type.shape)
            for axis, c in _letter_axes(sub, len(shape)):
                n = shape[axis]
                if n == 1:
                    continue
                if c not in first:
                    first[c] = (i, axis, n)
                elif first[c][2] != n:
                    j, q, _ = first[c]
                    type_check.expect(in_types[j].shape[q] == in_type.shape[axis])

    def forward(self, inputs):
        self.retain_inputs(tuple(range(len(inputs))))
        xp = backend.get_array_module(*inputs)
        self._plan = plan = _Plan(self._subs, self.out_sub, [x.shape for x in inputs])
        arrays = [x.reshape(s) if x.shape != s else x for x, s in zip(inputs, plan.shapes)]
        dtype = numpy.result_type(*[x.dtype for x in inputs])
        if dtype == numpy.float16:
            arrays = [x.astype(numpy.float32) for x in arrays]
        y = xp.einsum(plan.expr, *arrays, optimize=len(arrays) > 1)
        return xp.asarray(y, dtype=dtype),

    def backward(self, indexes, grad_outputs):
        F = chainer.functions
        plan = self._plan
        gy, = grad_outputs
        xs = [x if x.shape == s else F.reshape(x, s)
              for x, s in zip(self.get_retained_inputs(), plan.shapes)]
        ret = []
        for i in indexes:
            gx = _operand_grad(plan, i, gy, xs)
            x = self.inputs[i]
            if gx.shape != x.shape:
                gx = F.reshape(gx, x.shape)
            if gx.dtype != x.dtype:
                gx = F.cast(gx, x.dtype)
            ret.append(gx)
        return tuple(ret)


class DiagEinSum(EinSum):
    """EinSum whose output subscripts may repeat a letter (``'i->ii'``).

    The output has shape ``out_shape`` and is zero off the diagonals that the
    repeated letters name; on them it holds the einsum with each letter once.
    """

    def __init__(self, in_subs, out_sub, out_shape):
        super().__init__(in_subs, out_sub)
        self.out_shape = tuple(out_shape)
        self._unique = ''.join(dict.fromkeys(out_sub))

    def forward(self, inputs):
        full_sub, self.out_sub = self.out_sub, self._unique
        try:
            y, = super().forward(inputs)
        finally:
            self.out_sub = full_sub
        xp = backend.get_array_module(y)
        out = xp.zeros(self.out_shape, y.dtype)
        # Index each output axis by the position of its letter in y's axes.
        n = len(self._unique)
        index = tuple(xp.arange(out.shape[k]).reshape(
            (-1,) + (1,) * (n - 1 - self._unique.index(c))) for k, c in enumerate(full_sub))
        out[index] = y
        return out,

    def backward(self, indexes, grad_outputs):
        # Only the diagonal entries depend on the inputs: take them, then the
        # gradient is that of the einsum with each output letter once.
        gy = EinSum((self.out_sub,), self._unique).apply(grad_outputs)[0]
        return super().backward(indexes, (gy,))


def _letter_axes(sub, ndim):
    # (axis, letter) of the letters of a subscript, on an operand of ``ndim`` axes
    if '...' not in sub:
        return list(enumerate(sub))
    head, tail = sub.split('...')
    return list(enumerate(head)) + [(ndim - len(tail) + k, c) for k, c in enumerate(tail)]


class _Plan:
    """Explicit form of an einsum call for the given shapes.

    ``...`` becomes unused letters, and axes of length one that broadcast
    against a longer axis are dropped from their operand (``shapes`` holds the
    reshaped shapes), so that every letter has one size and ``expr`` needs no
    broadcasting. The gradients are then plain einsums again.
    """

    def __init__(self, in_subs, out_sub, shapes):
        used = set(''.join(in_subs) + (out_sub or ''))
        spare = [c for c in einsum_symbols if c not in used]
        n_ell = 0
        for sub, shape in zip(in_subs, shapes):
            if '...' in sub:
                n_ell = max(n_ell, len(shape) - (len(sub) - 3))
        if n_ell > len(spare):
            raise ValueError('einsum ran out of letters for the "..." axes')
        ell = ''.join(spare[:n_ell])
        self.spare = spare[n_ell:]

        subs = []
        for sub, shape in zip(in_subs, shapes):
            if '...' in sub:
                k = len(shape) - (len(sub) - 3)
                sub = sub.replace('...', ell[n_ell - k:] if k else '')
            if len(sub) != len(shape):
                raise ValueError(
                    f'einsum subscripts {sub!r} do not match an operand of shape {shape}')
            subs.append(sub)

        size = {}
        for sub, shape in zip(subs, shapes):
            for c, n in zip(sub, shape):
                if n != 1 and size.get(c, 1) not in (1, n):
                    raise ValueError(
                        f'einsum operands could not be broadcast: axis {c!r} has lengths '
                        f'{size[c]} and {n}')
                if n != 1 or c not in size:
                    size[c] = n
        self.size = size

        if out_sub is None:
            once = sorted(c for c in set(''.join(subs)) if c not in ell
                          and sum(s.count(c) for s in subs) == 1)
            out = ell + ''.join(once)
        elif '...' in out_sub:
            out = out_sub.replace('...', ell)
        else:
            if n_ell:
                raise ValueError(
                    'einsum output has no "..." but the operands have axes for "..."')
            out = out_sub
        for c in out:
            if c not in size:
                raise ValueError(f'einsum output letter {c!r} does not appear in any operand')
        self.out = out

        # Drop the broadcasting axes of length one.
        self.subs = []
        self.shapes = []
        for sub, shape in zip(subs, shapes):
            keep = [(c, n) for c, n in zip(sub, shape) if n == size[c]]
            self.subs.append(''.join(c for c, _ in keep))
            self.shapes.append(tuple(n for _, n in keep))
        self.expr = ','.join(self.subs) + '->' + out


def _operand_grad(plan, i, gy, xs):
    """Gradient of operand ``i`` (in its reshaped form) as an einsum of the others."""
    # NOTE: the gradient is einsum(gy, other operands -> subscripts of x_i)
    # with two fixes, since an einsum output cannot repeat a letter nor hold a
    # letter that no operand has: a letter repeated in x_i (a diagonal) gets a
    # fresh letter for each repeat tied to it by an identity matrix, and a
    # letter only x_i has (summed away) is broadcast by a vector of ones.
    xp = backend.get_array_module(gy.array)
    dtype = gy.dtype
    spare = list(plan.spare)
    subs = [plan.out] + [s for j, s in enumerate(plan.subs) if j != i]
    operands = [gy] + [x for j, x in enumerate(xs) if j != i]
    target = []
    seen = set()
    for c in plan.subs[i]:
        if c in seen:
            if not spare:
                raise ValueError('einsum ran out of letters for the gradient of a diagonal')
            f = spare.pop()
            subs.append(c + f)
            operands.append(xp.eye(plan.size[c], dtype=dtype))
            target.append(f)
        else:
            seen.add(c)
            target.append(c)
    present = set(''.join(subs))
    for c in seen - present:
        subs.append(c)
        operands.append(xp.ones(plan.size[c], dtype=dtype))
    return EinSum(subs, ''.join(target)).apply(operands)[0]


def einsum(*operands):
    """Einstein summation of the operands, as :func:`numpy.einsum`.

    Two calling formats are accepted:

    * ``einsum(subscripts, x0, x1, ...)`` with subscripts such as
      ``'ij,jk->ik'``;
    * ``einsum(x0, sublist0, x1, sublist1, ..., [sublist_out])`` where a
      sublist is a list of integers (and ``Ellipsis``).

    ``...`` stands for broadcast batch axes. Without an output part, the
    output holds the ``...`` axes followed by the letters that appear once,
    in alphabetical order; letters that appear more than once are summed.

    Args:
        operands: The subscripts and the operands (float Variables or
            N-dimensional arrays), in either format.

    Returns:
        ~chainer.Variable: The result.

    .. admonition:: Example

        >>> a = np.arange(6, dtype=np.float32).reshape(2, 3)
        >>> b = np.arange(12, dtype=np.float32).reshape(3, 4)
        >>> F.einsum('ij,jk->ik', a, b).shape
        (2, 4)
        >>> F.einsum('ii', np.eye(3, dtype=np.float32)).array
        array(3., dtype=float32)
        >>> F.einsum(a, [0, 1], b, [1, 2], [0, 2]).shape
        (2, 4)
    """
    in_subs, out, arrays = _parse_operands(operands)
    return EinSum(in_subs, out).apply(arrays)[0]
