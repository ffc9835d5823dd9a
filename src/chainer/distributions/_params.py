"""What every distribution does with its parameters: convert, broadcast, validate, sample."""
import numpy

import chainer
from chainer import backend
from chainer import configuration
from chainer import distribution
from chainer import variable


def _as_variable(dist, name, value, dtype):
    if isinstance(value, variable.Variable):
        return value
    if isinstance(value, (bool, int, float, numpy.number)):
        return variable.Variable(numpy.asarray(value, dtype=dtype), requires_grad=False)
    if isinstance(value, chainer.get_array_types()):
        return variable.Variable(value, requires_grad=False)
    raise TypeError(f'{dist}: {name} must be a Variable, an array or a number, '
                    f'got {type(value).__name__}')


def prepare(dist, params, event_ndims=None):
    """Turns the parameters of a distribution into Variables of one batch shape.

    Args:
        dist (str): The distribution's name, for error messages.
        params (dict): Parameter name -> Variable, array or number.
        event_ndims (dict): Parameter name -> number of trailing axes that are
            not batch axes (``alpha`` of a Dirichlet has one); 0 when absent.

    Returns:
        list: The parameters as Variables, in the order of ``params``, with
        their batch axes broadcast to the common batch shape.
    """
    event_ndims = event_ndims or {}
    dtype = next((v.dtype for v in params.values() if hasattr(v, 'dtype')), None)
    if dtype is None:
        dtype = chainer.get_dtype()
    values = {k: _as_variable(dist, k, v, dtype) for k, v in params.items()}
    batch_shapes = {}
    for name, v in values.items():
        nd = event_ndims.get(name, 0)
        if v.ndim < nd:
            raise ValueError(f'{dist}: {name} must have at least {nd} dimension(s), '
                             f'got shape {v.shape}')
        batch_shapes[name] = v.shape[:v.ndim - nd]
    try:
        batch = numpy.broadcast_shapes(*batch_shapes.values())
    except ValueError:
        shapes = ', '.join(f'{k}.shape={v.shape}' for k, v in values.items())
        raise ValueError(f'{dist}: the parameter shapes do not broadcast together: '
                         f'{shapes}') from None
    out = []
    for name, v in values.items():
        if batch_shapes[name] != batch:
            from chainer.functions import broadcast_to
            v = broadcast_to(v, batch + v.shape[len(batch_shapes[name]):])
        out.append(v)
    return out


def validate(dist, name, value, condition, expected):
    """Under ``config.debug``, raises ``ValueError`` if a parameter breaks its constraint.

    Args:
        dist (str): The distribution's name.
        name (str): The parameter's name.
        value (~chainer.Variable): The parameter.
        condition: A function of the parameter's array returning a boolean array
            (or a boolean) that holds where the value is valid.
        expected (str): The constraint in words (``'positive'``).
    """
    if not configuration.config.debug:
        return
    array = value.array
    ok = condition(array)
    xp = backend.get_array_module(array)
    if bool(xp.all(ok)):
        return
    bad = backend.CpuDevice().send(array[~ok] if getattr(ok, 'shape', ()) == array.shape
                                   else array)
    raise ValueError(f'{dist}: {name} must be {expected}, got {bad.ravel()[:5]}'
                     f'{" ..." if bad.size > 5 else ""}')


def positive(dist, **params):
    """Validates (under debug mode) that the given parameters are positive."""
    for name, value in params.items():
        validate(dist, name, value, lambda a: a > 0, 'positive')


def probability(dist, **params):
    """Validates (under debug mode) that the given parameters lie in [0, 1]."""
    for name, value in params.items():
        validate(dist, name, value, lambda a: (a >= 0) & (a <= 1), 'in [0, 1]')


def simplex(dist, name, value):
    """Validates (under debug mode) that ``value`` holds probability vectors on its last axis."""
    probability(dist, **{name: value})
    validate(dist, name, value,
             lambda a: abs(a.sum(axis=-1) - 1) < 1e-3,
             'a probability vector (its last axis must sum to 1)')


def sample_size(n, dist):
    """The shape of ``n`` draws of standard variates: ``(n,) + batch_shape``."""
    return (n,) + dist.batch_shape


def standard(xp, method, size, dtype, *args):
    """Draws standard variates with ``xp.random.<method>`` and casts them to ``dtype``."""
    return getattr(xp.random, method)(*args, size=size).astype(dtype, copy=False)


def parse_extra_kwargs(dist, kwargs, *names):
    """Takes the named optional parameters out of ``kwargs`` (``None`` when absent).

    Raises:
        TypeError: If ``kwargs`` holds other names.
    """
    values = tuple(kwargs.pop(n, None) for n in names)
    if kwargs:
        unexpected = ', '.join(repr(k) for k in sorted(kwargs))
        raise TypeError(f'{dist}() got unexpected keyword argument(s) {unexpected}')
    return values


def one_of(dist, first, second, first_names, second_names):
    """Checks that exactly one of two alternative parameterisations is given."""
    first_given = [v is not None for v in first]
    second_given = [v is not None for v in second]
    if all(first_given) and not any(second_given):
        return True
    if all(second_given) and not any(first_given):
        return False
    raise ValueError(f'{dist}: either `{first_names}` or `{second_names}` (not both) '
                     'must have a value.')


def replace(x, mask, value):
    """``x`` with the points where ``mask`` holds replaced by the number ``value``.

    Keeps functions of ``x`` finite (and free of NaN-check errors in debug mode)
    at points outside the support, whose results are then overwritten by :func:`fill`.
    """
    from chainer.functions import where
    array = as_array(x)
    if not isinstance(x, variable.Variable):
        x = array
    xp = backend.get_array_module(array)
    mask = xp.asarray(mask)
    if not bool(xp.any(mask)):
        return x
    return where(mask, xp.full(array.shape, value, array.dtype), x)


def fill(result, mask, value):
    """``result`` (a Variable) with the number ``value`` where ``mask`` holds."""
    from chainer.functions import where
    xp = backend.get_array_module(result.array)
    mask = xp.broadcast_to(mask, result.shape)
    if not bool(xp.any(mask)):
        return result
    return where(mask, xp.full(result.shape, value, result.dtype), result)


def constant(array):
    """A Variable holding ``array`` that needs no gradient."""
    return variable.Variable(array, requires_grad=False)


def as_input(x):
    """``x`` as a Variable (arithmetic on 0-d arrays would give NumPy scalars)."""
    if isinstance(x, variable.Variable):
        return x
    return variable.Variable(x, requires_grad=False)


def as_array(x):
    """The array of ``x`` (a Variable, an array or a number)."""
    if isinstance(x, variable.Variable):
        return x.array
    if isinstance(x, chainer.get_array_types()):
        return x
    return numpy.asarray(x)


class ScalarEvent(distribution.Distribution):
    """Shared part of the distributions over scalars whose parameters are plain attributes.

    Subclasses name their parameters in ``_param_names`` (the first one gives the
    batch shape) and describe their support in ``_support``.
    """

    _param_names = ()
    _support = None

    @property
    def batch_shape(self):
        return getattr(self, self._param_names[0]).shape

    @property
    def event_shape(self):
        return ()

    @property
    def params(self):
        return {name: getattr(self, name) for name in self._param_names}

    @property
    def support(self):
        if self._support is None:
            raise NotImplementedError
        return self._support


class LocScale(ScalarEvent):
    """Shared part of the real-valued location-scale families (Cauchy, Gumbel, Laplace)."""

    _name = None
    _param_names = ('loc', 'scale')
    _support = 'real'

    def __init__(self, loc, scale):
        self.loc, self.scale = prepare(self._name, {'loc': loc, 'scale': scale})
        positive(self._name, scale=self.scale)

    @property
    def mode(self):
        return self.loc

    def _z(self, x):
        return (x - self.loc) / self.scale
