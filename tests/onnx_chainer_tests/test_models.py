"""Whole models exported, run in ONNX Runtime with outputs equal to rechainer's, and their
graphs compared with Chainer 7.8.1's exports of the same models."""
import numpy
import pytest

import chainer

onnx = pytest.importorskip('onnx', reason="onnx is not installed (pip install 'rechainer[onnx]')")
pytest.importorskip('onnxruntime',
                    reason="onnxruntime is not installed (pip install 'rechainer[onnx]')")

import _differences  # NOQA
import onnx_chainer  # NOQA

from onnx_chainer_tests import _cases  # NOQA
from onnx_chainer_tests import _compare  # NOQA
from onnx_chainer_tests.test_converters import run_onnxruntime  # NOQA

pytestmark = [
    pytest.mark.filterwarnings('ignore:return_named_inout is experimental:FutureWarning'),
]

# name -> (rtol, atol relative to the largest output, departure key or None). ResNet50 with
# random weights reaches outputs of thousands, summed over deep chains in another order than
# NumPy's BLAS; its absolute tolerance is a millionth of that scale.
MODELS = {
    'mlp': (1e-5, 1e-5, None),
    'cnn': (1e-5, 1e-5, None),
    'resnet50': (1e-4, 1e-5, None),
    'vgg16': (1e-5, 1e-5, None),
    # Chainer 7.8.1 cannot export it: the permutation of the link's final states uses an
    # integer constant that its exporter leaves out of the graph.
    'n_step_gru': (1e-5, 1e-5, 'onnx:export:integer-constants'),
}


def _params():
    for name in _cases.MODELS:
        marks = [pytest.mark.slow] if name == 'vgg16' else []
        yield pytest.param(name, marks=marks, id=name)


@pytest.mark.parametrize('name', list(_params()))
def test_model(name):
    rtol, atol, departure = MODELS[name]
    model, args, kwargs = _cases.build_model(name)
    proto, _, outputs = onnx_chainer.export(model, args, return_named_inout=True, **kwargs)
    onnx.checker.check_model(proto)
    actual = run_onnxruntime(proto, args, outputs)
    for (out_name, expected), value in zip(outputs.items(), actual):
        expected = chainer.backend.CpuDevice().send(expected.array)
        scale = max(1.0, float(numpy.abs(expected).max()))
        numpy.testing.assert_allclose(value, expected, rtol=rtol, atol=atol * scale,
                                      err_msg=out_name)

    ref = _compare.reference()['models'][name]
    if departure is not None:
        assert _differences.expected(departure)
        assert 'error' in ref
        return
    diffs = _compare.differences(_cases.dump_model(proto), ref['dump'])
    assert not diffs, '\n'.join(diffs[:20])
