"""Exporting a whole Python function as one node of the graph.

``fake_as_funcnode(f, 'Name')`` (and the decorator ``as_funcnode('Name')``) wraps ``f`` so that
a call records a single :class:`WrappedFunctionNode` whose ``custom_function_node_name`` is
``'Name'``: the exporter then looks up the converter ``'Name'`` (pass it in
``external_converters``) instead of converting the functions ``f`` is made of. The node
computes ``f`` in its forward pass and backpropagates through it.
"""
import inspect

import chainer
from chainer.utils import experimental


def _contains_variable(value):
    if isinstance(value, chainer.Variable):
        return True
    if isinstance(value, (list, tuple)):
        return any(_contains_variable(v) for v in value)
    if isinstance(value, dict):
        return any(_contains_variable(v) for v in value.values())
    return False


def _collect_variables(value, out):
    if isinstance(value, chainer.Variable):
        out.append(value)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _collect_variables(v, out)
    elif isinstance(value, dict):
        for v in value.values():
            _collect_variables(v, out)
    return out


def _replace_variables(value, it):
    # The same structure with each Variable replaced by the next item of ``it``.
    if isinstance(value, chainer.Variable):
        return next(it)
    if isinstance(value, (list, tuple)):
        return type(value)(_replace_variables(v, it) for v in value)
    if isinstance(value, dict):
        return {k: _replace_variables(v, it) for k, v in value.items()}
    return value


class WrappedFunctionNode(chainer.FunctionNode):
    """A Python function run as one FunctionNode.

    Args:
        name (str): Its ``custom_function_node_name`` (the converter's key).
        func: The function.
        args (tuple): Its positional arguments (Variables inside them are the inputs).
        kwargs (dict): Its keyword arguments.
        arg_vars (list of ~chainer.Variable): The Variables among the arguments, in order.
        attributes (dict): Set on the node as attributes, for the converter.
    """

    def __init__(self, name, func, args, kwargs, arg_vars, attributes=None):
        self.custom_function_node_name = name
        self.func = func
        self.args = args
        self.kwargs = kwargs
        self.arg_vars = arg_vars
        self.internal_results = None
        for k, v in (attributes or {}).items():
            setattr(self, k, v)

    def forward(self, xs):
        # Runs the function on fresh variables over the inputs, keeping its own graph for
        # backward.
        self.internal_inputs = [chainer.Variable(x) for x in xs]
        it = iter(self.internal_inputs)
        args = _replace_variables(tuple(self.args), it)
        kwargs = _replace_variables(dict(self.kwargs), it)
        with chainer.using_config('enable_backprop', True):
            results = self.func(*args, **kwargs)
        flat = []
        self.skeleton = self._flatten_return_value(results, flat)
        self.internal_results = [chainer.as_variable(r) for r in flat]
        return tuple(r.array for r in self.internal_results)

    def backward(self, target_input_indexes, grad_outputs):
        outs, grads = [], []
        for y, gy in zip(self.internal_results, grad_outputs):
            if gy is not None and y.creator_node is not None:
                outs.append(y)
                grads.append(gy)
        targets = [self.internal_inputs[i] for i in target_input_indexes]
        if not outs:
            return (None,) * len(targets)
        return tuple(chainer.grad(outs, targets, grad_outputs=grads,
                                  enable_double_backprop=True))

    def _flatten_return_value(self, value, out):
        # The structure of ``value`` with each array replaced by its index in ``out``.
        if isinstance(value, chainer.Variable) or isinstance(value, chainer.get_array_types()):
            out.append(value)
            return len(out) - 1
        if isinstance(value, (list, tuple)):
            return type(value)(self._flatten_return_value(v, out) for v in value)
        if isinstance(value, dict):
            return {k: self._flatten_return_value(v, out) for k, v in value.items()}
        raise ValueError(
            "returned values from the function wrapped by 'as_funcnode' must consist only "
            'array, function name: {}'.format(self.custom_function_node_name))

    def reconstruct_return_value(self, outputs):
        """Puts the output Variables back into the structure the function returned."""
        def build(skeleton):
            if isinstance(skeleton, int):
                return outputs[skeleton]
            if isinstance(skeleton, (list, tuple)):
                return type(skeleton)(build(s) for s in skeleton)
            return {k: build(v) for k, v in skeleton.items()}
        return build(self.skeleton)


def _attributes(func, args, kwargs, rename):
    # Positional arguments without Variables become attributes ``arg<i>``; keyword arguments
    # (and the defaults of the ones not given) attributes of their own names.
    attributes = {}
    for i, value in enumerate(args):
        if not _contains_variable(value):
            attributes[rename.get(i, 'arg{}'.format(i))] = value
    try:
        bound = inspect.signature(func).bind(*args, **kwargs)
    except (TypeError, ValueError):
        bound = None
    if bound is None:
        named = dict(kwargs)
    else:
        bound.apply_defaults()
        named = {}
        n_positional = len(args)
        for k, (name, param) in enumerate(bound.signature.parameters.items()):
            value = bound.arguments.get(name)
            if param.kind == param.VAR_KEYWORD:
                named.update(value or {})
            elif param.kind == param.VAR_POSITIONAL:
                continue
            elif k >= n_positional:
                named[name] = value
    for name, value in named.items():
        if not _contains_variable(value):
            attributes[rename.get(name, name)] = value
    return attributes


def fake_as_funcnode(alt_func, name, rename_attributes=None, experimental_warning=True):
    """Wraps ``alt_func`` so that each call records one node named ``name``.

    Args:
        alt_func: The function; at least one of its arguments must contain a Variable.
        name (str): ``custom_function_node_name`` of the node (the converter's key).
        rename_attributes (list of tuple): ``(position or keyword, attribute name)`` pairs
            renaming the attributes that non-Variable arguments become.
        experimental_warning (bool): Warn that this is experimental.

    Returns:
        The wrapped function.
    """
    if experimental_warning:
        experimental('as_funcnode')
    rename = dict(rename_attributes or ())

    def _wrapper(*args, **kwargs):
        inputs = _collect_variables([list(args), kwargs], [])
        if not inputs:
            raise ValueError(
                "arguments of the function wrapped by 'as_funcnode' must include at least one "
                'chainer.Variable, function name: {}'.format(name))
        attributes = _attributes(alt_func, args, kwargs, rename)
        node = WrappedFunctionNode(name, alt_func, args, kwargs, inputs, attributes)
        outputs = node.apply(inputs)
        return node.reconstruct_return_value(outputs)

    _wrapper.__wrapped__ = alt_func
    return _wrapper


def as_funcnode(name, rename_attributes=None):
    """Decorator form of :func:`fake_as_funcnode`."""
    experimental('as_funcnode')

    def wrapper(func):
        return fake_as_funcnode(func, name, rename_attributes, experimental_warning=False)
    return wrapper
