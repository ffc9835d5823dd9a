"""Class-level test parameterization: ``parameterize``, ``product`` and friends.

``parameterize`` turns one test class into one subclass per parameter dict, registered
in the module of the decorated class (:mod:`chainer.testing._bundle` says how generated
classes are named, registered and stacked with other decorators).
"""
import functools
import itertools
import types
import unittest

from chainer.testing import _bundle

# Per-value and whole-list length limits for generated class names.
_VALUE_MAXLEN = 100
_PARAMS_MAXLEN = 5000


def _param_to_str(value):
    # Types, functions and modules read better by name than by repr
    # (``float32`` rather than ``<class 'numpy.float32'>``).
    name = getattr(value, '__name__', None)
    if isinstance(name, str):
        return name
    return repr(value)


def _shorten(text, maxlen):
    # Keeps both ends of an over-long string and replaces the middle with '...'.
    if len(text) <= maxlen:
        return text
    head = (maxlen - 3) // 2
    tail = maxlen - 3 - head
    return f'{text[:head]}...{text[len(text) - tail:]}'


def _make_class_name(base_name, index, param):
    items = ', '.join(
        f'{key}={_shorten(_param_to_str(value), _VALUE_MAXLEN)}'
        for key, value in sorted(param.items()))
    return f'{base_name}_param_{index}_{{{_shorten(items, _PARAMS_MAXLEN)}}}'


def _class_attributes(param):
    attrs = {}
    for key, value in param.items():
        # A plain function stored on a class would become a method and receive ``self``;
        # tests expect ``self.func(x)`` to call the function as given.
        if isinstance(value, types.FunctionType):
            value = staticmethod(value)
        attrs[key] = value
    return attrs


def _reporting_parameters(base_name, param):
    def wrap(name, method):
        @functools.wraps(method)
        def test(self, *args, **kwargs):
            try:
                return method(self, *args, **kwargs)
            except unittest.SkipTest:
                raise
            except Exception as e:
                values = ', '.join(f'{k}={v!r}' for k, v in sorted(param.items()))
                e.add_note(f'Parameterized test failed: {base_name}.{name} with {values}')
                raise
        return test

    return wrap


def _variants(params):
    def variants(base):
        for index, param in enumerate(params):
            yield (_make_class_name(base.__name__, index, param), _class_attributes(param),
                   _reporting_parameters(base.__name__, param))

    return variants


def parameterize(*params):
    """Generates one test class per parameter dict.

    Each generated class subclasses the decorated class, has every item of its dict set
    as a class attribute and is named
    ``<ClassName>_param_<index>_{<key>=<value>, ...}`` (keys sorted); a failure of one
    of its tests notes the parameters. The decorated class is kept but excluded from
    collection. Works for ``unittest.TestCase`` subclasses and plain pytest classes, and
    stacks with itself and with :func:`~chainer.testing.inject_backend_tests` in either
    order (the outer decorator expands each class the inner one generated).

    Args:
        params (dicts): Parameter sets, typically built with :func:`product`.

    Returns:
        A class decorator.
    """
    params = list(params)
    for param in params:
        if not isinstance(param, dict):
            raise TypeError(
                f'parameterize requires dicts of parameters, got {type(param).__name__}')
    return _bundle.make_decorator(_variants(params))


def from_pytest_parameterize(names, values):
    """Converts ``pytest.mark.parametrize``-style arguments to a list of dicts.

    Args:
        names (str or sequence of str): Comma-separated names (``'shape,dtype'``) or a
            sequence of names.
        values (sequence): One entry per case; a tuple of values when there are several
            names, the bare value when there is one.

    Returns:
        list of dicts.
    """
    if isinstance(names, str):
        names = [n.strip() for n in names.split(',') if n.strip()]
    names = list(names)
    if len(names) == 1:
        return [{names[0]: value} for value in values]
    params = []
    for value in values:
        if len(value) != len(names):
            raise ValueError(
                f'each value must have {len(names)} entries to match {names}, got {value!r}')
        params.append(dict(zip(names, value)))
    return params


def parameterize_pytest(names, values):
    """:func:`parameterize` with ``pytest.mark.parametrize``-style arguments.

    ``parameterize_pytest('a,b', [(1, 2), (3, 4)])`` is the same as
    ``parameterize({'a': 1, 'b': 2}, {'a': 3, 'b': 4})``.
    """
    return parameterize(*from_pytest_parameterize(names, values))


def product_dict(*parameters):
    """Cartesian product of lists of dicts, merging each combination into one dict.

    Args:
        parameters (lists of dicts): ``product_dict([{'a': 1}, {'a': 2}], [{'b': 3}])``
            gives ``[{'a': 1, 'b': 3}, {'a': 2, 'b': 3}]``. On a repeated key the later
            list wins.

    Returns:
        list of dicts.
    """
    result = []
    for combination in itertools.product(*parameters):
        merged = {}
        for d in combination:
            merged.update(d)
        result.append(merged)
    return result


def product(parameter):
    """Cartesian product of parameter values.

    Args:
        parameter (dict or list): Either a dict mapping each name to a list of values
            (``{'a': [1, 2], 'b': [3]}`` gives ``[{'a': 1, 'b': 3}, {'a': 2, 'b': 3}]``;
            names are taken in sorted order, the first varying slowest), or a list of lists
            of dicts, combined as by :func:`product_dict`. A key may name several
            parameters that vary together: ``{'shape,axis': [((2, 3), 0), ((4,), 0)]}``.

    Returns:
        list of dicts.
    """
    if isinstance(parameter, dict):
        return product_dict(*[from_pytest_parameterize(key, parameter[key])
                              for key in sorted(parameter)])
    if isinstance(parameter, (list, tuple)):
        return product_dict(*parameter)
    raise TypeError(
        f'product requires a dict of lists or a list of lists of dicts, '
        f'got {type(parameter).__name__}')


# Chainer's own test-suite configuration checks that product_dict is still the function
# defined here (it may be wrapped there); the name is part of the module's surface.
_product_dict_orig = product_dict
