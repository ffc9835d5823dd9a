"""Rewrites of converter output for opsets where an ONNX operator changed only its form.

Converters write the form of the opsets they declare (``opset_version.support``). When a later
opset moves an attribute into an input (``axes`` of Squeeze, Unsqueeze, ReduceSum and Split at
13, for example) without changing what the operator computes, the rewrite lives here, once for
every converter that emits the operator, instead of a new variant in each converter: an entry
``UPGRADES[op_type] = [(since_opset, rewrite), ...]`` with ``rewrite(node, context)`` returning
the nodes that replace ``node`` (it may add constants with ``context.add_const``).
Operators whose meaning changed (Softmax's axis at 13, for example) get a converter variant.
"""

UPGRADES = {}


def apply(nodes, context, opset_version):
    """Rewrites the nodes of one converter for ``opset_version``; returns the new list."""
    if not UPGRADES:
        return nodes
    out = []
    for node in nodes:
        rewrite = None
        for since, fn in UPGRADES.get(node.op_type, ()):
            if since <= opset_version:
                rewrite = fn
        if rewrite is None:
            out.append(node)
        else:
            before = len(context.constants)
            replaced = list(rewrite(node, context))
            out.extend(context.constants[before:])
            del context.constants[before:]
            out.extend(replaced)
    return out


def _attribute(node, name):
    for attr in node.attribute:
        if attr.name == name:
            return attr
    return None


def _without(node, names, inputs):
    # A copy of ``node`` with ``inputs`` and without the attributes ``names``.
    from onnx_chainer.functions._common import onnx
    attrs = {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute
             if a.name not in names}
    return onnx.helper.make_node(node.op_type, list(inputs), list(node.output), name=node.name,
                                 domain=node.domain or None, **attrs)


def _attribute_to_input(attr_name, position, dtype):
    """A rewrite that moves the list attribute ``attr_name`` into input ``position`` (a
    constant); a node without it keeps its inputs (the operator's default applies)."""
    def rewrite(node, context):
        import numpy
        attr = _attribute(node, attr_name)
        if attr is None:
            return node,
        from onnx_chainer.functions._common import onnx
        value = numpy.array(onnx.helper.get_attribute_value(attr), dtype=dtype)
        inputs = list(node.input)
        while len(inputs) < position:
            inputs.append('')
        inputs.insert(position, context.add_const(value, attr_name))
        return _without(node, (attr_name,), inputs),
    return rewrite


def _register():
    import numpy
    # Opset 13: the axes of Squeeze, Unsqueeze and ReduceSum, and the sizes of Split, became
    # inputs.
    for op, attr in (('Squeeze', 'axes'), ('Unsqueeze', 'axes'), ('ReduceSum', 'axes'),
                     ('Split', 'split')):
        UPGRADES[op] = [(13, _attribute_to_input(attr, 1, numpy.int64))]

    # Opset 12: Dropout's ratio became an input (a scalar); without ``training_mode`` it is
    # the identity at inference, as before.
    def dropout_ratio(node, context):
        attr = _attribute(node, 'ratio')
        if attr is None:
            return node,
        ratio = context.add_const(numpy.array(attr.f, numpy.float32), 'ratio')
        return _without(node, ('ratio',), [node.input[0], ratio]),
    UPGRADES['Dropout'] = [(12, dropout_ratio)]


_register()
