"""Class-level test parameterization: ``parameterize``, ``product`` and friends.

``parameterize`` turns one test class into one subclass per parameter dict. The
subclasses are registered in the module of the decorated class (that is where pytest
and unittest look for tests) and the decorated class itself is returned with
``__test__ = False`` so that it stays importable and decoratable but is never
collected on its own. Because the generated classes only *inherit* from it, any
decorator applied later to the returned class (``inject_backend_tests``,
``fix_random``, pytest marks, another ``parameterize``) reaches them too.
"""
import itertools
import sys
import types

# Per-value and whole-list length limits for generated class names.
_VALUE_MAXLEN = 100
_PARAMS_MAXLEN = 5000

# Name of the attribute (kept in the template class's own ``__dict__``) that lists the
# concrete classes generated from it so far.
_LEAVES_ATTR = '_chainer_parameterized_leaves'


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


def _module_namespace(cls):
    module = sys.modules.get(cls.__module__)
    if module is not None:
        return vars(module)
    # The class is being defined in a module that is not (yet) in sys.modules; the
    # decorator is then called from that module's top-level frame.
    frame = sys._getframe(1)
    while frame is not None and frame.f_globals.get('__name__') == __name__:
        frame = frame.f_back
    return frame.f_globals if frame is not None else {}


def _leaves(cls):
    return cls.__dict__.get(_LEAVES_ATTR, [cls])


def _expand(cls, params):
    namespace = _module_namespace(cls)
    new_leaves = []
    for leaf in _leaves(cls):
        for index, param in enumerate(params):
            name = _make_class_name(leaf.__name__, index, param)
            attrs = _class_attributes(param)
            attrs.update(__test__=True, __module__=leaf.__module__, __qualname__=name)
            attrs['_chainer_parameters'] = {**getattr(leaf, '_chainer_parameters', {}), **param}
            new_cls = type(name, (leaf,), attrs)
            namespace[name] = new_cls
            new_leaves.append(new_cls)
        if leaf is not cls:
            # An earlier parameterize registered this one; it is now an intermediate.
            leaf.__test__ = False
            if namespace.get(leaf.__name__) is leaf:
                del namespace[leaf.__name__]
    setattr(cls, _LEAVES_ATTR, new_leaves)
    cls.__test__ = False
    return cls


def parameterize(*params):
    """Generates one test class per parameter dict.

    Each generated class subclasses the decorated class, has every item of its dict set
    as a class attribute and is named
    ``<ClassName>_param_<index>_{<key>=<value>, ...}`` (keys sorted). The decorated class
    is kept but excluded from collection. Works for ``unittest.TestCase`` subclasses and
    plain pytest classes, and can be stacked with itself and with
    :func:`~chainer.testing.inject_backend_tests`.

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

    def decorator(cls):
        if not isinstance(cls, type):
            raise TypeError(f'parameterize decorates classes, got {cls!r}')
        return _expand(cls, params)

    return decorator


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
