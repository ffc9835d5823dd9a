"""Running an exported test data set in ONNX Runtime."""
import glob
import os
import warnings

import numpy

try:
    import onnxruntime as rt
    ONNXRUNTIME_AVAILABLE = True
except ImportError:
    rt = None
    ONNXRUNTIME_AVAILABLE = False


def load_test_data(data_dir, input_names, output_names):
    """Reads ``input_<i>.pb`` and ``output_<i>.pb`` of ``data_dir``.

    Args:
        data_dir (str): The ``test_data_set_<n>`` directory.
        input_names (list of str): The graph's input names (without initializers).
        output_names (list of str): The graph's output names.

    Returns:
        tuple: ``(inputs, outputs)``: OrderedDicts of name -> array. Inputs whose tensor
        name is not among ``input_names`` are skipped.
    """
    import collections
    import onnx
    from onnx import numpy_helper

    def read(pattern):
        out = collections.OrderedDict()
        files = glob.glob(os.path.join(data_dir, pattern))
        for path in sorted(files, key=lambda p: int(p.rsplit('_', 1)[1].split('.')[0])):
            tensor = onnx.load_tensor(path)
            out[tensor.name] = numpy_helper.to_array(tensor)
        return out

    inputs = read('input_*.pb')
    inputs = collections.OrderedDict(
        (k, v) for k, v in inputs.items() if k in set(input_names))
    outputs = read('output_*.pb')
    if list(outputs) != list(output_names):
        outputs = collections.OrderedDict(
            (k, outputs[k]) for k in output_names if k in outputs)
    return inputs, outputs


def check_model_expect(test_path, input_names=None, rtol=1e-5, atol=1e-5):
    """Runs ``test_path/model.onnx`` on its test data in ONNX Runtime and compares.

    Args:
        test_path (str): Directory written by ``export_testcase``.
        input_names (list of str): Names of the graph's inputs that the data feeds (default:
            the graph inputs that are not initializers).
        rtol, atol (float): Tolerances of the comparison with the recorded outputs.

    Raises:
        ImportError: ONNX Runtime is not installed.
        AssertionError: An output differs.
    """
    if not ONNXRUNTIME_AVAILABLE:
        raise ImportError('ONNX Runtime is not found on checking module.')
    import onnx
    model_path = os.path.join(test_path, 'model.onnx')
    model = onnx.load(model_path)
    initializers = {t.name for t in model.graph.initializer}
    graph_inputs = [v.name for v in model.graph.input if v.name not in initializers]
    if input_names is None:
        input_names = graph_inputs
    output_names = [v.name for v in model.graph.output]
    options = rt.SessionOptions()
    options.log_severity_level = 3      # no warning per initializer listed as an input
    sess = rt.InferenceSession(model.SerializeToString(), options,
                               providers=['CPUExecutionProvider'])
    session_inputs = [i.name for i in sess.get_inputs()]
    for name in input_names:
        assert name in session_inputs, (
            'check_model_expect: {} is not an input of the model (inputs: {})'.format(
                name, session_inputs))
    for data_dir in sorted(glob.glob(os.path.join(test_path, 'test_data_set_*'))):
        inputs, expected = load_test_data(data_dir, input_names, output_names)
        extra = set(session_inputs) - set(inputs) - initializers
        if extra:
            warnings.warn('check_model_expect: inputs {} of the model have no data'.format(
                sorted(extra)))
        actual = sess.run(list(expected), dict(inputs))
        for name, a in zip(expected, actual):
            e = expected[name]
            assert a.shape == e.shape, (
                'check_model_expect: output {} has shape {} in ONNX Runtime, {} in Chainer'
                .format(name, a.shape, e.shape))
            numpy.testing.assert_allclose(a, e, rtol=rtol, atol=atol,
                                          err_msg='output {}'.format(name))
