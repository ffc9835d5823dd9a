"""Graphs free of the batch size: exported once with named dimensions in ``input_shapes``, run
in ONNX Runtime at other sizes and compared with rechainer at those sizes."""
import copy
import warnings

import numpy
import pytest

import chainer

onnx = pytest.importorskip('onnx', reason="onnx is not installed (pip install 'rechainer[onnx]')")
pytest.importorskip('onnxruntime',
                    reason="onnxruntime is not installed (pip install 'rechainer[onnx]')")

import onnx_chainer  # NOQA
from onnx_chainer import _dynamic  # NOQA
from onnx_chainer.functions import _registry  # NOQA

from onnx_chainer_tests import _cases  # NOQA
from onnx_chainer_tests.test_converters import run_onnxruntime  # NOQA

pytestmark = [
    pytest.mark.filterwarnings('ignore:return_named_inout is experimental:FutureWarning'),
    pytest.mark.filterwarnings('ignore:batch_matmul is deprecated:DeprecationWarning'),
]


def _grow(array, n, axis=0):
    # ``array`` with ``n`` entries along ``axis``, its rows repeated (labels stay valid).
    return numpy.take(array, numpy.arange(n) % array.shape[axis], axis=axis)


def _flat(y):
    return list(y) if isinstance(y, (list, tuple)) else [y]


def _forward(model, args, train=False):
    with chainer.using_config('train', train):
        return [chainer.backend.CpuDevice().send(v.array)
                for v in _flat(model(*[chainer.Variable(a) for a in args]))]


def _export(model, args, shapes, opset, **kwargs):
    """Exports with the outputs named in the model's order; fails on any warning that a size
    was written as traced."""
    with chainer.using_config('train', kwargs.get('train', False)):
        n_out = len(_flat(copy.deepcopy(model)(*[chainer.Variable(a) for a in args])))
    names = ['out{}'.format(i) for i in range(n_out)]
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter('always')
        proto = onnx_chainer.export(model, args, opset_version=opset, input_shapes=shapes,
                                    output_names=names, **kwargs)
    traced = [str(w.message) for w in record if 'as traced' in str(w.message)]
    assert not traced, traced
    onnx.checker.check_model(proto)
    return proto, names


def _case_params():
    for case in _cases.CASES:
        if not case.batch or not case.check_values or (
                case.converter not in _registry.CONVERTERS):
            continue
        yield pytest.param(case, 17, id='{}-17'.format(case.name))
        if _registry.lowest_opset(case.converter) <= 11:
            yield pytest.param(case, 11, id='{}-11'.format(case.name), marks=pytest.mark.slow)


@pytest.mark.parametrize('case,opset', list(_case_params()))
def test_converter_is_batch_free(case, opset):
    """With the first axis of the inputs named, the graph runs at another batch size."""
    model, args = case.build()
    if not args or args[0].ndim == 0:
        pytest.skip('no batch axis')
    batch = args[0].shape[0]
    named = [a.ndim > 0 and a.shape[0] == batch for a in args]
    bigger = tuple(_grow(a, batch + 2) if n else a for a, n in zip(args, named))
    train = case.export.get('train', False)
    try:
        expected = _forward(case.build()[0], bigger, train)
    except Exception:  # NOQA: the function itself ties the first axis to other sizes
        pytest.skip('rechainer does not run the case at another batch size')
    with chainer.using_config('train', train):
        n_out = len(_flat(case.build()[0](*args)))
    if len(expected) != n_out:
        pytest.skip('the number of outputs is the batch size')
    shapes = [('batch',) + a.shape[1:] if n else a.shape for a, n in zip(args, named)]
    proto, names = _export(model, args, shapes, opset, **case.export)
    for name, value, want in zip(names, run_onnxruntime(proto, bigger, names), expected):
        numpy.testing.assert_allclose(value, want, rtol=case.rtol, atol=case.atol,
                                      err_msg=name)


# -- whole models at opset 17, one file for batch sizes 1 and 7 -------------------------------

def _model(name):
    rng = numpy.random.RandomState(3)
    if name == 'lstm_lm':
        numpy.random.seed(5)
        x = rng.randint(0, 11, (2, 5)).astype(numpy.int32)
        return _cases.LSTMLM(), x, ('batch', 'length'), (lambda n: rng.randint(
            0, 11, (n, 3 + n)).astype(numpy.int32))
    model, (x,), _ = _cases.build_model(name)
    shape = ('batch',) + x.shape[1:]
    return model, x, shape, lambda n: rng.uniform(-1, 1, (n,) + x.shape[1:]).astype(
        numpy.float32)


# name -> (rtol, atol relative to the largest output); ResNet50 as in test_models.
MODELS = {'mlp': (1e-5, 1e-5), 'cnn': (1e-5, 1e-5), 'resnet50': (1e-4, 1e-5),
          'lstm_lm': (1e-5, 1e-5)}


@pytest.mark.parametrize('name', sorted(MODELS))
def test_model_at_batch_sizes_1_and_7(name):
    rtol, atol = MODELS[name]
    model, x, shape, make = _model(name)
    proto, names = _export(model, (x,), shape, 17)
    dims = [v for v in proto.graph.input if v.name == 'Input_0'][0].type.tensor_type.shape.dim
    assert [d.dim_param for d in dims[:len(shape)] if d.dim_param] == [
        d for d in shape if isinstance(d, str)]
    for n in (1, 7):
        xs = make(n)
        expected = _forward(model, (xs,))[0]
        actual = run_onnxruntime(proto, (xs,), names)[0]
        scale = max(1.0, float(numpy.abs(expected).max()))
        numpy.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol * scale)


def test_lstm_lm_graph_has_no_node_per_sequence():
    # The batch's sequences and steps are not split into nodes of their own: two LSTM nodes,
    # no Split, whatever the traced sizes.
    model, x, shape, _ = _model('lstm_lm')
    proto, _ = _export(model, (x,), shape, 17)
    ops = [n.op_type for n in proto.graph.node]
    assert ops.count('LSTM') == 2 and 'Split' not in ops and 'Squeeze' in ops


# -- the sizes found by probing ----------------------------------------------------------------

@pytest.mark.parametrize('base,probes,sizes,expected', [
    (6, {'b': 6}, {'b': 2}, 6),                                      # fixed
    (2, {'b': 3}, {'b': 2}, _dynamic.Dim(1, ('b',), 0, 2)),           # the batch
    (12, {'b': 18, 't': 16}, {'b': 2, 't': 3}, _dynamic.Dim(2, ('b', 't'), 0, 12)),  # merged
    (3, {'b': 4}, {'b': 2}, _dynamic.Dim(1, ('b',), 1, 3)),           # one row more
    (4, {'b': 6}, {'b': 2}, _dynamic.Dim(2, ('b',), 0, 4)),           # two per sample
    (1, {'b': 2}, {'b': 1}, _dynamic.Dim(1, ('b',), 0, 1)),           # traced at 1
])
def test_sizes_as_expressions(base, probes, sizes, expected):
    assert _dynamic._solve(base, probes, sizes) == expected


def test_size_without_expression_is_unknown():
    dim = _dynamic._solve(5, {'b': 9, 't': 7}, {'b': 2, 't': 3})
    assert isinstance(dim, _dynamic.Dim) and not dim.known and dim != dim


def test_model_whose_graph_follows_the_batch_warns():
    # A model with a function per sample: the exporter keeps the traced sizes and says so.
    model = chainer.Sequential(lambda x: chainer.functions.stack(
        [chainer.functions.relu(r) for r in chainer.functions.separate(x)]))
    x = numpy.ones((2, 3), numpy.float32)
    with pytest.warns(UserWarning, match='builds another graph'):
        onnx_chainer.export(model, x, input_shapes=('batch', 3), opset_version=17)


def test_probing_leaves_the_model_and_random_state_as_they_were():
    model = chainer.Sequential(chainer.links.BatchNormalization(3),
                               lambda h: chainer.functions.dropout(h, 0.5))
    x = numpy.random.RandomState(0).uniform(size=(4, 3)).astype(numpy.float32)
    numpy.random.seed(1)
    onnx_chainer.export(model, x, train=True, opset_version=17)
    after_plain = (numpy.random.rand(), model[0].avg_mean.copy())
    model2 = chainer.Sequential(chainer.links.BatchNormalization(3),
                                lambda h: chainer.functions.dropout(h, 0.5))
    numpy.random.seed(1)
    onnx_chainer.export(model2, x, train=True, opset_version=17, input_shapes=('b', 3))
    assert numpy.random.rand() == after_plain[0]
    numpy.testing.assert_array_equal(model2[0].avg_mean, after_plain[1])


def test_one_name_for_dimensions_of_different_sizes():
    # ONNX only labels dimensions: one name on inputs traced at other sizes is allowed, and
    # each size is probed on its own.
    model = chainer.Sequential(lambda a, b: chainer.functions.reshape(
        chainer.functions.concat((a, b), axis=0), (-1, 2, 3)))
    a, b = numpy.ones((4, 6), numpy.float32), numpy.ones((2, 6), numpy.float32)
    assert sorted(_dynamic.symbols_of([('n', 6), ('n', 6)], [a, b])) == ['n#2', 'n#4']
    proto, names = _export(model, (a, b), [('n', 6), ('n', 6)], 17)
    a2, b2 = numpy.ones((6, 6), numpy.float32), numpy.ones((2, 6), numpy.float32)
    assert run_onnxruntime(proto, (a2, b2), names)[0].shape == (8, 2, 3)
