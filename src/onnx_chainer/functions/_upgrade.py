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
