"""Helpers for writing converters: node naming, a small graph builder, tensor files.

A converter runs while the exporter has set the name of the function being converted
(:func:`set_func_name`); :func:`make_node` and :class:`GraphBuilder` name their nodes after it,
so that every ONNX node can be traced back to the Chainer function it came from.
"""
import os
import tempfile

from onnx_chainer import _onnx

onnx = _onnx.require()

_func_name = None


def set_func_name(func_name):
    """Sets the name of the function being converted (``'ReLU_0'``)."""
    global _func_name
    _func_name = func_name


def get_func_name():
    """Returns the name of the function being converted.

    Raises:
        RuntimeError: Outside a conversion (no name was set).
    """
    if _func_name is None:
        raise RuntimeError('get_func_name: no function is being converted (the exporter sets '
                           'the name with set_func_name before it calls a converter)')
    return _func_name


def make_node(*args, **kwargs):
    """``onnx.helper.make_node`` whose node is named after the function being converted.

    Args: as ``onnx.helper.make_node``; ``name`` defaults to :func:`get_func_name`.

    Returns:
        onnx.NodeProto: The node.
    """
    kwargs.setdefault('name', get_func_name())
    return onnx.helper.make_node(*args, **kwargs)


class GraphBuilder:
    """Builds the nodes of one converter, each with a name of its own.

    ``op`` adds a node whose outputs get temporary names (``<func>_tmp_<n>``); ``nodes``
    returns them all, with the last node writing to the converter's output names.

    .. admonition:: Example

       >>> gb = GraphBuilder()
       >>> h = gb.op('Mul', [x_name, x_name])
       >>> gb.op('Sqrt', [h])
       >>> return gb.nodes(output_names)
    """

    def __init__(self):
        self._nodes = []
        self._func_name = get_func_name()

    def node_name(self):
        """The name that the next node will get."""
        return '{}_tmp_{}'.format(self._func_name, len(self._nodes))

    def op(self, op_name, input_names, num_outputs=1, **kwargs):
        """Adds a node with temporary output names.

        Args:
            op_name (str): ONNX operator.
            input_names (list of str): Names of its inputs.
            num_outputs (int): Number of its outputs.
            **kwargs: Its attributes.

        Returns:
            str or tuple of str: The output name, or the names when ``num_outputs > 1``.
        """
        name = self.node_name()
        if num_outputs == 1:
            output_names = [name]
        else:
            output_names = ['{}_{}'.format(name, i) for i in range(num_outputs)]
        self._nodes.append(onnx.helper.make_node(
            op_name, list(input_names), output_names, name=name, **kwargs))
        return output_names[0] if num_outputs == 1 else tuple(output_names)

    def op_output_named(self, op_name, input_names, output_names, **kwargs):
        """Adds a node whose outputs have the given names.

        Returns:
            str or tuple of str: ``output_names`` (one name alone when there is one).
        """
        output_names = list(output_names)
        self._nodes.append(onnx.helper.make_node(
            op_name, list(input_names), output_names, name=self.node_name(), **kwargs))
        return output_names[0] if len(output_names) == 1 else tuple(output_names)

    def nodes(self, output_names=None):
        """Returns the nodes built so far.

        Args:
            output_names (list of str): When given, the outputs of the last node are renamed
                to these (the converter's output names).

        Returns:
            tuple of onnx.NodeProto: The nodes, in order.
        """
        if output_names is not None:
            if not self._nodes:
                raise ValueError('GraphBuilder.nodes: no node was added, so there is no last '
                                 'node to write the outputs {}'.format(list(output_names)))
            last = self._nodes[-1]
            if len(last.output) != len(output_names):
                raise ValueError(
                    'GraphBuilder.nodes: the last node ({}) has {} outputs, got {} output '
                    'names {}'.format(last.op_type, len(last.output), len(output_names),
                                      list(output_names)))
            del last.output[:]
            last.output.extend(output_names)
        return tuple(self._nodes)


def write_tensor_pb(filename, name, value):
    """Writes ``value`` as an ONNX ``TensorProto`` named ``name`` to ``filename`` (atomically).

    Args:
        filename (str): Path of the ``.pb`` file.
        name (str): Name of the tensor.
        value (numpy.ndarray): Its value.
    """
    import numpy
    tensor = onnx.numpy_helper.from_array(numpy.asarray(value), name)
    write_bytes(filename, tensor.SerializeToString())


def write_bytes(filename, data):
    """Writes ``data`` to ``filename`` through a temporary file in the same directory."""
    directory = os.path.dirname(os.path.abspath(filename))
    fd, tmp = tempfile.mkstemp(dir=directory, prefix='.' + os.path.basename(filename) + '.')
    try:
        with os.fdopen(fd, 'wb') as f:
            f.write(data)
        os.replace(tmp, filename)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise


def cleanse_param_name(name):
    """Turns a parameter path (``'/l1/W'``) into an ONNX name (``'param_l1_W'``)."""
    return 'param' + name.replace('/', '_')


def is_support_non_standard_domain():
    """Whether the installed onnx checks nodes of non-standard domains (it does since 1.5)."""
    return True
