"""``export_testcase``: a model and its inputs and outputs in the layout of ONNX's backend
tests."""
import os

import chainer
import numpy
from chainer import backend

from onnx_chainer.export import _lazy_attribute
from onnx_chainer.export import export  # NOQA

_LAZY = {'cleanse_param_name': ('onnx_chainer.onnx_helper', 'cleanse_param_name'),
         'write_tensor_pb': ('onnx_chainer.onnx_helper', 'write_tensor_pb')}


def __getattr__(name):
    return _lazy_attribute(__name__, _LAZY, name)


def export_testcase(model, args, out_dir, output_grad=False, **kwargs):
    """Exports ``model`` to ``out_dir/model.onnx`` with a test data set.

    ``out_dir/test_data_set_0`` gets ``input_<i>.pb`` and ``output_<i>.pb`` (ONNX tensors
    named as the graph's inputs and outputs) and, with ``output_grad``, ``gradient_<i>.pb``:
    the gradient of each parameter for an output gradient of ones.

    Args:
        model (~chainer.Chain): The model.
        args: Its inputs, as for :func:`onnx_chainer.export`.
        out_dir (str): The directory (created if needed).
        output_grad (bool): Also write the parameters' gradients.
        **kwargs: Further arguments of :func:`onnx_chainer.export`.
    """
    from onnx_chainer import _onnx
    from onnx_chainer.export import _export_main
    _onnx.require()
    from onnx_chainer import onnx_helper
    if 'return_named_inout' in kwargs or 'filename' in kwargs:
        raise TypeError('export_testcase: return_named_inout and filename are set by '
                        'export_testcase itself')
    os.makedirs(out_dir, exist_ok=True)
    if output_grad:
        model.cleargrads()
    kwargs['no_testcase'] = True
    _, inputs, outputs = _export_main(
        model, args, filename=os.path.join(out_dir, 'model.onnx'), return_named_inout=True,
        warn_experimental=False, **kwargs)

    test_dir = os.path.join(out_dir, 'test_data_set_0')
    os.makedirs(test_dir, exist_ok=True)
    for i, (name, var) in enumerate(inputs.items()):
        onnx_helper.write_tensor_pb(os.path.join(test_dir, 'input_{}.pb'.format(i)), name,
                                    _cpu(var.array))
    for i, (name, var) in enumerate(outputs.items()):
        onnx_helper.write_tensor_pb(os.path.join(test_dir, 'output_{}.pb'.format(i)), name,
                                    _cpu(var.array))
    if output_grad:
        outs = list(outputs.values())
        chainer.backward(outs, [chainer.Variable(v.xp.ones_like(v.array)) for v in outs])
        i = 0
        for path, param in model.namedparams():
            if param.grad is None:
                continue
            onnx_helper.write_tensor_pb(
                os.path.join(test_dir, 'gradient_{}.pb'.format(i)),
                onnx_helper.cleanse_param_name(path), _cpu(param.grad))
            i += 1


def _cpu(array):
    return numpy.asarray(backend.CpuDevice().send(array))
