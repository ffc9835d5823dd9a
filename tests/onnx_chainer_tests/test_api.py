"""The public surface of onnx_chainer: names and signatures against Chainer 7.8.1's, and the
helpers converters are written with."""
import importlib
import inspect
import os

import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L

onnx = pytest.importorskip('onnx', reason="onnx is not installed (pip install 'rechainer[onnx]')")

import onnx_chainer  # NOQA
from onnx_chainer import onnx_helper  # NOQA
from onnx_chainer.context import Context  # NOQA
from onnx_chainer.functions import _upgrade  # NOQA
from onnx_chainer.functions.converter import FunctionConverter  # NOQA
from onnx_chainer.functions.converter import FunctionConverterParams  # NOQA
from onnx_chainer.functions.opset_version import support  # NOQA
from onnx_chainer.replace_func import as_funcnode  # NOQA
from onnx_chainer.replace_func import fake_as_funcnode  # NOQA
from onnx_chainer.testing import input_generator  # NOQA

from onnx_chainer_tests import _compare  # NOQA

pytestmark = [
    pytest.mark.filterwarnings('ignore:external_converters is experimental:FutureWarning'),
]


def _surface_rows():
    for module, names in sorted(_compare.reference()['surface'].items()):
        for name, entry in sorted(names.items()):
            yield pytest.param(module, name, entry, id='{}.{}'.format(module, name))


@pytest.mark.parametrize('module,name,entry', list(_surface_rows()))
def test_public_name_as_chainer_781(module, name, entry):
    obj = getattr(importlib.import_module(module), name)
    if entry['kind'] == 'module':
        assert inspect.ismodule(obj)
        return
    if entry['kind'] == 'value':
        if entry.get('value') is not None:
            assert repr(obj) == entry['value']
        return
    assert (inspect.isclass(obj) if entry['kind'] == 'class' else callable(obj))
    # Converters with variants were ``(*args, **kwargs)`` wrappers in Chainer 7.8.1; here they
    # show the converter's own signature.
    if entry.get('signature') not in (None, '(*args, **kwargs)'):
        assert str(inspect.signature(obj)) == entry['signature']
    for method, signature in entry.get('methods', {}).items():
        assert str(inspect.signature(getattr(obj, method))) == signature, method


def test_export_signature():
    assert str(inspect.signature(onnx_chainer.export)) == (
        "(model, args, filename=None, export_params=True, graph_name='Graph', "
        "save_text=False, opset_version=None, input_names=None, output_names=None, "
        "train=False, return_named_inout=False, external_converters=None, "
        "external_opset_imports=None, input_shapes=None, no_testcase=False)")


class TestOnnxHelper:

    def setup_method(self):
        onnx_helper.set_func_name('Foo_3')

    def teardown_method(self):
        onnx_helper.set_func_name(None)

    def test_names_after_the_function(self):
        assert onnx_helper.get_func_name() == 'Foo_3'
        assert onnx_helper.make_node('Relu', ['a'], ['b']).name == 'Foo_3'
        gb = onnx_helper.GraphBuilder()
        h = gb.op('Relu', ['a'])
        parts = gb.op('Split', [h], num_outputs=2, axis=0)
        named = gb.op_output_named('Add', list(parts), ['Foo_3'])
        assert (h, parts, named) == ('Foo_3_tmp_0', ('Foo_3_tmp_1_0', 'Foo_3_tmp_1_1'),
                                     'Foo_3')
        assert gb.node_name() == 'Foo_3_tmp_3'
        nodes = gb.nodes()
        assert [n.name for n in nodes] == ['Foo_3_tmp_0', 'Foo_3_tmp_1', 'Foo_3_tmp_2']
        assert [a.name for a in nodes[1].attribute] == ['axis']

    def test_nodes_renames_the_last_output(self):
        gb = onnx_helper.GraphBuilder()
        gb.op('Split', ['x'], num_outputs=2)
        assert list(gb.nodes(['a', 'b'])[0].output) == ['a', 'b']
        with pytest.raises(ValueError, match='has 2 outputs, got 1'):
            gb.nodes(['a'])
        with pytest.raises(ValueError, match='no node'):
            onnx_helper.GraphBuilder().nodes(['y'])

    def test_func_name_must_be_set(self):
        onnx_helper.set_func_name(None)
        with pytest.raises(RuntimeError, match='no function is being converted'):
            onnx_helper.GraphBuilder()

    def test_tensor_files_and_param_names(self, tmp_path):
        path = str(tmp_path / 't.pb')
        onnx_helper.write_tensor_pb(path, 'nm', numpy.arange(6, dtype=numpy.float32).reshape(
            2, 3))
        t = onnx.load_tensor(path)
        assert t.name == 'nm' and list(t.dims) == [2, 3]
        assert os.listdir(str(tmp_path)) == ['t.pb']
        assert onnx_helper.cleanse_param_name('/l1/W') == 'param_l1_W'
        assert onnx_helper.cleanse_param_name('/a/b/c_d') == 'param_a_b_c_d'


class TestContext:

    def test_names(self):
        model = chainer.Sequential(L.Linear(3, 2), L.BatchNormalization(2))
        c = Context(model)
        assert c.get_name(model[0].W) == 'param_0_W'
        assert c.get_link(model[0].b) is model[0]
        v = chainer.Variable(numpy.ones(2, numpy.float32))
        name = c.get_name(v)
        assert name.startswith('v') and c.get_name(v) == name
        assert c.get_name(v.node) == name      # a variable and its node are one entry
        assert not c.is_pinned(v)
        c.set_name(v, 'given', pinned=True)
        c.set_name(v, 'later')
        assert c.get_name(v) == 'given' and c.is_pinned(v)
        assert c.get_name(model[1].avg_mean) == 'param_1_avg_mean'

    def test_constants_and_parameters(self):
        c = Context(chainer.Chain())
        onnx_helper.set_func_name('Foo_0')
        try:
            a = c.add_const(numpy.float32(2), 'value')
            b = c.add_const(numpy.float32(3), 'value')
            p = c.add_param(numpy.zeros(3, numpy.float32), 'bias')
            q = c.add_param(numpy.zeros(3, numpy.float32), 'orig', use_original_name=True)
        finally:
            onnx_helper.set_func_name(None)
        assert (a, b, p, q) == ('Foo_0_const_value', 'Foo_0_const_value_1',
                                'Foo_0_param_bias', 'orig')
        assert [n.op_type for n in c.constants] == ['Constant', 'Constant']
        assert [t.name for t in c.parameters] == ['Foo_0_param_bias', 'orig']


def test_support_selects_the_variant():
    calls = []

    @support((1, 6, 9))
    def convert(func, opset_version, *rest):
        calls.append(opset_version)
    for opset in (6, 7, 8, 9, 11):
        convert(object(), opset)
    assert calls == [6, 6, 6, 9, 9]
    assert convert.opset_versions == (1, 6, 9)

    @support((9,))
    def convert_late(func, opset_version, *rest):
        return opset_version
    with pytest.raises(RuntimeError, match='cannot convert `ReLU` of Chainer with ONNX '
                                           'opset_version 8'):
        convert_late(F.activation.relu.ReLU(), 8)


def test_function_converter_passes_params():
    seen = []
    conv = FunctionConverter(lambda *args: seen.append(args) or ())
    conv(FunctionConverterParams(func='f', opset_version=9, input_names=['a'],
                                 output_names=['b'], context='c'))
    assert seen == [('f', 9, ['a'], ['b'], 'c')]
    assert vars(FunctionConverterParams()) == dict.fromkeys(
        ['func', 'opset_version', 'input_names', 'output_names', 'context'])


class TestReplaceFunc:

    def test_attributes_and_values(self):
        with pytest.warns(FutureWarning, match='as_funcnode is experimental'):
            @as_funcnode('MyFunc', rename_attributes=[('b', 'beta'), (1, 'scale')])
            def myfunc(x, y, b=3, c=None):
                return x * y + b
        x = chainer.Variable(numpy.ones((2, 3), numpy.float32))
        z = myfunc(x, numpy.float32(2), b=5)
        node = z.creator
        assert node.custom_function_node_name == 'MyFunc'
        assert (node.scale, node.beta, node.c) == (2.0, 5, None)
        numpy.testing.assert_array_equal(z.array, numpy.full((2, 3), 7, numpy.float32))
        z.grad = numpy.ones_like(z.array)
        z.backward()
        numpy.testing.assert_array_equal(x.grad, numpy.full((2, 3), 2, numpy.float32))

    def test_structure_of_results_is_kept(self):
        f = fake_as_funcnode(lambda xs: (F.relu(xs[0]), [F.tanh(xs[1]), xs[0] * 2]), 'Multi',
                             experimental_warning=False)
        x = chainer.Variable(numpy.arange(3, dtype=numpy.float32) - 1)
        a, (b, c) = f([x, x])
        assert a.creator is b.creator is c.creator
        assert a.creator.inputs[0] is x.node and len(a.creator.inputs) == 2
        numpy.testing.assert_array_equal(c.array, x.array * 2)

    def test_errors(self):
        f = fake_as_funcnode(lambda x: x * 2, 'Twice', experimental_warning=False)
        with pytest.raises(ValueError, match='must include at least one chainer.Variable'):
            f(numpy.ones(2, numpy.float32))
        g = fake_as_funcnode(lambda x: (x, 3), 'Bad', experimental_warning=False)
        with pytest.raises(ValueError, match='must consist only array'):
            g(chainer.Variable(numpy.ones(2, numpy.float32)))

    def test_exported_as_one_node(self):
        f = fake_as_funcnode(lambda x: F.exp(F.log(x)), 'ExpLog', experimental_warning=False)

        def convert(params):
            return onnx_helper.make_node('Identity', params.input_names, params.output_names),
        model = onnx_chainer.export(chainer.Sequential(f), numpy.ones(3, numpy.float32),
                                    external_converters={'ExpLog': convert})
        assert [n.op_type for n in model.graph.node] == ['Identity']


def test_input_generators():
    numpy.testing.assert_array_equal(input_generator.increasing(2, 3), numpy.array(
        [[-1.5, -1, -0.5], [0, 0.5, 1]], numpy.float32))
    assert input_generator.increasing(3).dtype == numpy.float32
    numpy.testing.assert_array_equal(input_generator.increasing(2, 2, dtype=numpy.int32),
                                     [[-2, -1], [0, 1]])
    numpy.testing.assert_allclose(input_generator.nonzero_increasing(3, bias=0.25),
                                  [-0.25, 0.25, 0.75])
    numpy.testing.assert_allclose(input_generator.positive_increasing(3, bias=0.25),
                                  [0.25, 0.75, 1.25])
    numpy.testing.assert_array_equal(input_generator.shaped_range(2, 2), [[0, 1], [2, 3]])
    with pytest.raises(AssertionError):
        input_generator.nonzero_increasing(3, dtype=numpy.int32)


def test_upgrade_rewrites_nodes_of_later_opsets(monkeypatch):
    # Opset 13 moved Unsqueeze's axes from an attribute to an input. One rewrite registered
    # for 13 fixes the nodes of every converter that emits Unsqueeze; below 13 nothing changes.
    ort = pytest.importorskip('onnxruntime')
    model = chainer.Sequential(lambda v: F.expand_dims(v, 1))
    x = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    proto = onnx_chainer.export(model, x, opset_version=13)
    assert [n.op_type for n in proto.graph.node] == ['Constant', 'Unsqueeze']
    sess = ort.InferenceSession(proto.SerializeToString(), providers=['CPUExecutionProvider'])
    numpy.testing.assert_array_equal(sess.run(None, {'Input_0': x})[0], x[:, None])
    proto11 = onnx_chainer.export(model, x, opset_version=11)
    assert [n.op_type for n in proto11.graph.node] == ['Unsqueeze']
    # Without the rewrite, the attribute form is invalid at 13.
    monkeypatch.delitem(_upgrade.UPGRADES, 'Unsqueeze')
    with pytest.raises(onnx.checker.ValidationError):
        onnx_chainer.export(model, x, opset_version=13)


def test_opsets_above_the_maximum_warn():
    model = chainer.Sequential(F.relu)
    x = numpy.ones((2, 3), numpy.float32)
    with pytest.warns(UserWarning, match='tested only with opset_version 7 ~ 17'):
        onnx_chainer.export(model, x, opset_version=18)
