"""The graph of one export: walks the functions a forward pass recorded and converts each."""
import heapq
import warnings

import numpy

from chainer import backend

from onnx_chainer import _dynamic
from onnx_chainer import _onnx
from onnx_chainer import onnx_helper
from onnx_chainer.functions import _common
from onnx_chainer.functions import _upgrade
from onnx_chainer.functions.converter import FunctionConverterParams

onnx = _onnx.require()


def function_name(func):
    """The name a converter is looked up by: ``custom_function_node_name`` or the class name
    (of the old-style Function, for a ``chainer.Function``)."""
    name = getattr(func, 'custom_function_node_name', None)
    if name:
        return name
    adapted = getattr(func, '_adapted_function', None)
    if adapted is not None:
        return type(adapted).__name__
    return type(func).__name__


def _unsupported(name, opset_version):
    return ValueError(
        '{} is not supported: ONNX-Chainer has no converter for the function {} (opset_version '
        '{}). Pass one with external_converters={{\'{}\': converter}}, where converter(params) '
        'returns the ONNX nodes of params.func (see onnx_chainer.functions.converter.'
        'FunctionConverterParams).'.format(name, name, opset_version, name))


def computational_order(outputs):
    """The functions that the variable nodes ``outputs`` depend on, in the order of conversion.

    From the outputs back to the inputs, latest function first (a heap on the rank, ties
    broken by the order of discovery); converted in the reverse of this order.
    """
    heap = []
    seen = set()
    count = 0
    for node in outputs:
        func = node.creator_node
        if func is not None and func not in seen:
            seen.add(func)
            heapq.heappush(heap, (-func.rank, count, func))
            count += 1
    order = []
    while heap:
        _, _, func = heapq.heappop(heap)
        order.append(func)
        for node in func.inputs:
            creator = node.creator_node
            if creator is not None and creator not in seen:
                seen.add(creator)
                heapq.heappush(heap, (-creator.rank, count, creator))
                count += 1
    return order[::-1]


class Graph:
    """The functions between the network's inputs and outputs, and their conversion.

    Args:
        context (~onnx_chainer.context.Context): The export's names.
        converters (dict): Function name -> converter ``converter(params)``.
        opset_version (int): The opset to convert to.
        explicit_input_names (list of str): Names of the network inputs.
        network_outputs (list of ~chainer.Variable): The outputs (a dict's values count).

    Attributes:
        implicit_arrays (dict): Variable node -> array, for the inputs of functions that no
            function made (constants); set by the exporter from ``export.RetainInputHook``.
        inputs (dict): Name -> array of those inputs, once converted.
    """

    def __init__(self, context, converters, opset_version, explicit_input_names,
                 network_outputs):
        self.context = context
        self.converters = converters
        self.opset_version = opset_version
        self.explicit_input_names = explicit_input_names
        self.implicit_arrays = {}
        self.inputs = {}            # extra (implicit) input name -> array, in order of use
        self.onnx_nodes = []
        self._dynamic = {}          # constant name -> name of its run-time form
        self.output_order = []      # network output names in the order their nodes come
        if isinstance(network_outputs, dict):
            network_outputs = list(network_outputs.values())
        self.network_outputs = network_outputs
        self.functions = computational_order([v.node for v in network_outputs])
        context.functions = self.functions
        self.func_names = {}
        counts = {}
        for func in self.functions:
            name = function_name(func)
            n = counts.get(name, 0)
            counts[name] = n + 1
            self.func_names[func] = '{}_{}'.format(name, n)

    def _build_computational_graph(self, outputs):
        return computational_order(outputs)

    def _input_name(self, node):
        context = self.context
        key = id(node)
        if key in context.name_list:
            return context.name_list[key][0]
        # A leaf that is neither a network input nor a parameter: a constant of the model.
        array = self.implicit_arrays.get(node)
        if array is None:
            array = node.data
        if array is None:
            raise RuntimeError(
                'ONNX-Chainer cannot find the value of an input of the graph ({}): it is not '
                'an argument of the model, a parameter or the output of a function'.format(
                    node.label))
        name = context._persistents.get(id(array)) or context.get_name(node)
        context.set_name(node, name)
        if name not in self.inputs:
            self.inputs[name] = array
            context.implicit_inputs[name] = array
            context._input_order.append(name)
        return name

    def _output_names(self, func, func_name):
        outputs = [ref() for ref in func.outputs]
        names = []
        for i, node in enumerate(outputs):
            name = func_name if len(outputs) == 1 else '{}_{}'.format(func_name, i)
            if node is not None:
                if self.context.is_pinned(node):
                    name = self.context.get_name(node)
                else:
                    self.context.set_name(node, name)
            names.append(name)
        return names

    def create_node(self, func_name, func, input_names, output_names):
        """Runs the converter of ``func``; returns its ONNX nodes (constants first)."""
        name = function_name(func)
        converter = self.converters.get(name)
        if converter is None:
            raise _unsupported(name, self.opset_version)
        onnx_helper.set_func_name(func_name)
        try:
            self.context.constants = []
            params = FunctionConverterParams(
                func=func, opset_version=self.opset_version, input_names=input_names,
                output_names=output_names, context=self.context)
            nodes = converter(params)
            if isinstance(nodes, onnx.NodeProto):
                nodes = (nodes,)
            nodes = list(self.context.constants) + list(nodes)
            nodes = _upgrade.apply(nodes, self.context, self.opset_version)
        finally:
            self.context.constants = []
            onnx_helper.set_func_name(None)
        return nodes

    def convert_to_onnx_node(self, function):
        """Names the inputs and outputs of ``function`` and converts it."""
        name = function_name(function)
        if name not in self.converters:
            raise _unsupported(name, self.opset_version)
        func_name = self.func_names[function]
        onnx_helper.set_func_name(func_name)
        self.context.constants = []
        try:
            input_names = [self._input_name(node) for node in function.inputs]
            if self.context.dims is not None:
                input_names = [self._dynamic_constant(function, k, name)
                               for k, name in enumerate(input_names)]
            before = self.context.constants
        finally:
            self.context.constants = []
            onnx_helper.set_func_name(None)
        output_names = self._output_names(function, func_name)
        return before + self.create_node(func_name, function, input_names, output_names)

    def _dynamic_constant(self, func, index, name):
        """For a constant input of ``func`` whose shape follows the dynamic dimensions (zeros
        made with ``xp.zeros((len(x), n))``), the name of the same values computed at run time
        (``ConstantOfShape``); other inputs keep ``name``."""
        dims = self.context.dims.get(func, 'in', index)
        if dims is None or name not in self.inputs:
            return name
        cached = self._dynamic.get(name)
        if cached is not None:
            return cached
        array = numpy.asarray(backend.CpuDevice().send(self.inputs[name]))
        uniform = array.size and (array == array.flat[0]).all()
        if not uniform or self.opset_version < 9 or not all(
                d.known for d in dims if isinstance(d, _dynamic.Dim)):
            warnings.warn(
                'ONNX-Chainer writes the constant {} (an input of {}) as traced although its '
                'shape {} follows the dynamic dimensions: only constants of one value (opset '
                '9 or later) are made at run time'.format(name, function_name(func), dims),
                UserWarning)
            self._dynamic[name] = name
            return name
        gb = onnx_helper.GraphBuilder()
        gb._func_name = '{}_input{}'.format(self.func_names[func], index)  # apart from its own
        shape = _common.shape_input(gb, self.context, dims)
        value = onnx.numpy_helper.from_array(array.reshape(-1)[:1])
        out = gb.op('ConstantOfShape', [shape], value=value)
        self.context.constants.extend(gb.nodes())
        self._dynamic[name] = out
        return out

    def to_onnx_graph(self):
        """Converts every function, in order; returns the list of ONNX nodes.

        Afterwards ``output_order`` lists the names of the network outputs in the order of
        the nodes that write them (outputs no function wrote, such as an input returned as
        it is, last).
        """
        for func in self.functions:
            self.onnx_nodes.extend(self.convert_to_onnx_node(func))
        names = [self.context.get_name(v) for v in self.network_outputs]
        self.onnx_nodes = _used_nodes(self.onnx_nodes, names)
        written = {}
        for node in self.onnx_nodes:
            for out in node.output:
                written.setdefault(out, len(written))
        self.output_order = sorted(set(names), key=lambda n: written.get(n, len(written)))
        return self.onnx_nodes


def _used_nodes(nodes, output_names):
    """The nodes that the outputs depend on, in order. Converters may leave nodes whose
    results nothing uses (the single slices of a list that the next function stacks again
    from its source, for instance); they are dropped so that the graph does not depend on
    what they computed."""
    needed = set(output_names)
    kept = []
    for node in reversed(nodes):
        if any(name in needed for name in node.output):
            kept.append(node)
            needed.update(node.input)
    return kept[::-1]
