"""``export``: runs a model once and writes the graph of its forward pass as an ONNX model.

This module imports without the onnx package; ``export`` raises an ImportError naming the
extra to install when it is missing.
"""
import collections
import io
import warnings

import numpy

import chainer
from chainer import backend
from chainer.utils import experimental

from onnx_chainer import _dynamic
from onnx_chainer import _onnx

# The opsets whose converters are tested. A converter declares the opsets at which its output
# changes (``functions.opset_version.support``); operators that only moved an attribute into
# an input at a later opset are rewritten in one place (``functions._upgrade``).
MINIMUM_OPSET_VERSION = 7
MAXIMUM_OPSET_VERSION = 17
# What ``opset_version=None`` exports: the highest opset of Chainer 7.8.1's onnx_chainer, which
# runtimes of its time read too.
DEFAULT_OPSET_VERSION = 11

# Names this module offers that need the onnx package, loaded when first used.
_LAZY = {'Context': ('onnx_chainer.context', 'Context'),
         'Graph': ('onnx_chainer.graph', 'Graph'),
         'mapping': ('onnx_chainer.mapping', None),
         'is_support_non_standard_domain': ('onnx_chainer.onnx_helper',
                                            'is_support_non_standard_domain')}


def __getattr__(name):
    return _lazy_attribute(__name__, _LAZY, name)


def _lazy_attribute(module_name, table, name):
    import importlib
    if name not in table:
        raise AttributeError('module {!r} has no attribute {!r}'.format(module_name, name))
    target, attr = table[name]
    module = importlib.import_module(target)
    return module if attr is None else getattr(module, attr)


# -- what the forward pass used ----------------------------------------------------------------

class _FunctionRecorder(chainer.FunctionHook):
    """Keeps every applied function with its input arrays, so that inputs no function made
    (constants the model creates while it runs) can be exported after the forward pass."""

    name = 'onnx_chainer_function_recorder'

    def __init__(self):
        self.records = []

    def forward_postprocess(self, function, in_data):
        self.records.append((function, in_data))


def _flatten(obj):
    if isinstance(obj, dict):
        obj = list(obj.values())
    if isinstance(obj, (list, tuple)):
        out = []
        for x in obj:
            out.extend(_flatten(x))
        return out
    return [obj]


class RetainInputHook(chainer.LinkHook):
    """Keeps the inputs a forward pass creates for itself.

    Used as a context manager around a forward pass. Afterwards ``retain_inputs`` holds the
    variables that functions took as inputs although no function made them and they were not
    arguments of a link call (constants made inside ``forward``, arrays passed straight to a
    function), and ``implicit_arrays`` maps every input node of the graph that no function
    made to its array.
    """

    name = 'RetainInputHook'

    def __init__(self):
        self.link_inputs = set()
        self.retain_inputs = []
        self.replaced_inputs = []
        self.implicit_arrays = {}
        self._recorder = _FunctionRecorder()

    def _extract_inputs(self, args):
        return [x for x in _flatten(args) if isinstance(x, chainer.Variable)]

    def forward_preprocess(self, args):
        for v in self._extract_inputs([args.args, args.kwargs]):
            self.link_inputs.add(id(v.node))

    def forward_postprocess(self, args):
        pass

    def __enter__(self):
        self._recorder.records = []
        self._recorder.__enter__()
        return super().__enter__()

    def __exit__(self, *exc_details):
        super().__exit__(*exc_details)
        self._recorder.__exit__(*exc_details)
        self._collect()

    def _collect(self):
        retained = set()
        for func, in_data in self._recorder.records:
            nodes = getattr(func, 'inputs', None) or ()
            for node, array in zip(nodes, in_data):
                if node.creator_node is not None or node in self.implicit_arrays:
                    continue
                self.implicit_arrays[node] = array
                var = node.get_variable_or_none()
                if isinstance(var, chainer.Parameter) or id(node) in self.link_inputs:
                    continue
                if id(node) not in retained:
                    retained.add(id(node))
                    self.retain_inputs.append(var if var is not None else array)
        self._recorder.records = []


# -- arguments ---------------------------------------------------------------------------------

def _array_types():
    return chainer.get_array_types()


def _to_cpu(array):
    return numpy.asarray(backend.CpuDevice().send(array))


def convert_parameter(parameter, context):
    """Converts a parameter (or any array input) to an ONNX ``TensorProto`` named as the
    context names it.

    Args:
        parameter (~chainer.Parameter, ~chainer.Variable or numpy.ndarray): The value.
        context (~onnx_chainer.context.Context): The export's names.

    Returns:
        onnx.TensorProto: The tensor.
    """
    onnx = _onnx.require()
    if isinstance(parameter, chainer.Variable):
        array = parameter.array
    elif isinstance(parameter, _array_types()):
        array = parameter
    else:
        raise ValueError(
            'The type of parameter is unknown. It should be either Parameter or Variable or '
            'ndarray, but the type was {}.'.format(type(parameter)))
    return onnx.numpy_helper.from_array(_to_cpu(array), context.get_name(parameter))


def _network_inputs(args):
    # Returns (keys or None, list of Variables) for the accepted forms of ``args``.
    if isinstance(args, dict):
        keys, values = list(args.keys()), list(args.values())
    elif isinstance(args, (list, tuple)):
        keys, values = None, list(args)
    elif isinstance(args, (chainer.Variable,) + _array_types()):
        keys, values = None, [args]
    else:
        raise ValueError(
            "The 'args' argument should be a list, tuple, dict, numpy array, or Chainer "
            'Variable. But a {} object was given.'.format(type(args)))
    variables = []
    for i, v in enumerate(values):
        if isinstance(v, chainer.Variable):
            variables.append(v)
        elif isinstance(v, _array_types()):
            variables.append(chainer.Variable(v))
        else:
            where = 'args[{!r}]'.format(keys[i] if keys is not None else i)
            raise TypeError('export: {} must be a numpy array or a Chainer Variable, got '
                            '{}'.format(where, type(v).__name__))
    return keys, variables


def format_customized_shapes(args, shapes):
    """Matches ``input_shapes`` with the inputs ``args``.

    Args:
        args: The network inputs (a single input, a list or tuple, or a dict).
        shapes: One shape for a single input, a list of shapes, or a dict of shapes keyed
            like ``args``. A dimension is an int, or a str naming a dynamic dimension.

    Returns:
        list of tuple: One shape per input, in the inputs' order.
    """
    if isinstance(args, dict):
        if isinstance(shapes, dict):
            for k in args:
                if k not in shapes:
                    raise ValueError('Key "{}" is not found in customized shapes'.format(k))
            shapes = [shapes[k] for k in args]
        elif isinstance(shapes, (list, tuple)) and all(
                isinstance(s, (list, tuple)) for s in shapes):
            if len(shapes) != len(args):
                raise ValueError('Customized shapes cannot fit for input dict')
        else:
            raise ValueError('Customized shapes cannot fit for input dict')
        values = list(args.values())
    elif isinstance(args, (list, tuple)):
        if not isinstance(shapes, (list, tuple)) or len(shapes) != len(args) or not all(
                isinstance(s, (list, tuple)) for s in shapes):
            if len(args) == 1 and isinstance(shapes, (list, tuple)) and not any(
                    isinstance(s, (list, tuple)) for s in shapes):
                shapes = [shapes]
            else:
                raise ValueError('Customized shapes cannot fit for input list')
        values = list(args)
    else:
        if isinstance(shapes, list) and len(shapes) == 1 and isinstance(
                shapes[0], (list, tuple)):
            shapes = shapes[0]
        if not isinstance(shapes, (list, tuple)):
            raise ValueError('Type {} is not supported for single input'.format(type(shapes)))
        if any(isinstance(s, (list, tuple)) for s in shapes):
            raise ValueError('Customized shape must be single')
        shapes = [shapes]
        values = [args]
    out = []
    for i, (shape, value) in enumerate(zip(shapes, values)):
        ndim = len(value.shape)
        if len(shape) != ndim:
            if len(values) == 1 and not isinstance(args, (list, tuple, dict)):
                raise ValueError('Shape length must be same as input')
            raise ValueError('Index-{} shape length must be same as input'.format(i))
        for dim in shape:
            if isinstance(dim, bool) or not isinstance(dim, (int, numpy.integer, str)):
                raise ValueError(
                    'Invalid item in shape: {}. Needs to be of int or str.'.format(dim))
        out.append(tuple(shape))
    return out


def rename_variable_name(context, variables, named_vars, new_names, prefix='Input'):
    """Names the network's inputs or outputs.

    Args:
        context (~onnx_chainer.context.Context): The export's names.
        variables (list of ~chainer.Variable): The variables, in order.
        named_vars (list or None): The keys of the variables when they came in a dict.
        new_names (str, list, tuple or dict): Names in the variables' order (a str names a
            single variable), or keyed like ``named_vars``; ``None`` keeps the defaults
            (``<prefix>_<i>``; for outputs, no default is set here).
        prefix (str): Prefix of the default names, or ``None`` for none.

    Returns:
        OrderedDict: Name -> variable, for the names set here.
    """
    if new_names is None:
        if prefix is None:
            return collections.OrderedDict()
        names = ['{}_{}'.format(prefix, i) for i in range(len(variables))]
    elif isinstance(new_names, str):
        names = [new_names]
        if len(variables) != 1:
            raise ValueError('Replacing name list is not match with input (or output) '
                             'variables: {} names for {} variables'.format(1, len(variables)))
    elif isinstance(new_names, dict):
        if named_vars is None:
            raise ValueError(
                'Replacing name dict is not match with input (or output) variables: the names '
                'are a dict, but the variables are not (give a list of names)')
        if set(new_names) != set(named_vars):
            raise ValueError(
                'Replacing name dict is not match with input (or output) variables: keys {} '
                'for variables {}'.format(sorted(map(str, new_names)),
                                          sorted(map(str, named_vars))))
        names = [new_names[k] for k in named_vars]
    elif isinstance(new_names, (list, tuple)):
        names = list(new_names)
        if len(names) != len(variables):
            if len(variables) == 1:
                raise ValueError('Replacing name must be single, got {} names for one '
                                 'variable'.format(len(names)))
            raise ValueError(
                'Replacing name list is not match with input (or output) variables: {} names '
                'for {} variables'.format(len(names), len(variables)))
    else:
        raise TypeError('export: names must be a str, a list, a tuple or a dict, got '
                        '{}'.format(type(new_names).__name__))
    for n in names:
        if not isinstance(n, str):
            raise TypeError('export: names must be str, got {!r}'.format(n))
    if len(set(names)) != len(names):
        raise ValueError('export: names must be unique, got {}'.format(names))
    out = collections.OrderedDict()
    for name, var in zip(names, variables):
        context.set_name(var, name, pinned=True)
        out[name] = var
    return out


def _network_outputs(outputs):
    # Returns (keys or None, list of Variables).
    if isinstance(outputs, chainer.Variable):
        return None, [outputs]
    if isinstance(outputs, dict):
        keys, values = list(outputs.keys()), list(outputs.values())
    elif isinstance(outputs, (list, tuple)):
        keys, values = None, list(outputs)
    else:
        raise RuntimeError('Unexpected output type from the model: {}'.format(type(outputs)))
    if not all(isinstance(v, chainer.Variable) for v in values):
        raise ValueError("The all 'outputs' must be Chainer Variable")
    return keys, values


def check_onnx_model(onnx_model, external_converters, external_opset_imports):
    """Runs ``onnx.checker`` on the model.

    A failure is an error, except when external converters took part: then it is a warning,
    since their operators may be outside what the checker knows.
    """
    onnx = _onnx.require()
    try:
        onnx.checker.check_model(onnx_model)
    except onnx.checker.ValidationError as e:
        if not external_converters:
            raise
        warnings.warn(
            'ValidationError is occurred but ignored. ONNX-Chainer recommends to set '
            '`external_opset_imports` when using `external_converters` on exporting. Please '
            'take care about ONNX format check is insufficient. Error message:\n{}'.format(e),
            UserWarning)


def _ir_version(onnx, opset_imports):
    try:
        return onnx.helper.find_min_ir_version_for(opset_imports, True)
    except Exception:       # an opset newer than the installed onnx knows
        return onnx.IR_VERSION


def _tensor_type(onnx, dtype):
    return onnx.helper.np_dtype_to_tensor_dtype(numpy.dtype(dtype))


# -- export ------------------------------------------------------------------------------------

def export(model, args, filename=None, export_params=True, graph_name='Graph',
           save_text=False, opset_version=None, input_names=None, output_names=None,
           train=False, return_named_inout=False, external_converters=None,
           external_opset_imports=None, input_shapes=None, no_testcase=False):
    """Exports a Chainer model to ONNX.

    The model is run once on ``args``; the functions its forward pass applies become ONNX
    nodes, its parameters initializers.

    Args:
        model (~chainer.Chain): The model.
        args (numpy.ndarray, ~chainer.Variable, list, tuple or dict): Its inputs; a dict is
            passed as keyword arguments.
        filename (str or file object): Where to write the model (``None``: nowhere).
        export_params (bool): Write the parameters as initializers.
        graph_name (str): Name of the ONNX graph.
        save_text (bool): Also write a text dump to ``filename + '.txt'``.
        opset_version (int): ONNX opset, from ``MINIMUM_OPSET_VERSION`` (7) to
            ``MAXIMUM_OPSET_VERSION`` (17); ``None``: ``DEFAULT_OPSET_VERSION`` (11), or the
            installed onnx's highest if that is lower.
        input_names (str, list or dict): Names of the inputs (default ``Input_<i>``).
        output_names (str, list or dict): Names of the outputs (default: the name of the
            function that made each).
        train (bool): Run the model with ``chainer.config.train`` set to this.
        return_named_inout (bool): Also return the named inputs and outputs.
        external_converters (dict): Converters by function name, used before the built-in
            ones (experimental).
        external_opset_imports (dict): Domain -> opset version of the operators external
            converters emit (experimental).
        input_shapes: Shapes of the inputs in the graph, where a str names a dynamic
            dimension (see :func:`format_customized_shapes`).
        no_testcase (bool): Do not warn that ``export_testcase`` is the way to write files.

    Returns:
        onnx.ModelProto, or ``(model, inputs, outputs)`` with ``return_named_inout``, where
        ``inputs`` and ``outputs`` are OrderedDicts of ONNX name -> Variable.
    """
    return _export_main(model, args, filename, export_params, graph_name, save_text,
                        opset_version, input_names, output_names, train, return_named_inout,
                        external_converters, external_opset_imports, input_shapes,
                        no_testcase)


def _export_main(model, args, filename=None, export_params=True, graph_name='Graph',
                 save_text=False, opset_version=None, input_names=None, output_names=None,
                 train=False, return_named_inout=False, external_converters=None,
                 external_opset_imports=None, input_shapes=None, no_testcase=False,
                 warn_experimental=True):
    onnx = _onnx.require()
    if external_converters:
        experimental('external_converters')
    if external_opset_imports:
        experimental('external_opset_imports')
    if return_named_inout and warn_experimental:
        experimental('return_named_inout')
    if filename is not None and not no_testcase:
        warnings.warn('Exporting ONNX without testcases is deprecated. Use export_testcase '
                      'instead', DeprecationWarning)
    if external_converters is not None and not isinstance(external_converters, dict):
        raise TypeError('export: external_converters must be a dict of converters keyed by '
                        'function name, got {}'.format(type(external_converters).__name__))
    if external_opset_imports is not None and not isinstance(external_opset_imports, dict):
        raise TypeError('export: external_opset_imports must be a dict of opset versions '
                        'keyed by domain, got {}'.format(type(external_opset_imports).__name__))

    if opset_version is None:
        opset_version = min(onnx.defs.onnx_opset_version(), DEFAULT_OPSET_VERSION)
    elif isinstance(opset_version, bool) or not isinstance(
            opset_version, (int, numpy.integer)):
        raise TypeError('export: opset_version must be an int, got {!r}'.format(opset_version))
    opset_version = int(opset_version)
    if not MINIMUM_OPSET_VERSION <= opset_version <= MAXIMUM_OPSET_VERSION:
        warnings.warn(
            'ONNX-Chainer has been tested only with opset_version {} ~ {}. The ONNX file '
            'exported with your requested opset_version ({}) may cause some problems because '
            'the converters used for the opset_version have not been tested.'.format(
                MINIMUM_OPSET_VERSION, MAXIMUM_OPSET_VERSION, opset_version), UserWarning)

    keys, in_vars = _network_inputs(args)
    customized_shapes = input_shapes is not None
    if customized_shapes:
        shapes = format_customized_shapes(
            dict(zip(keys, in_vars)) if keys is not None else
            (in_vars if isinstance(args, (list, tuple)) else in_vars[0]), input_shapes)
    else:
        shapes = [v.shape for v in in_vars]

    with chainer.using_config('train', train), \
            chainer.using_config('enable_backprop', True):
        return _export(model, keys, in_vars, shapes, customized_shapes, filename,
                       export_params, graph_name, save_text, opset_version, input_names,
                       output_names, return_named_inout, external_converters,
                       external_opset_imports)


def _export(model, keys, in_vars, shapes, customized_shapes, filename, export_params,
            graph_name, save_text, opset_version, input_names, output_names,
            return_named_inout, external_converters, external_opset_imports):
    onnx = _onnx.require()
    from onnx_chainer import mapping
    from onnx_chainer.context import Context
    from onnx_chainer.graph import Graph

    context = Context(model)
    context.opset_version = opset_version
    network_inputs = rename_variable_name(context, in_vars, keys, input_names)
    context.network_input_names = list(network_inputs)

    # Sizes that follow the named dimensions of input_shapes are found by running a copy of
    # the model as it is now once more per name (see _dynamic).
    symbols = _dynamic.symbols_of(shapes, in_vars) if customized_shapes else {}
    before = _dynamic.copy_model(model) if symbols else None
    rng_state = numpy.random.get_state()

    hook = RetainInputHook()
    with hook, mapping.patch_functions():
        if keys is not None:
            outputs = model(**dict(zip(keys, in_vars)))
        else:
            outputs = model(*in_vars)
    out_keys, out_vars = _network_outputs(outputs)
    named_outputs = rename_variable_name(context, out_vars, out_keys, output_names, None)

    converters = dict(mapping.converters)
    if external_converters:
        converters.update(external_converters)
    graph = Graph(context, converters, opset_version, list(network_inputs), out_vars)
    graph.implicit_arrays = context.implicit_arrays = hook.implicit_arrays
    if before is not None:
        context.dims = _probe(before, keys, in_vars, symbols, graph.functions, rng_state)
    nodes = graph.to_onnx_graph()

    # Inputs: the model's parameters, the network inputs, then what conversion added.
    initializers = []
    input_infos = []
    seen = set()
    for path, param in model.namedparams() if isinstance(model, chainer.Link) else ():
        if id(param) in seen:
            continue        # a link registered twice
        seen.add(id(param))
        if param.array is None:
            warnings.warn("The parameter '{}' is not initialized, skip setting to ONNX "
                          'graph'.format(path), UserWarning)
            continue
        tensor = onnx.numpy_helper.from_array(_to_cpu(param.array), context.get_name(param))
        initializers.append(tensor)
        input_infos.append(onnx.helper.make_tensor_value_info(
            tensor.name, tensor.data_type, param.shape))
    for (name, var), shape in zip(network_inputs.items(), shapes):
        input_infos.append(onnx.helper.make_tensor_value_info(
            name, _tensor_type(onnx, var.dtype), shape))
    added = {t.name: t for t in context.parameters}
    used = {name for node in nodes for name in node.input}
    for name, array in graph.inputs.items():
        # A constant of the model that the converters replaced (a permutation inverted at
        # export time, a zero initial state) is left out.
        if name in used:
            added[name] = onnx.numpy_helper.from_array(_to_cpu(array), name)
    for tensor in (added[name] for name in context._input_order if name in added):
        initializers.append(tensor)
        input_infos.append(onnx.helper.make_tensor_value_info(
            tensor.name, tensor.data_type, list(tensor.dims)))
    if not export_params:
        initializers = []

    if output_names is not None:
        out_order = list(named_outputs)
    else:
        out_order = graph.output_order
    by_name = collections.OrderedDict((context.get_name(v), v) for v in out_vars)
    # With customized input shapes, the output shapes come from ONNX's shape inference.
    infer = customized_shapes
    output_infos = [onnx.helper.make_tensor_value_info(
        name, _tensor_type(onnx, by_name[name].dtype), None if infer else by_name[name].shape)
        for name in out_order]

    onnx_graph = onnx.helper.make_graph(nodes, graph_name, input_infos, output_infos,
                                        initializer=initializers)
    opset_imports = [onnx.helper.make_opsetid('', opset_version)]
    for domain, version in (external_opset_imports or {}).items():
        opset_imports.append(onnx.helper.make_opsetid(domain, version))
    onnx_model = onnx.helper.make_model(
        onnx_graph, producer_name='Chainer', producer_version=chainer.__version__,
        opset_imports=opset_imports)
    onnx_model.ir_version = _ir_version(onnx, opset_imports)
    if infer:
        _infer_output_shapes(onnx, onnx_model, by_name)
    check_onnx_model(onnx_model, external_converters, external_opset_imports)

    if filename is not None:
        _save(onnx, onnx_model, filename, save_text)
    if return_named_inout:
        outputs = collections.OrderedDict((name, by_name[name]) for name in out_order)
        return onnx_model, network_inputs, outputs
    return onnx_model


def _probe(model, keys, in_vars, symbols, functions, rng_state):
    # The DimTable of the traced functions (None when the model cannot be probed); ``model``
    # is a copy of the model from before the traced run.
    import copy

    from onnx_chainer import mapping
    from onnx_chainer.graph import computational_order
    from onnx_chainer.graph import function_name

    def run(m, args):
        args = [chainer.Variable(a) for a in args]
        with mapping.patch_functions():
            out = m(**dict(zip(keys, args))) if keys is not None else m(*args)
        return _network_outputs(out)[1]

    after = numpy.random.get_state()
    try:
        return _dynamic.probe(
            in_vars, symbols, run, lambda outs: computational_order([v.node for v in outs]),
            function_name, functions, lambda: copy.deepcopy(model), rng_state)
    finally:
        numpy.random.set_state(after)


def _infer_output_shapes(onnx, onnx_model, outputs):
    # Dimensions ONNX's shape inference cannot tell get the traced sizes.
    try:
        inferred = onnx.shape_inference.infer_shapes(onnx_model)
        types = {v.name: v.type for v in inferred.graph.output}
    except Exception:
        types = {}
    for out in onnx_model.graph.output:
        t = types.get(out.name)
        if t is not None and t.tensor_type.HasField('shape'):
            out.type.CopyFrom(t)
        else:
            shape = out.type.tensor_type.shape
            for d in outputs[out.name].shape:
                shape.dim.add().dim_value = d


def _save(onnx, onnx_model, filename, save_text):
    from onnx_chainer import onnx_helper
    data = onnx_model.SerializeToString()
    if isinstance(filename, (str, bytes)) or hasattr(filename, '__fspath__'):
        onnx_helper.write_bytes(filename, data)
        if save_text:
            onnx_helper.write_bytes(str(filename) + '.txt', str(onnx_model).encode('utf-8'))
    elif isinstance(filename, io.TextIOBase):
        raise TypeError('export: filename must be a path or a binary file object, got a text '
                        'file')
    else:
        filename.write(data)
