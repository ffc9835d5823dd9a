"""Numerical gradients and the checks that compare them with backprop.

:func:`check_backward` compares the backprop gradient of a function with a
central finite difference along one random unit direction in the space of all
checked inputs and parameters: one pair of extra forward evaluations, whatever
the number of elements. :func:`check_double_backward` runs the same check on
the first-order gradient function. :func:`numerical_grad` is the finite
difference itself (one pair of evaluations per element).
"""
import numpy

import chainer
from chainer import backend
from chainer import variable as _variable
from chainer.functions.math import identity as _identity


def __getattr__(name):
    # ``assert_allclose`` lives in chainer.testing, whose package imports pytest: load it
    # only when asked for, so that importing this module stays cheap.
    if name == 'assert_allclose':
        from chainer.testing.array import assert_allclose
        globals()[name] = assert_allclose
        return assert_allclose
    raise AttributeError(f'module {__name__!r} has no attribute {name!r}')


class NondifferentiableError(Exception):
    """Raised when a function is found to be non-differentiable at the point evaluated."""


# --------------------------------------------------------------------------------------
# small helpers
# --------------------------------------------------------------------------------------
def _as_tuple(x):
    if isinstance(x, tuple):
        return x
    if isinstance(x, list):
        return tuple(x)
    return (x,)


def _as_array(x):
    return x.array if isinstance(x, _variable.Variable) else x


def _is_float(x):
    return x.dtype.kind == 'f'


def _to_numpy(a):
    return a if isinstance(a, numpy.ndarray) else backend.CpuDevice().send(a)


def _describe(a, values=True):
    """One line (or a few) saying what an array is: dtype, shape and small values."""
    if a is None:
        return 'None'
    a = _to_numpy(_as_array(a))
    text = f'{a.dtype} {a.shape}'
    if values:
        body = numpy.array2string(a, threshold=24, edgeitems=3, precision=6,
                                  max_line_width=92)
        if '\n' in body:
            text += ' =\n      ' + body.replace('\n', '\n      ')
        else:
            text += f' = {body}'
    return text


def _outputs_to_arrays(ys):
    arrays = []
    for y in _as_tuple(ys):
        a = _as_array(y)
        if a is not None and not hasattr(a, 'dtype'):
            a = numpy.asarray(a)
        arrays.append(a)
    return arrays


# --------------------------------------------------------------------------------------
# numerical_grad
# --------------------------------------------------------------------------------------
# Offsets (in steps) evaluated when looking for kinks: the check judges [x - eps, x + eps],
# the interval that the central difference itself spans.
_DETECT_OFFSETS = (-1, -0.5, 0.5, 1)


def _check_differentiable(column_of_outputs, steps, dtypes, diff_atol, diff_rtol, where):
    """Raises NondifferentiableError if an output is not smooth over ``[x - eps, x + eps]``.

    ``column_of_outputs[j]`` is the list of float64 outputs at the realized offset
    ``steps[j]`` (the center and the offsets of ``_DETECT_OFFSETS``). Between
    neighbouring points the outputs give secant slopes; on a smooth function these
    change linearly with the position (up to O(eps^2)), while a kink or a jump anywhere
    in the interval breaks that line. So a line is fitted to the slopes, and an output
    element whose slopes miss it by more than ``diff_atol + diff_rtol * (its largest
    slope)`` plus a floor for rounding errors (from the output's dtype) is not
    differentiable there. So is an element that is finite at some points and not at
    others; one that is nowhere finite is left alone (nothing to judge).
    """
    order = sorted(range(len(steps)), key=lambda j: steps[j])
    # Coinciding points (a step below the input's resolution) carry no slope.
    pts = [order[0]]
    for j in order[1:]:
        if steps[j] != steps[pts[-1]]:
            pts.append(j)
    if len(pts) < 3 or not all(numpy.isfinite(steps)):
        return      # too few distinct points, or a non-finite input: nothing to judge
    h = max(abs(v) for v in steps)
    mids = [(steps[a] + steps[b]) / 2 / h for a, b in zip(pts[:-1], pts[1:])]
    widths = [steps[b] - steps[a] for a, b in zip(pts[:-1], pts[1:])]
    c_mean = sum(mids) / len(mids)
    c_var = sum((c - c_mean) ** 2 for c in mids)
    for k, ys in enumerate(zip(*column_of_outputs)):
        if ys[0] is None:
            continue
        xp = backend.get_array_module(ys[0])
        with numpy.errstate(all='ignore'):
            finite = [xp.isfinite(y) for y in ys]
            all_finite = finite[0].copy()
            any_finite = finite[0].copy()
            for f in finite[1:]:
                all_finite &= f
                any_finite |= f
            slopes = [(ys[b] - ys[a]) / w for a, b, w in zip(pts[:-1], pts[1:], widths)]
            s_mean = sum(slopes) / len(slopes)
            if len(slopes) > 2:
                tilt = sum((c - c_mean) * s for c, s in zip(mids, slopes)) / c_var
            else:
                tilt = 0    # two slopes: they should simply agree
            miss = 0
            steepest = 0
            size = 0
            for c, s in zip(mids, slopes):
                miss = xp.maximum(miss, xp.abs(s - s_mean - tilt * (c - c_mean)))
                steepest = xp.maximum(steepest, xp.abs(s))
            for y in ys:
                size = xp.maximum(size, xp.abs(y))
            # A rounding error of one unit in the last place of the outputs moves a
            # slope by ulp / (eps / 2); allow several.
            ulp = xp.spacing(xp.asarray(size).astype(dtypes[k])).astype(numpy.float64)
            rounding = 16 * ulp / h
            tol = diff_atol + diff_rtol * steepest + rounding
            bad = (any_finite & ~all_finite) | (all_finite & (miss > tol))
        if bool(bad.any()):
            i = int(xp.argmax(bad.ravel()))
            idx = tuple(int(j) for j in numpy.unravel_index(i, bad.shape))
            values = [float(ys[j].ravel()[i]) for j in order]
            at = [float(steps[j]) for j in order]
            if not bool(all_finite.ravel()[i]):
                why = 'is finite at some of these points and not at others'
            else:
                why = (f'has secant slopes that leave a straight line by '
                       f'{float(miss.ravel()[i]):.3g} > diff_atol + diff_rtol * |slope| + '
                       f'rounding = {diff_atol} + {diff_rtol} * '
                       f'{float(steepest.ravel()[i]):.3g} + {float(rounding.ravel()[i]):.3g}')
            raise NondifferentiableError(
                f'the function is not differentiable {where}: output #{k} element {idx} '
                f'{why} (a kink, a jump or a singularity within eps of the point). '
                f'Outputs at offsets {at}: {values}')


def numerical_grad(f, inputs, grad_outputs, eps=1e-3, detect_nondifferentiable=False,
                   diff_atol=0, diff_rtol=1e-2, center_outputs=None):
    """Computes the gradient of ``f`` numerically by central differences.

    Each element of each input is moved by ``+eps`` and ``-eps`` in place (in the
    input's own dtype), ``f`` is evaluated, and the change of the outputs,
    contracted with ``grad_outputs``, is accumulated in float64. The step used is the
    one actually realized after rounding to the input dtype. Inputs are restored
    afterwards. Works with NumPy and CuPy arrays (not mixed).

    Args:
        f (callable): Function without arguments that reads ``inputs`` and returns the
            outputs (an array or Variable, or a tuple of them).
        inputs (tuple of arrays): Arrays to differentiate with respect to; modified in
            place during the computation.
        grad_outputs (tuple of arrays or scalars): Gradients of the outputs (``None``
            entries skip an output).
        eps (float or tuple of float): Finite-difference step (one per input when a
            tuple).
        detect_nondifferentiable (bool): Also evaluate ``f`` half a step away on
            either side and raise :class:`NondifferentiableError` when some output
            element is not smooth over ``[x - eps, x + eps]``: its secant slopes
            between the five points do not lie on a straight line (a kink or a jump),
            or it is finite at some points and not at others.
        diff_atol (float): Absolute tolerance of the slopes' distance from that line.
        diff_rtol (float): Tolerance of that distance relative to the largest slope of
            the output element. A floor for rounding errors (from the outputs' dtype)
            is always added.
        center_outputs (tuple of arrays): Outputs of ``f`` at ``inputs``, if already
            known (used only for the non-differentiability check).

    Returns:
        tuple: Numerical gradient arrays, one per input, in the inputs' dtypes.
    """
    inputs = tuple(inputs)
    grad_outputs = tuple(grad_outputs)
    if numpy.isscalar(eps):
        eps = (eps,) * len(inputs)
    eps = tuple(eps)
    if len(eps) != len(inputs):
        raise ValueError(f'numerical_grad: eps has {len(eps)} entries for {len(inputs)} inputs')
    if any(not e > 0 for e in eps):
        # (AssertionError, as Chainer raises)
        raise AssertionError(f'numerical_grad requires eps > 0, got {eps}')
    arrays = [a for a in inputs + grad_outputs if _variable._is_array(a)]
    kinds = {type(a).__module__.split('.')[0] for a in arrays}
    if len(kinds) > 1:
        raise RuntimeError('numerical_grad: do not mix CPU and GPU arrays in inputs and '
                           f'grad_outputs (got {sorted(kinds)})')
    xp = backend.get_array_module(*arrays) if arrays else numpy
    # Output gradients may also be scalars (Python or NumPy), as in Chainer.
    gys = [None if g is None else g.astype(numpy.float64) if _variable._is_array(g)
           else float(g) for g in grad_outputs]

    out_dtypes = [numpy.float64] * len(gys)   # for the rounding floor of the detection

    def evaluate():
        ys = _outputs_to_arrays(f())
        if len(ys) != len(gys):
            raise ValueError(f'numerical_grad: f returned {len(ys)} outputs but '
                             f'{len(gys)} grad_outputs were given')
        for k, y in enumerate(ys):
            if y is not None and y.dtype.kind == 'f':
                out_dtypes[k] = y.dtype
        # Copies in float64: an output may alias an input that is about to move.
        return [None if g is None or y is None else y.astype(numpy.float64)
                for y, g in zip(ys, gys)]

    if detect_nondifferentiable:
        if center_outputs is None:
            center = evaluate()
        else:
            center = [None if g is None or y is None else _as_array(y).astype(numpy.float64)
                      for y, g in zip(_as_tuple(center_outputs), gys)]
            for k, y in enumerate(_as_tuple(center_outputs)):
                if y is not None and _as_array(y).dtype.kind == 'f':
                    out_dtypes[k] = _as_array(y).dtype
        offsets = _DETECT_OFFSETS
    else:
        offsets = (-1, 1)

    grads = []
    for x, h in zip(inputs, eps):
        g = xp.zeros(x.shape, numpy.float64)
        grads.append(g)
        if not _is_float(x):
            continue
        for idx in numpy.ndindex(x.shape):
            orig = x[idx].copy()
            orig64 = float(orig)
            ys, steps = {}, {}
            try:
                for k in offsets:
                    x[idx] = orig64 + k * h
                    steps[k] = float(x[idx]) - orig64
                    ys[k] = evaluate()
            finally:
                x[idx] = orig
            width = steps[1] - steps[-1]
            if width == 0:
                raise ValueError(
                    f'numerical_grad: eps={h} is too small to move an element of value '
                    f'{orig64} in {x.dtype}; use a larger eps or a wider dtype')
            if detect_nondifferentiable:
                _check_differentiable(
                    [center] + [ys[k] for k in offsets], [0.0] + [steps[k] for k in offsets],
                    out_dtypes, diff_atol, diff_rtol,
                    f'at input element {idx}' if x.ndim else 'at the given point')
            total = 0
            for gy, yp, ym in zip(gys, ys[1], ys[-1]):
                if gy is not None and yp is not None:
                    total = total + (gy * (yp - ym)).sum()
            g[idx] = total / width
    return tuple(g.astype(x.dtype, copy=False) if _is_float(x) else g
                 for g, x in zip(grads, inputs))


# --------------------------------------------------------------------------------------
# check_backward
# --------------------------------------------------------------------------------------
class _CheckBackward:
    """One run of :func:`check_backward` (kept as an object for the failure report)."""

    def __init__(self, func, x_data, y_grad, params, eps, atol, rtol, no_grads, dtype,
                 detect_nondifferentiable):
        self.func = func
        self.xs = tuple(_as_array(x) for x in _as_tuple(x_data))
        for i, x in enumerate(self.xs):
            if not _variable._is_array(x):
                raise TypeError(f'check_backward: x_data[{i}] must be an array or a '
                                f'Variable, got {type(x).__name__}')
        self.y_grad = None if y_grad is None else tuple(_as_array(g)
                                                        for g in _as_tuple(y_grad))
        self.params = _as_tuple(params)
        for i, p in enumerate(self.params):
            if not isinstance(p, _variable.Variable):
                raise TypeError(f'check_backward: params[{i}] must be a Variable or a '
                                f'Parameter, got {type(p).__name__}')
        if no_grads is None:
            no_grads = [not _is_float(x) for x in self.xs]
        else:
            no_grads = list(no_grads)
            if len(no_grads) != len(self.xs):
                raise ValueError(f'check_backward: no_grads has {len(no_grads)} entries '
                                 f'for {len(self.xs)} inputs')
            for i, (skip, x) in enumerate(zip(no_grads, self.xs)):
                if not skip and not _is_float(x):
                    raise ValueError(f'check_backward: input #{i} has dtype {x.dtype}; only '
                                     f'float inputs can be checked (set no_grads[{i}]=True)')
        self.no_grads = no_grads
        if dtype is not None:
            dtype = numpy.dtype(dtype)
            if dtype.kind != 'f':
                raise ValueError(f'check_backward: dtype must be a float dtype or None, '
                                 f'got {dtype}')
        self.dtype = dtype
        self.eps, self.atol, self.rtol = eps, atol, rtol
        self.detect = detect_nondifferentiable
        self.xp = backend.get_array_module(*self.xs, *[p.array for p in self.params])

    # ---- backprop side -----------------------------------------------------------
    def _select_outputs(self, outputs):
        ys = [y if isinstance(y, _variable.Variable) else chainer.Variable(y) for y in outputs]
        if self.y_grad is None:
            for k, y in enumerate(ys):
                if y.size != 1:
                    raise ValueError(
                        f'check_backward: y_grad is None, which only works for functions '
                        f'with one-element outputs, but output #{k} has shape {y.shape}; '
                        f'pass y_grad')
            return list(range(len(ys))), ys, [None] * len(ys)
        if len(self.y_grad) != len(ys):
            raise ValueError(f'check_backward: func returned {len(ys)} outputs but y_grad has '
                             f'{len(self.y_grad)} entries')
        keep = []
        for k, (y, g) in enumerate(zip(ys, self.y_grad)):
            if g is None:
                continue
            if g.shape != y.shape:
                raise ValueError(f'check_backward: y_grad[{k}] has shape {g.shape} but output '
                                 f'#{k} has shape {y.shape}')
            if g.dtype != y.dtype:
                raise TypeError(f'check_backward: y_grad[{k}] has dtype {g.dtype} but output '
                                f'#{k} has dtype {y.dtype}')
            keep.append(k)
        return keep, [ys[k] for k in keep], [self.y_grad[k] for k in keep]

    def backprop(self):
        xvars = [chainer.Variable(x) for x in self.xs]
        # The identity gives func fresh variables that have a creator, so outputs that
        # are inputs unchanged (or several uses of one input) still backprop to xvars.
        inner = _identity.Identity().apply(xvars) if xvars else ()
        outputs = _as_tuple(self.func(*inner))
        self.center = outputs
        self.keep, ys, gys = self._select_outputs(outputs)
        targets = xvars + list(self.params)
        if ys and targets:
            # backward gets copies: a backward that writes into the output gradients it is
            # given must not change the ones the numerical gradient is checked against
            given = None if self.y_grad is None else [
                None if g is None else g.copy() for g in gys]
            grads = chainer.grad(ys, targets, given)
        else:
            grads = [None] * len(targets)
        self.gys = [self.xp.ones_like(y.array) if g is None else g for y, g in zip(ys, gys)]
        gxs, gps = grads[:len(xvars)], grads[len(xvars):]
        for i, (skip, gx) in enumerate(zip(self.no_grads, gxs)):
            if skip and gx is not None:
                what = 'an integer input' if not _is_float(self.xs[i]) else 'marked no_grads'
                raise RuntimeError(
                    f'check_backward: input #{i} ({what}, {self.xs[i].dtype}) must not '
                    f'receive a gradient, but backprop gave it one of dtype {gx.dtype}')
        self.grads = [(i, None if g is None else g.array)
                      for i, g in enumerate(gxs) if not self.no_grads[i]]
        self.grads += [(('p', j), None if g is None else g.array) for j, g in enumerate(gps)]

    # ---- numerical side ----------------------------------------------------------
    @staticmethod
    def _sample_unit_vector(size, xp):
        """Returns a random unit vector of ``size`` elements (float64, on ``xp``'s current
        device) none of which is below ``0.1 / sqrt(size)`` in magnitude.

        It takes one normal draw of ``size`` elements, as Chainer 7.8.1 does, so that a
        seeded test leaves the global generator where Chainer would; the magnitudes are
        then mapped into [0.1, 1] (signs kept), which keeps every element in play: the
        directional derivative depends on each element of each gradient.
        """
        if size == 0:
            return xp.zeros((0,), numpy.float64)
        g = xp.random.normal(size=size)
        v = xp.copysign(0.1 + 0.9 * xp.tanh(xp.abs(g)), g)
        return v / xp.sqrt((v * v).sum())

    def _directions(self):
        shapes = [self._base(key).shape for key, _ in self.grads]
        sizes = [int(numpy.prod(s)) for s in shapes]
        total = sum(sizes)
        if total == 0:
            return None
        if self.xp is numpy:
            v = self._sample_unit_vector(total, numpy)
        else:
            device = backend.get_device_from_array(
                *[self._base(key) for key, _ in self.grads])
            with chainer.using_device(device):
                v = self._sample_unit_vector(total, device.xp)
        dirs = []
        start = 0
        for shape, n in zip(shapes, sizes):
            dirs.append(v[start:start + n].reshape(shape))
            start += n
        return dirs

    def _base(self, key):
        return self.params[key[1]].array if isinstance(key, tuple) else self.xs[key]

    def _numeric_dtype(self, a):
        return self.dtype if self.dtype is not None and _is_float(a) else a.dtype

    def numeric(self, dirs, only=None):
        """Directional derivative along ``dirs`` by central differences.

        With ``only``, just that input/param moves (for the per-input breakdown).
        """
        xp = self.xp
        delta = xp.zeros((), numpy.float64)
        moves = dict(zip([key for key, _ in self.grads], dirs))
        if only is not None:
            moves = {only: moves[only]}
        xs = [x.astype(self._numeric_dtype(x)) for x in self.xs]
        ps = [p.array.astype(self._numeric_dtype(p.array)) for p in self.params]

        def shifted(a, key):
            d = moves.get(key)
            if d is None:
                return a
            # asarray: NumPy turns 0-d results into scalars.
            return xp.asarray((a.astype(numpy.float64) + delta * d).astype(a.dtype))

        def f():
            saved = [p.array for p in self.params]
            try:
                for j, p in enumerate(self.params):
                    p.array = shifted(ps[j], ('p', j))
                # As in Chainer, type checks are off here: with ``dtype`` the inputs are
                # cast but the parameters of a link passed as ``func`` are not.
                with chainer.using_config('type_check', False):
                    outs = self.func(*[chainer.Variable(shifted(x, i))
                                       for i, x in enumerate(xs)])
            finally:
                for p, a in zip(self.params, saved):
                    p.array = a
            outs = _as_tuple(outs)
            return [outs[k] for k in self.keep]

        center = None
        if self.detect and self.dtype is None:
            center = [self.center[k] for k in self.keep]
        gx, = numerical_grad(f, (delta,), self.gys, eps=self.eps,
                             detect_nondifferentiable=self.detect and only is None,
                             center_outputs=center)
        return float(gx)

    def run(self):
        self.backprop()
        dirs = self._directions()
        if dirs is None:
            return      # nothing with elements to check
        backprop = 0.0
        for (key, g), d in zip(self.grads, dirs):
            if g is not None:
                backprop += float((g.astype(numpy.float64) * d).sum())
        try:
            numeric = self.numeric(dirs)
        except NondifferentiableError as e:
            raise NondifferentiableError(f'{e}\n{self._context()}') from None
        if not abs(numeric - backprop) <= self.atol + self.rtol * abs(backprop):
            raise AssertionError(self._report(dirs, numeric, backprop))

    # ---- failure report ------------------------------------------------------------
    def _name(self, key):
        if isinstance(key, tuple):
            p = self.params[key[1]]
            return f'param #{key[1]}' + (f' {p.name!r}' if p.name else '')
        return f'input #{key}'

    def _context(self):
        lines = ['inputs:']
        for i, x in enumerate(self.xs):
            note = ' (not checked)' if self.no_grads[i] else ''
            lines.append(f'  #{i}{note}: {_describe(x)}')
        for j, p in enumerate(self.params):
            lines.append(f'  {self._name(("p", j))}: {_describe(p.array)}')
        lines.append('grad_outputs:')
        if self.y_grad is None:
            lines.append('  None (ones for one-element outputs)')
        else:
            for k, g in enumerate(self.y_grad):
                lines.append(f'  #{k}: {_describe(g)}')
        return '\n'.join(lines)

    def _report(self, dirs, numeric, backprop):
        tol = self.atol + self.rtol * abs(backprop)
        ndt = 'the inputs\' own dtypes' if self.dtype is None else str(self.dtype)
        lines = [
            'check_backward failed: backprop disagrees with the numerical gradient.',
            'Directional derivative along a random unit direction over all checked inputs:',
            f'  numerical (central difference, eps={self.eps}, in {ndt}): {numeric!r}',
            f'  backprop:  {backprop!r}',
            (f'  |difference| = {abs(numeric - backprop):.6g} > atol + rtol * |backprop| = '
             f'{self.atol} + {self.rtol} * {abs(backprop):.6g} = {tol:.6g}'),
            'Each input alone (numerical vs backprop directional derivative):',
        ]
        for (key, g), d in zip(self.grads, dirs):
            a = self._base(key)
            bp = 0.0 if g is None else float((g.astype(numpy.float64) * d).sum())
            try:
                num = self.numeric(dirs, only=key)
            except Exception as e:   # the report must not hide the original failure
                num = f'<{type(e).__name__}: {e}>'
            bad = isinstance(num, float) and not abs(num - bp) <= tol
            flag = '   <-- mismatch' if bad else ''
            none = ' (backward returned None)' if g is None else ''
            lines.append(f'  {self._name(key)} ({a.dtype}, shape {a.shape}): numerical '
                         f'{num!r}, backprop {bp!r}{none}{flag}')
        for i, skip in enumerate(self.no_grads):
            if skip:
                lines.append(f'  input #{i} ({self.xs[i].dtype}, shape {self.xs[i].shape}): '
                             f'not checked')
        if not chainer.config.enable_backprop:
            lines.append('Note: chainer.config.enable_backprop is False here, so func built no '
                         'graph and backprop could not reach the inputs.')
        lines.append(self._context())
        return '\n'.join(lines)


def check_backward(func, x_data, y_grad, params=(), eps=1e-3, atol=1e-5, rtol=1e-4,
                   no_grads=None, dtype=None, detect_nondifferentiable=False):
    """Checks the backward computation of ``func`` against numerical differentiation.

    ``func`` is applied to Variables made from ``x_data`` and backprop runs from its
    outputs with ``y_grad``. The gradients of the inputs and of ``params`` are
    contracted with one random unit direction ``r`` over all of them, and the result
    is compared with the numerical derivative of ``delta -> <y_grad, func(x + delta
    r)>`` at 0 (a central difference), so that the check costs two more forward
    evaluations however many elements there are. Integer inputs, and inputs whose
    ``no_grads`` entry is true, are not perturbed and must receive no gradient.

    The forward and backward passes run under the caller's ``chainer.config``.

    Args:
        func (callable): Takes Variables (one per input) and returns a Variable or a
            tuple of Variables.
        x_data (array, Variable or tuple of them): Inputs.
        y_grad (array or tuple of arrays or None): Gradients of the outputs; ``None``
            entries leave an output out of the check. ``None`` as a whole is allowed
            for functions with one-element outputs (1 is used).
        params (Variable or tuple of Variables): Parameters that ``func`` uses
            (e.g. a link's); their gradients are checked too.
        eps (float): Finite-difference step along the direction.
        atol (float): Allowed absolute difference of the two directional derivatives.
        rtol (float): Tolerance relative to the backprop directional derivative.
        no_grads (list of bool): Inputs to leave out of the check (by default the
            integer ones); they must get no gradient.
        dtype (dtype): Float dtype that the float inputs and params are cast to for the
            numerical part (e.g. ``numpy.float64`` to check float16 functions);
            ``None`` keeps their dtypes.
        detect_nondifferentiable (bool): Raise :class:`NondifferentiableError` when
            ``func`` turns out not to be differentiable at ``x_data``.

    Raises:
        AssertionError: The gradients disagree; the message lists the inputs, the
            output gradients, both directional derivatives (also input by input) and
            the tolerances.

    .. admonition:: Example

        >>> def f(x, y):
        ...     return x * y,
        >>> x = np.random.uniform(-1, 1, (3,))
        >>> y = np.random.uniform(-1, 1, (3,))
        >>> gradient_check.check_backward(f, (x, y), np.ones(3))
    """
    _CheckBackward(func, x_data, y_grad, params, eps, atol, rtol, no_grads, dtype,
                      detect_nondifferentiable).run()


def _select_grad_grads(x_grad_grad, n_inputs, checked):
    ggs = _as_tuple(x_grad_grad)
    if len(ggs) == n_inputs:
        return [_as_array(ggs[i]) for i in checked]
    if len(ggs) == len(checked):
        return [_as_array(g) for g in ggs]
    raise ValueError(f'check_double_backward: x_grad_grad has {len(ggs)} entries; expected '
                     f'one per input ({n_inputs}) or one per checked input ({len(checked)})')


def check_double_backward(func, x_data, y_grad, x_grad_grad, params=(), params_grad_grad=(),
                          eps=1e-3, atol=1e-4, rtol=1e-3, no_grads=None, dtype=None,
                          detect_nondifferentiable=False):
    """Checks the second-order gradients of ``func``.

    The first-order gradients of ``func`` (with respect to the checked inputs and
    ``params``, for output gradients ``y_grad``) are built with
    :func:`chainer.grad` and ``enable_double_backprop=True``; that gradient function,
    of the inputs and of ``y_grad``, is then checked by :func:`check_backward` with
    ``x_grad_grad`` and ``params_grad_grad`` as its output gradients. The first-order
    gradients themselves are assumed correct (test them with :func:`check_backward`).

    Args:
        func, x_data, y_grad, params, eps, atol, rtol, no_grads, dtype,
            detect_nondifferentiable: As in :func:`check_backward`.
        x_grad_grad (array or tuple of arrays): Gradients of the first-order input
            gradients: one per input (entries of unchecked inputs are ignored) or one
            per checked input.
        params_grad_grad (array or tuple of arrays): Gradients of the first-order
            parameter gradients, one per parameter.
    """
    xs = tuple(_as_array(x) for x in _as_tuple(x_data))
    n = len(xs)
    if no_grads is None:
        no_grads = [not _is_float(x) for x in xs]
    no_grads = list(no_grads)
    if len(no_grads) != n:
        raise ValueError(f'check_double_backward: no_grads has {len(no_grads)} entries for '
                         f'{n} inputs')
    checked = [i for i in range(n) if not no_grads[i]]
    params = _as_tuple(params)
    params_grad_grad = tuple(_as_array(g) for g in _as_tuple(params_grad_grad))
    if len(params_grad_grad) != len(params):
        raise ValueError(f'check_double_backward: params_grad_grad has '
                         f'{len(params_grad_grad)} entries for {len(params)} params')
    if x_grad_grad is None:
        raise ValueError('check_double_backward: x_grad_grad is required')
    ggxs = _select_grad_grads(x_grad_grad, n, checked)
    if y_grad is None:
        gys, gy_index = (), None
    else:
        all_gys = tuple(_as_array(g) for g in _as_tuple(y_grad))
        gy_index = [k for k, g in enumerate(all_gys) if g is not None]
        n_outputs = len(all_gys)
        gys = tuple(all_gys[k] for k in gy_index)

    def first_order(*args):
        xvars, gyvars = args[:n], args[n:]
        # Unchecked inputs enter as constants: their second-order gradient is not checked.
        xin = [x if not no_grads[i] else chainer.Variable(x.array, requires_grad=False)
               for i, x in enumerate(xvars)]
        ys = _as_tuple(func(*xin))
        if gy_index is None:
            outs, gouts = list(ys), None
        else:
            if len(ys) != n_outputs:
                raise ValueError(f'check_double_backward: func returned {len(ys)} outputs '
                                 f'but y_grad has {n_outputs} entries')
            outs, gouts = [ys[k] for k in gy_index], list(gyvars)
        targets = [xin[i] for i in checked] + list(params)
        grads = chainer.grad(outs, targets, gouts, enable_double_backprop=True)
        # A missing first-order gradient is zero; keep one output per target.
        return tuple(
            chainer.Variable(t.xp.zeros(t.shape, t.dtype)) if g is None else g
            for g, t in zip(grads, targets))

    check_backward(first_order, xs + gys, tuple(ggxs) + params_grad_grad, params=params,
                   eps=eps, atol=atol, rtol=rtol, no_grads=no_grads + [False] * len(gys),
                   dtype=dtype, detect_nondifferentiable=detect_nondifferentiable)
