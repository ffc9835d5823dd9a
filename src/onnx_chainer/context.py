"""The state of one export: the names given to variables, and what converters add."""
import numpy

import chainer
from chainer import backend

from onnx_chainer import _onnx
from onnx_chainer import onnx_helper

onnx = _onnx.require()


def _key_object(x):
    # Variables are named through their node, which outlives them in the graph; arrays and
    # anything else by themselves.
    if isinstance(x, chainer.Variable):
        return x.node
    return x


class Context:
    """Names and extra tensors of one export.

    Every variable of the graph gets a name: parameters of ``model`` ``param_<path>``, the
    network inputs and outputs theirs, function outputs the function's, and any other
    variable ``v<N>`` when it is first seen. Converters add constants (:meth:`add_const`)
    and initialized inputs (:meth:`add_param`) through it.

    Args:
        model (~chainer.Chain): The model being exported.

    Attributes:
        name_list (dict): ``id`` of a named object -> ``(name, pinned)``.
        parameters (list of onnx.TensorProto): Initializers added by converters.
        constants (list of onnx.NodeProto): Constant nodes added by the converter running.
        implicit_inputs (dict): Name -> array of the inputs that come neither from the
            network's arguments nor from a function (constants, persistent values).
        param_to_link (dict): ``id`` of a parameter -> ``(path of its link, link)``.
        opset_version (int): The opset being exported.
        functions (list): The functions of the graph, in the order of conversion.
    """

    def __init__(self, model):
        self.name_list = {}
        self.parameters = []
        self.constants = []
        self.implicit_inputs = {}
        self.param_to_link = {}
        self._objects = {}          # id -> object, so that ids stay unique while we use them
        self._persistents = {}      # id of a persistent array -> ONNX name
        self._added_names = set()
        self._array_inputs = {}
        self._input_order = []     # names of the inputs added by conversion, in order
        self.opset_version = None  # the opset being exported (set by export)
        self.functions = []        # the graph's functions (set by Graph)
        self.implicit_arrays = {}  # input node no function made -> its array (set by Graph)
        self._packed = {}          # ONNX name -> (source name, axis, index, count)
        self.dims = None           # _dynamic.DimTable when input_shapes names dimensions
        self.network_input_names = []
        self._symbols = {}         # dynamic dimension name -> ONNX name of its size
        if isinstance(model, chainer.Link):
            self._register_model(model)

    def _register_model(self, model):
        for path, param in model.namedparams():
            if id(param.node) in self.name_list:
                continue        # a link registered twice: its first path names it
            name = onnx_helper.cleanse_param_name(path)
            self.set_name(param, name)
            link_path = path.rsplit('/', 1)[0]
            link = model
            for part in link_path.split('/')[1:]:
                link = link[int(part)] if isinstance(link, chainer.ChainList) else getattr(
                    link, part)
            self.param_to_link[id(param)] = (link_path, link)
            self._objects[id(param)] = param
        for path, link in model.namedlinks():
            prefix = '' if path == '/' else path
            for name in sorted(getattr(link, '_persistent', ())):
                value = link.__dict__.get(name)
                if isinstance(value, chainer.get_array_types()) and (
                        id(value) not in self._persistents):
                    self._persistents[id(value)] = onnx_helper.cleanse_param_name(
                        prefix + '/' + name)
                    self._objects[id(value)] = value

    def _key(self, x):
        obj = _key_object(x)
        self._objects[id(obj)] = obj
        return id(obj)

    def get_name(self, variable):
        """Returns the name of ``variable`` (a Variable, its node or an array), naming it
        ``v<N>`` (or after the persistent value it is) on first sight."""
        key = self._key(variable)
        entry = self.name_list.get(key)
        if entry is not None:
            return entry[0]
        name = self._persistent_name(variable)
        if name is None:
            name = 'v{}'.format(len(self.name_list))
        self.name_list[key] = (name, False)
        return name

    def _persistent_name(self, x):
        if isinstance(x, (chainer.Variable, chainer.variable.VariableNode)):
            x = x.data
        if x is None:
            return None
        return self._persistents.get(id(x))

    def set_name(self, variable, name, pinned=False):
        """Names ``variable``.

        Args:
            variable: A Variable, its node or an array.
            name (str): The name.
            pinned (bool): A pinned name (given by the user for an input or output) is kept:
                later calls without ``pinned`` do not replace it.
        """
        key = self._key(variable)
        entry = self.name_list.get(key)
        if entry is not None and entry[1] and not pinned:
            return
        self.name_list[key] = (name, pinned)

    def is_pinned(self, variable):
        """Whether ``variable`` has a pinned name."""
        entry = self.name_list.get(self._key(variable))
        return entry is not None and entry[1]

    def add_param(self, array, name, use_original_name=False):
        """Adds an initialized input (an initializer) for the function being converted.

        Args:
            array (numpy.ndarray): Its value.
            name (str): Its name, prefixed with ``<function name>_param_`` unless
                ``use_original_name``.
            use_original_name (bool): Use ``name`` as it is.

        Returns:
            str: The ONNX name of the input.
        """
        if use_original_name:
            onnx_name = name
        else:
            onnx_name = '{}_param_{}'.format(onnx_helper.get_func_name(), name)
        onnx_name = self._unique(onnx_name)
        array = numpy.asarray(backend.CpuDevice().send(array))
        self.parameters.append(onnx.numpy_helper.from_array(array, onnx_name))
        self._input_order.append(onnx_name)
        return onnx_name

    def _array_input(self, array, name):
        # An input initialized with ``array`` (a persistent value of the model, such as the
        # running mean of BatchNormalization, keeps its ``param_`` name); one per array.
        key = id(array)
        onnx_name = self._array_inputs.get(key)
        if onnx_name is None:
            persistent = self._persistents.get(key)
            if persistent is not None:
                onnx_name = self.add_param(array, persistent, use_original_name=True)
            else:
                onnx_name = self.add_param(array, name)
            self._array_inputs[key] = onnx_name
            self._objects[key] = array
        return onnx_name

    def add_const(self, array, name):
        """Adds a ``Constant`` node holding ``array`` for the function being converted.

        Args:
            array (numpy.ndarray): Its value.
            name (str): Its name, prefixed with ``<function name>_const_``.

        Returns:
            str: The name of the constant's output.
        """
        func_name = onnx_helper.get_func_name()
        onnx_name = self._unique('{}_const_{}'.format(func_name, name))
        array = numpy.asarray(backend.CpuDevice().send(array))
        tensor = onnx.numpy_helper.from_array(array, onnx_name)
        self.constants.append(onnx.helper.make_node(
            'Constant', [], [onnx_name], name=func_name, value=tensor))
        return onnx_name

    def _unique(self, name):
        # Two constants or parameters of one name would make an invalid graph.
        candidate, n = name, 0
        while candidate in self._added_names:
            n += 1
            candidate = '{}_{}'.format(name, n)
        self._added_names.add(candidate)
        return candidate

    def constant_value(self, node):
        """The array of ``node`` when it is a constant of the graph: made by no function, and
        neither a network input nor a parameter; otherwise None.

        Args:
            node (~chainer.variable.VariableNode): An input of a function of the graph.
        """
        if node.creator_node is not None or self.is_pinned(node):
            return None
        if isinstance(node.get_variable_or_none(), chainer.Parameter):
            return None
        value = self.implicit_arrays.get(node)
        return node.data if value is None else value

    def symbol_value(self, symbol):
        """The ONNX name of a 1-element int64 tensor holding the run-time size of the
        dynamic dimension ``symbol`` (read from the network input that names it); the nodes
        that compute it come with the function being converted, once per export."""
        name = self._symbols.get(symbol)
        if name is None:
            index, axis = self.dims.symbols[symbol]
            func_name = onnx_helper.get_func_name()
            shape = self._unique('{}_shape_of_{}'.format(func_name, symbol))
            name = self._unique('{}_{}'.format(func_name, symbol))
            axis_name = self.add_const(numpy.array([axis], numpy.int64), symbol + '_axis')
            # Named after their outputs: node names are unique in a graph.
            self.constants.append(onnx.helper.make_node(
                'Shape', [self.network_input_names[index]], [shape], name=shape))
            self.constants.append(onnx.helper.make_node(
                'Gather', [shape, axis_name], [name], name=name, axis=0))
            self._symbols[symbol] = name
        return name

    def set_packed(self, names, source, axis):
        """Records that the tensors ``names`` are the slices of ``source`` along ``axis``
        (``source[i]`` for ``names[i]``, the axis dropped), so that a converter that stacks
        them all again can use ``source`` (see :meth:`unpacked_source`). Converters that
        split a tensor into a list (Separate, TransposeSequence, the n-step RNNs) record it;
        the nodes that compute the single slices are left out of the file when nothing else
        uses them, so the graph does not depend on the number of slices.
        """
        for i, name in enumerate(names):
            self._packed[name] = (source, axis, i, len(names))

    def unpacked_source(self, names, axis):
        """The tensor whose slices along ``axis`` are exactly ``names``, in order, or None
        (see :meth:`set_packed`)."""
        first = self._packed.get(names[0]) if names else None
        if first is None or first[1] != axis or first[3] != len(names):
            return None
        for i, name in enumerate(names):
            if self._packed.get(name) != (first[0], axis, i, len(names)):
                return None
        return first[0]

    def get_link(self, param):
        """Returns the link that holds ``param`` (``None`` if it is not the model's)."""
        entry = self.param_to_link.get(id(param))
        return None if entry is None else entry[1]
