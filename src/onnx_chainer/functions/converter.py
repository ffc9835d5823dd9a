"""The converter protocol: what the exporter passes to a converter, and how it calls one."""


class FunctionConverterParams:
    """What a converter gets for one function of the graph.

    Attributes:
        func (~chainer.FunctionNode): The function.
        opset_version (int): The opset being exported.
        input_names (list of str): ONNX names of the function's inputs.
        output_names (list of str): ONNX names its outputs must have.
        context (~onnx_chainer.context.Context): The export's context (names, constants).
    """

    def __init__(self, func=None, opset_version=None, input_names=None, output_names=None,
                 context=None):
        self.func = func
        self.opset_version = opset_version
        self.input_names = input_names
        self.output_names = output_names
        self.context = context


class FunctionConverter:
    """Adapts a converter written as ``converter(func, opset_version, input_names,
    output_names, context)`` (the form of ``onnx_chainer.functions``) to the exporter's call
    ``converter(params)``.

    Args:
        converter: The converter function.
    """

    def __init__(self, converter):
        self.converter = converter

    def __call__(self, params):
        return self.converter(params.func, params.opset_version, params.input_names,
                              params.output_names, params.context)
