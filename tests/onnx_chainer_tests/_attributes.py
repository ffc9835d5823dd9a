"""Recording the attributes of the FunctionNodes that the converter cases apply, shared by the
fixture script (run on Chainer 7.8.1) and the test (run on rechainer).

Only Chainer's public API is used, so the same code runs on both.
"""
import numpy as np

import chainer


def kind(value):
    """A short name of the kind of ``value``, comparable between NumPy versions."""
    if value is None:
        return 'None'
    if isinstance(value, (bool, np.bool_)):
        return 'bool'
    if isinstance(value, (int, np.integer)):
        return 'int'
    if isinstance(value, (float, np.floating)):
        return 'float'
    if isinstance(value, str):
        return 'str'
    if isinstance(value, tuple):
        return 'tuple'
    if isinstance(value, list):
        return 'list'
    if isinstance(value, chainer.get_array_types()):
        return 'ndarray'
    if isinstance(value, np.dtype) or (isinstance(value, type)
                                       and issubclass(value, np.generic)):
        return 'dtype'
    if isinstance(value, chainer.Variable):
        return 'Variable'
    if isinstance(value, chainer.backend.Device):
        return 'Device'
    return type(value).__name__


def _public(obj, skip):
    return {k: kind(v) for k, v in vars(obj).items() if not k.startswith('_') and k not in skip}


class _Recorder:
    """Wraps ``FunctionNode.apply`` to note each node's attributes when it starts."""

    def __init__(self):
        self.options = {}
        self._original = None

    def __enter__(self):
        original = self._original = chainer.FunctionNode.apply
        options = self.options

        def apply(node, inputs):
            options.setdefault(id(node), (node, dict(vars(node))))
            return original(node, inputs)
        chainer.FunctionNode.apply = apply
        return self

    def __exit__(self, *exc):
        chainer.FunctionNode.apply = self._original


def _base_attributes():
    # The attributes any FunctionNode has after apply (the graph's bookkeeping).
    class Plain(chainer.FunctionNode):
        def forward(self, inputs):
            return inputs[0] * 1,
    node = Plain()
    node.apply((np.ones(1, np.float32),))
    return set(vars(node))


def apply_case(case):
    """Runs ``case`` once; returns ``(outputs, [(node, attributes when apply started)])`` for
    every FunctionNode applied (the outputs keep the graph alive)."""
    model, args = case.build()
    with _Recorder() as recorder, chainer.using_config(
            'train', case.export.get('train', False)):
        y = model(*[chainer.Variable(a) for a in args])
    return y, list(recorder.options.values())


def record_cases(cases, reference):
    """``{case name: {FunctionNode name: {'options': [names], 'final': {attr: kind}}}}`` for
    the ``cases`` (those Chainer 7.8.1 runs when ``reference``): ``options`` are the public
    attributes the node has when ``apply`` starts (what its constructor set), ``final`` all
    public attributes after the forward pass with the kind of their value, without the ones
    every FunctionNode has."""
    base = _base_attributes()
    out = {}
    for case in cases:
        if reference and not case.reference:
            continue
        try:
            y, nodes = apply_case(case)
        except Exception as e:  # NOQA: recorded as what the case does there
            out[case.name] = {'error': type(e).__name__}
            continue
        classes = {}
        for node, at_start in nodes:
            entry = classes.setdefault(type(node).__name__, {'options': [], 'final': {}})
            entry['options'] = sorted(set(entry['options']) | {
                k for k in at_start if not k.startswith('_') and k not in base})
            entry['final'].update(_public(node, base))
        out[case.name] = classes
        del y
    return out
