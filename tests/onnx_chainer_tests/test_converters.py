"""Every converter, from its lowest supported opset to 17: a small graph exported, checked by
``onnx.checker``, run in ONNX Runtime and compared with rechainer's forward pass, and compared
node by node with what Chainer 7.8.1's onnx_chainer exports (``_cases.CASES``; the recorded
answers come from ``tests/fixtures/make_onnx_reference.py``)."""
import warnings

import numpy
import pytest

import chainer

onnx = pytest.importorskip('onnx', reason="onnx is not installed (pip install 'rechainer[onnx]')")
ort = pytest.importorskip(
    'onnxruntime', reason="onnxruntime is not installed (pip install 'rechainer[onnx]')")

import _differences  # NOQA
import onnx_chainer  # NOQA
from onnx_chainer.functions import _registry  # NOQA

from onnx_chainer_tests import _cases  # NOQA
from onnx_chainer_tests import _compare  # NOQA

pytestmark = pytest.mark.filterwarnings('ignore:batch_matmul is deprecated:DeprecationWarning')

# Cases whose graph (or outcome) differs from Chainer 7.8.1's on purpose, with the key of the
# departure in docs/differences.md.
DEPARTURES = {
    'prelu': 'onnx:PReLUFunction:broadcast',
    'selu': 'onnx:SELU:graph',
    'rsqrt': 'onnx:Rsqrt:graph',
    'softplus_beta': 'onnx:Softplus:beta',
    'tile': 'onnx:Tile:repetitions',
    'tile_int': 'onnx:Tile:repetitions',
    'rollaxis_start': 'onnx:Rollaxis:start',
    'pad_value': 'onnx:Pad:constant_values',
    'permutate': 'onnx:export:integer-constants',
    'permutate_inv': 'onnx:export:integer-constants',
    'where': 'onnx:export:integer-constants',
    'resize_images': 'onnx:ResizeImages:graph',
    'convolution_2d_cover_all': 'onnx:Convolution2DFunction:cover_all',
    'convolution_nd_3d': 'onnx:ConvolutionND:dilate',
    'deconvolution_2d_groups': 'onnx:Deconvolution2DFunction:dilate',
    'embed_id_ignore': 'onnx:EmbedIDFunction:ignore_label',
    'identity': 'onnx:Identity:inputs',
    'average_pooling_nd_pad_value': 'onnx:AveragePoolingND:pad_value',
    'unpooling_2d_outsize': 'onnx:Unpooling2D:outsize',
    'repeat_list': 'onnx:Repeat:elementwise',
    'normalize_axis': 'onnx:NormalizeL2:eps',
    'n_step_gru': 'onnx:n_step_gru:graph',
    'n_step_gru_states': 'onnx:export:integer-constants',
    'unpooling_2d_overlap': 'onnx:Unpooling2D:stride',
    # Chainer 7.8.1's batch_matmul is a BatchMatMul, which it did not convert.
    'batch_matmul': 'onnx:onnx_chainer:converters',
}

LAST_OPSET = onnx_chainer.MAXIMUM_OPSET_VERSION


def _lowest(case):
    return max(onnx_chainer.MINIMUM_OPSET_VERSION, _registry.lowest_opset(case.converter))


# Opsets every case runs at in the default run: 11 (the default export), 13 and 17 (where
# several operators changed), and each opset where the case's converter changes its output;
# the other opsets of the loop run under the slow marker.
DEFAULT_OPSETS = (11, 13, 17)


def _params():
    out = []
    for case in _cases.CASES:
        if case.converter not in _registry.CONVERTERS:
            out.append(pytest.param(case, LAST_OPSET, id='{}-no-converter'.format(case.name)))
            continue
        lowest = _lowest(case)
        variants = getattr(_registry.CONVERTERS[case.converter], 'opset_versions', ())
        default = {lowest, *DEFAULT_OPSETS, *variants}
        for opset in range(lowest, LAST_OPSET + 1):
            marks = () if opset in default else (pytest.mark.slow,)
            out.append(pytest.param(case, opset, id='{}-{}'.format(case.name, opset),
                                    marks=marks))
    return out


def _session(model):
    options = ort.SessionOptions()
    options.log_severity_level = 3
    return ort.InferenceSession(model.SerializeToString(), options,
                                providers=['CPUExecutionProvider'])


def run_onnxruntime(model, args, output_names):
    """Runs ``model`` on ``args`` (fed to the graph inputs that are not initializers)."""
    initializers = {t.name for t in model.graph.initializer}
    names = [v.name for v in model.graph.input if v.name not in initializers]
    return _session(model).run(list(output_names), dict(zip(names, args)))


def export_case(case, opset):
    """Exports a fresh model of ``case``; returns ``(model proto, outputs by name, warnings)``."""
    model, args = case.build()
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter('always')
        proto, _, outputs = onnx_chainer.export(
            model, args, opset_version=opset, return_named_inout=True, **case.export)
    record = [w for w in record if 'is experimental' not in str(w.message)]
    return proto, args, outputs, record


def _reference(case, opset):
    # Chainer 7.8.1's export of the case, for the functions it converted.
    if not case.reference or case.converter not in _compare.reference()['converters']:
        return None
    return _compare.reference()['cases'].get(case.name, {}).get(str(opset))


def _check_reference(case, opset, proto=None, error=None, record=()):
    ref = _reference(case, opset)
    if ref is None:
        return
    departure = DEPARTURES.get(case.name)
    if departure is not None:
        assert _differences.expected(departure), (
            '{} differs from Chainer 7.8.1 as {}, which docs/differences.md must list'.format(
                case.name, departure))
        return
    if 'error' in ref:
        assert error is not None, '{}: Chainer 7.8.1 raised {}, rechainer exported'.format(
            case.name, ref['error'])
        assert type(error).__name__ == ref['error'][0]
        assert _compare.normalize_message(ref['error'][1]) in _compare.normalize_message(
            str(error))
        return
    assert error is None, '{}: Chainer 7.8.1 exported, rechainer raised {!r}'.format(
        case.name, error)
    diffs = _compare.differences(_cases.dump_model(proto), ref['dump'])
    assert not diffs, '\n'.join(diffs)
    ours = [[w.category.__name__, _compare.normalize_message(str(w.message))] for w in record]
    theirs = [[c, _compare.normalize_message(m)] for c, m in ref['warnings']]
    assert ours == theirs


@pytest.mark.parametrize('case,opset', _params())
def test_converter(case, opset):
    if case.converter not in _registry.CONVERTERS:
        # Chainer 7.8.1 has no converter for it either: the error names the function.
        model, args = case.build()
        with pytest.raises(ValueError, match='{} is not supported'.format(case.converter)):
            onnx_chainer.export(model, args, opset_version=opset, **case.export)
        _check_reference(case, opset, error=ValueError(
            '{} is not supported'.format(case.converter)))
        return
    try:
        proto, args, outputs, record = export_case(case, opset)
    except (ValueError, RuntimeError, NotImplementedError) as e:
        # A documented refusal of Chainer 7.8.1's (an option ONNX cannot express).
        ref = _reference(case, opset)
        assert ref is not None and 'error' in ref, 'export failed: {!r}'.format(e)
        _check_reference(case, opset, error=e)
        return
    onnx.checker.check_model(proto)
    assert proto.ir_version == onnx.helper.find_min_ir_version_for(proto.opset_import, True)
    if case.check_values:
        actual = run_onnxruntime(proto, args, outputs)
    elif case.evaluator_from is not None and opset >= case.evaluator_from:
        # Training mode, which ONNX Runtime's inference build ignores.
        from onnx.reference import ReferenceEvaluator
        initializers = {t.name for t in proto.graph.initializer}
        feeds = [v.name for v in proto.graph.input if v.name not in initializers]
        actual = ReferenceEvaluator(proto).run(list(outputs), dict(zip(feeds, args)))
    else:
        actual = None
    if actual is not None:
        for (name, expected), value in zip(outputs.items(), actual):
            numpy.testing.assert_allclose(value, chainer.backend.CpuDevice().send(
                expected.array), rtol=case.rtol, atol=case.atol, err_msg=name)
    _check_reference(case, opset, proto=proto, record=record)


def test_lowest_opset_refused():
    # Below a converter's lowest opset, Chainer 7.8.1's RuntimeError.
    case = _cases.by_name()['cosh']
    model, args = case.build()
    with pytest.raises(RuntimeError, match='cannot convert `Cosh` of Chainer with ONNX '
                                           'opset_version 8'):
        onnx_chainer.export(model, args, opset_version=8)


def test_every_converter_has_a_case():
    names = {case.converter for case in _cases.CASES}
    missing = sorted(set(_registry.CONVERTERS) - names)
    assert not missing


def test_converters_cover_chainer_781():
    # Every function Chainer 7.8.1's onnx_chainer converts has a converter here, from the same
    # lowest opset or a lower one (at or above 7, where both start).
    ref = _compare.reference()['converters']
    missing = sorted(set(ref) - set(_registry.CONVERTERS))
    assert not missing
    for name, versions in ref.items():
        if versions is None:
            assert _registry.lowest_opset(name) <= onnx_chainer.MINIMUM_OPSET_VERSION
        else:
            assert max(7, versions[0]) >= max(7, _registry.lowest_opset(name)), name


def test_converters_by_class_name():
    # The lookup key is the FunctionNode class name: each case's function really is the class
    # its converter is registered for.
    for case in _cases.CASES:
        if case.converter not in _registry.CONVERTERS:
            continue
        model, args = case.build()
        with chainer.using_config('train', case.export.get('train', False)):
            from onnx_chainer import mapping
            with mapping.patch_functions():
                y = model(*[chainer.Variable(a) for a in args])
        ys = y if isinstance(y, (list, tuple)) else [y]
        names = set()
        stack = [v.creator_node for v in ys if v.creator_node is not None]
        while stack:
            f = stack.pop()
            names.add(getattr(f, 'custom_function_node_name', None) or type(f).__name__)
            stack.extend(n.creator_node for n in f.inputs if n.creator_node is not None)
        assert case.converter in names, (case.name, names)
