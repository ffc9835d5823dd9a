"""``export`` and ``export_testcase``: arguments, names, files, errors and warnings, compared
with Chainer 7.8.1 where it answered (``_cases.calls()``), and what rechainer adds."""
import os
import subprocess
import sys
import warnings

import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L

onnx = pytest.importorskip('onnx', reason="onnx is not installed (pip install 'rechainer[onnx]')")
ort = pytest.importorskip('onnxruntime',
                          reason="onnxruntime is not installed (pip install 'rechainer[onnx]')")

import _differences  # NOQA
import onnx_chainer  # NOQA
from onnx_chainer import onnx_helper  # NOQA
from onnx_chainer.export import RetainInputHook  # NOQA
from onnx_chainer.testing import test_onnxruntime  # NOQA

from onnx_chainer_tests import _cases  # NOQA
from onnx_chainer_tests import _compare  # NOQA
from onnx_chainer_tests.test_converters import run_onnxruntime  # NOQA

pytestmark = [
    pytest.mark.filterwarnings('ignore:return_named_inout is experimental:FutureWarning'),
    pytest.mark.filterwarnings('ignore:external_converters is experimental:FutureWarning'),
]

# Calls whose outcome differs from Chainer 7.8.1's on purpose -> key in docs/differences.md.
CALL_DEPARTURES = {
    'external_converter_not_dict': 'message:onnx_chainer.export:external_converters',
    'opset_str': 'message:onnx_chainer.export:opset_version',
    'input_names_duplicate': 'onnx:onnx_chainer.export:duplicate-names',
    'output_names_duplicate': 'onnx:onnx_chainer.export:duplicate-names',
    'input_names_int': 'onnx:onnx_chainer.export:names-type',
    'input_names_dict_on_tuple': 'onnx:onnx_chainer.export:names-type',
    # The warning about untested opsets names 7 ~ 17, and opset 12 is tested.
    'opset0': 'onnx:onnx_chainer.MAXIMUM_OPSET_VERSION',
    'opset6': 'onnx:onnx_chainer.MAXIMUM_OPSET_VERSION',
    'opset12': 'onnx:onnx_chainer.MAXIMUM_OPSET_VERSION',
    # F.erf, which these calls use as a function without a converter, has one.
    'no_converter': 'onnx:onnx_chainer:converters',
    'no_converter_opset9': 'onnx:onnx_chainer:converters',
}


def _outcome(fn):
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter('always')
        try:
            value = fn(onnx_chainer)
            if isinstance(value, onnx.ModelProto):
                result = {'dump': _cases.dump_model(value)}
            else:
                result = {'value': value}
        except Exception as e:  # NOQA: compared with the original's outcome
            result = {'error': [type(e).__name__, str(e)]}
    result['warnings'] = [[w.category.__name__, str(w.message)] for w in record]
    return result


@pytest.mark.parametrize('name,fn', [pytest.param(n, f, id=n) for n, f in _cases.calls()])
def test_call_as_chainer_781(name, fn, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    ours = _outcome(fn)
    ref = _compare.reference()['calls'][name]
    departure = CALL_DEPARTURES.get(name)
    if departure is not None:
        assert _differences.expected(departure), departure
        # A departure still raises Chainer's exception type where Chainer raised one that
        # belongs to the API (not an UnboundLocalError from inside it), except where the
        # function has a converter now.
        if departure == 'onnx:onnx_chainer:converters':
            assert 'error' not in ours, ours['error']
        elif 'error' in ref and ref['error'][0] not in ('UnboundLocalError',):
            assert ours['error'][0] == ref['error'][0]
        if name.endswith('duplicate') or name.startswith('input_names_'):
            assert 'error' in ours
        return
    if 'error' in ref:
        assert 'error' in ours, ours
        assert ours['error'][0] == ref['error'][0]
        assert (_compare.normalize_message(ref['error'][1])
                in _compare.normalize_message(ours['error'][1])), ours['error']
    else:
        assert 'error' not in ours, ours['error']
        if 'dump' in ref:
            diffs = _compare.differences(ours['dump'], ref['dump'])
            assert not diffs, '\n'.join(diffs)
        else:
            assert ours['value'] == ref['value']
    theirs = [[c, _compare.normalize_message(m)] for c, m in ref['warnings']]
    mine = [[c, _compare.normalize_message(m)] for c, m in ours['warnings']]
    assert len(mine) == len(theirs), (ours['warnings'], ref['warnings'])
    for (c1, m1), (c2, m2) in zip(mine, theirs):
        assert c1 == c2 and m2 in m1, (ours['warnings'], ref['warnings'])


@pytest.mark.parametrize('opset,ir_version', [(7, 3), (8, 3), (9, 4), (10, 5), (11, 6), (12, 7),
                                              (13, 7), (14, 7), (15, 8), (16, 8), (17, 8)])
def test_ir_version_is_the_lowest_for_the_opset(opset, ir_version):
    # Chainer 7.8.1 wrote the installed onnx's newest IR version, which older runtimes
    # refuse.
    assert _differences.expected('onnx:onnx_chainer.export:ir_version')
    model = onnx_chainer.export(chainer.Sequential(F.relu), numpy.ones((2, 3), numpy.float32),
                                opset_version=opset)
    assert model.ir_version == ir_version
    assert [(o.domain, o.version) for o in model.opset_import] == [('', opset)]


def test_default_opset():
    model = onnx_chainer.export(chainer.Sequential(F.relu), numpy.ones(3, numpy.float32))
    # The default stays Chainer 7.8.1's highest opset, which older runtimes read.
    expected = min(onnx.defs.onnx_opset_version(), onnx_chainer.DEFAULT_OPSET_VERSION)
    assert model.opset_import[0].version == expected == 11
    assert (onnx_chainer.MINIMUM_OPSET_VERSION, onnx_chainer.MAXIMUM_OPSET_VERSION) == (7, 17)


def test_unsupported_function_names_function_opset_and_remedy():
    with pytest.raises(ValueError) as e:
        onnx_chainer.export(chainer.Sequential(F.erfc), numpy.ones(3, numpy.float32),
                            opset_version=9)
    message = str(e.value)
    assert message.startswith('Erfc is not supported')
    assert 'opset_version 9' in message
    assert "external_converters={'Erfc': converter}" in message


def test_external_converter_is_used_and_warns():
    def convert(params):
        assert params.opset_version == 10
        assert params.input_names == ['Input_0'] and params.output_names == ['Erf_0']
        assert type(params.func).__name__ == 'Erf'
        return onnx_helper.make_node('Erf', params.input_names, params.output_names),
    x = numpy.linspace(-1, 1, 6, dtype=numpy.float32).reshape(2, 3)
    with pytest.warns(FutureWarning, match='external_converters is experimental'):
        model = onnx_chainer.export(chainer.Sequential(F.erf), x, opset_version=10,
                                    external_converters={'Erf': convert})
    y = run_onnxruntime(model, [x], ['Erf_0'])[0]
    numpy.testing.assert_allclose(y, F.erf(x).array, rtol=1e-5, atol=1e-5)
    chainer.disable_experimental_feature_warning = True
    try:
        with warnings.catch_warnings():
            warnings.simplefilter('error')
            onnx_chainer.export(chainer.Sequential(F.erf), x, opset_version=10,
                                external_converters={'Erf': convert})
    finally:
        chainer.disable_experimental_feature_warning = False


def test_invalid_graph_is_an_error(monkeypatch):
    from onnx_chainer import mapping
    from onnx_chainer.functions.converter import FunctionConverter

    def broken(func, opset_version, input_names, output_names, context):
        return onnx_helper.make_node('Relu', ['nowhere'], output_names),    # undefined input
    x = numpy.ones(3, numpy.float32)
    # An external converter's invalid graph is a warning, as in Chainer 7.8.1...
    with pytest.warns(UserWarning, match='ValidationError is occurred but ignored'):
        onnx_chainer.export(chainer.Sequential(F.relu), x,
                            external_converters={'ReLU': FunctionConverter(broken)})
    # ... a built-in converter's an error.
    monkeypatch.setitem(mapping.converters, 'ReLU', FunctionConverter(broken))
    with pytest.raises(onnx.checker.ValidationError):
        onnx_chainer.export(chainer.Sequential(F.relu), x)


def test_dynamic_batch_runs_at_other_batch_sizes():
    model = chainer.Sequential(L.Convolution2D(3, 4, 3, pad=1), F.relu,
                               L.Convolution2D(4, 2, 1))
    x = numpy.random.RandomState(0).uniform(-1, 1, (2, 3, 5, 5)).astype(numpy.float32)
    proto = onnx_chainer.export(model, x, input_shapes=('batch', 3, 5, 5))
    dims = proto.graph.input[-1].type.tensor_type.shape.dim
    assert dims[0].dim_param == 'batch'
    assert proto.graph.output[0].type.tensor_type.shape.dim[0].dim_param == 'batch'
    for n in (1, 7):
        xs = numpy.random.RandomState(n).uniform(-1, 1, (n, 3, 5, 5)).astype(numpy.float32)
        with chainer.using_config('train', False):
            expected = model(xs).array
        y = run_onnxruntime(proto, [xs], [proto.graph.output[0].name])[0]
        numpy.testing.assert_allclose(y, expected, rtol=1e-5, atol=1e-5)


def test_write_to_path_is_atomic_and_readable(tmp_path):
    path = tmp_path / 'model.onnx'
    model = chainer.Sequential(L.Linear(3, 2))
    x = numpy.ones((1, 3), numpy.float32)
    with pytest.warns(DeprecationWarning, match='Use export_testcase instead'):
        proto = onnx_chainer.export(model, x, filename=str(path), save_text=True)
    assert sorted(os.listdir(tmp_path)) == ['model.onnx', 'model.onnx.txt']
    assert onnx.load(str(path)) == proto
    assert 'Gemm' in (tmp_path / 'model.onnx.txt').read_text()

    # A failing export leaves an existing file as it was.
    with pytest.raises(ValueError):
        onnx_chainer.export(chainer.Sequential(F.erfc), x, filename=str(path), no_testcase=True)
    assert onnx.load(str(path)) == proto


def test_write_to_file_object(tmp_path):
    path = tmp_path / 'model.onnx'
    with open(path, 'wb') as f:
        proto = onnx_chainer.export(chainer.Sequential(F.relu), numpy.ones(2, numpy.float32),
                                    filename=f, no_testcase=True)
    assert onnx.load(str(path)) == proto


def test_named_inputs_and_outputs_of_dicts():
    class Model(chainer.Chain):
        def forward(self, a, b):
            return {'sum': a + b, 'diff': a - b}
    x = numpy.ones((2, 3), numpy.float32)
    proto, inputs, outputs = onnx_chainer.export(
        Model(), {'a': x, 'b': x * 2}, input_names={'a': 'A', 'b': 'B'},
        output_names={'sum': 'S', 'diff': 'D'}, return_named_inout=True)
    assert list(inputs) == ['A', 'B'] and list(outputs) == ['S', 'D']
    assert [v.name for v in proto.graph.output] == ['S', 'D']
    s, d = run_onnxruntime(proto, [x, x * 2], ['S', 'D'])
    numpy.testing.assert_array_equal(s, x * 3)
    numpy.testing.assert_array_equal(d, -x)


def test_intermediate_output_keeps_its_name():
    class Model(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.l1 = L.Linear(3, 4)
                self.l2 = L.Linear(4, 2)

        def forward(self, x):
            y = self.l1(x)
            return y, self.l2(y)
    proto = onnx_chainer.export(Model(), numpy.ones((1, 3), numpy.float32),
                                output_names=['y', 'z'])
    gemms = [n for n in proto.graph.node if n.op_type == 'Gemm']
    assert list(gemms[0].output) == ['y'] and gemms[1].input[0] == 'y'


def test_training_mode_batch_normalization_uses_running_statistics_names():
    bn = L.BatchNormalization(3)
    proto = onnx_chainer.export(chainer.Sequential(bn, bn), numpy.ones((4, 3), numpy.float32),
                                train=True)
    names = [t.name for t in proto.graph.initializer]
    # The link applied twice: one initializer per array, shared by both nodes.
    assert names.count('param_0_avg_mean') == 1 and names.count('param_0_avg_var') == 1
    nodes = [n for n in proto.graph.node if n.op_type == 'BatchNormalization']
    assert [list(n.input[3:]) for n in nodes] == [['param_0_avg_mean', 'param_0_avg_var']] * 2


def test_patched_functions_are_restored():
    original = F.n_step_gru, F.sign, chainer.functions.rnn.n_step_gru.n_step_gru

    class Broken(chainer.Chain):
        def forward(self, x):
            assert F.sign is not original[1]
            raise RuntimeError('model failure')
    with pytest.raises(RuntimeError, match='model failure'):
        onnx_chainer.export(Broken(), numpy.ones(2, numpy.float32))
    assert (F.n_step_gru, F.sign, chainer.functions.rnn.n_step_gru.n_step_gru) == original


def test_import_without_onnx_and_export_error():
    code = ("import sys; sys.modules['onnx'] = None\n"
            "import numpy, chainer, onnx_chainer\n"
            "assert onnx_chainer.MINIMUM_OPSET_VERSION == 7\n"
            "from onnx_chainer.export import RetainInputHook\n"
            "testcase = lambda m, x: onnx_chainer.export_testcase(m, x, 'o')\n"
            "for f in (onnx_chainer.export, testcase):\n"
            "    try:\n"
            "        f(chainer.Sequential(lambda x: x), numpy.ones(2, 'f'))\n"
            "    except ImportError as e:\n"
            "        print(e)\n")
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                         check=True).stdout
    assert out.count("pip install 'rechainer[onnx]'") == 2
    assert out.count('ONNX is not installed on your environment') == 2


class TestRetainInputHook:

    def _run(self, make_x, make_inputs):
        class Model(chainer.Chain):
            def forward(self, x):
                return F.stack(make_inputs(x) + [chainer.Variable(numpy.array(7, numpy.float32))])
        x = make_x()
        with RetainInputHook() as hook:
            Model()(x)
        return hook

    def test_variables_passed_to_links_are_not_retained(self):
        hook = self._run(lambda: chainer.Variable(numpy.array(3, numpy.float32)), lambda x: [x])
        assert len(hook.retain_inputs) == 1     # only the constant made inside forward

    def test_arrays_made_into_variables_inside_are_retained(self):
        hook = self._run(lambda: numpy.array(3, numpy.float32),
                         lambda x: [chainer.as_variable(x)])
        assert len(hook.retain_inputs) == 2
        assert len(hook.implicit_arrays) == 2


def test_export_testcase_layout_and_gradients(tmp_path):
    model = chainer.Sequential(L.Convolution2D(None, 4, 3, pad=1), F.relu, L.Linear(None, 5),
                               L.BatchNormalization(5), F.relu, L.Linear(5, 3))
    x = numpy.random.RandomState(0).uniform(-1, 1, (2, 3, 6, 6)).astype(numpy.float32)
    out = str(tmp_path / 'case')
    onnx_chainer.export_testcase(model, (x,), out, output_grad=True, input_names=['x'],
                                 output_names=['y'])
    data = os.path.join(out, 'test_data_set_0')
    files = sorted(os.listdir(data))
    n_params = len(list(model.params()))
    assert files == sorted(['input_0.pb', 'output_0.pb'] +
                           ['gradient_{}.pb'.format(i) for i in range(n_params)])
    assert onnx.load_tensor(os.path.join(data, 'input_0.pb')).name == 'x'
    assert onnx.load_tensor(os.path.join(data, 'output_0.pb')).name == 'y'
    initializers = {t.name for t in onnx.load(os.path.join(out, 'model.onnx')).graph.initializer}
    expected = dict((onnx_helper.cleanse_param_name(p), v) for p, v in model.namedparams())
    for i in range(n_params):
        t = onnx.load_tensor(os.path.join(data, 'gradient_{}.pb'.format(i)))
        assert t.name in initializers
        numpy.testing.assert_array_equal(onnx.numpy_helper.to_array(t), expected[t.name].grad)
    test_onnxruntime.check_model_expect(out)
    test_onnxruntime.check_model_expect(out, input_names=['x'])


def test_check_model_expect_finds_a_wrong_output(tmp_path):
    out = str(tmp_path / 'case')
    x = numpy.ones((2, 3), numpy.float32)
    onnx_chainer.export_testcase(chainer.Sequential(F.relu), x, out)
    onnx_helper.write_tensor_pb(os.path.join(out, 'test_data_set_0', 'output_0.pb'),
                                'ReLU_0', x * 2)
    with pytest.raises(AssertionError):
        test_onnxruntime.check_model_expect(out)


@pytest.mark.gpu
def test_model_on_gpu():
    import cupy
    model = chainer.Sequential(L.Linear(3, 4), F.relu)
    x = numpy.ones((2, 3), numpy.float32)
    with chainer.using_config('train', False):
        expected = model(x).array
    model.to_device('@cupy:0')
    proto = onnx_chainer.export(model, cupy.asarray(x))
    y = run_onnxruntime(proto, [x], [proto.graph.output[0].name])[0]
    numpy.testing.assert_allclose(y, expected, rtol=1e-5, atol=1e-5)
