"""``python -m onnx_chainer MODULE:FACTORY --input-shape 1,3,224,224 -o model.onnx``.

Builds the model with ``FACTORY()`` from ``MODULE`` (a module name or a ``.py`` file), exports
it for random inputs of the given shapes, checks the file with ``onnx.checker`` and, when
ONNX Runtime is installed, runs it and compares its outputs with the model's (at another
batch size too with ``--dynamic-batch``). Prints a line per step; exits with 1 when the
outputs differ.
"""
import argparse
import copy
import importlib
import importlib.util
import os
import sys

import numpy

_FLOAT_RANGE = (-1.0, 1.0)


def _parse_shape(text):
    """``'1,3,224,224'`` or ``'2,5:int32'`` -> ``((1, 3, 224, 224), dtype)``."""
    shape_text, _, dtype_text = text.partition(':')
    try:
        shape = tuple(int(d) for d in shape_text.split(',') if d.strip())
        dtype = numpy.dtype(dtype_text or 'float32')
    except (ValueError, TypeError):
        raise argparse.ArgumentTypeError(
            'an input shape is comma-separated sizes with an optional :dtype '
            '(1,3,224,224 or 2,5:int32), got {!r}'.format(text))
    if any(d <= 0 for d in shape):
        raise argparse.ArgumentTypeError('sizes must be positive, got {!r}'.format(text))
    return shape, dtype


def _parser():
    p = argparse.ArgumentParser(
        prog='python -m onnx_chainer',
        description='Export a Chainer model to ONNX and check the file.')
    p.add_argument('factory', metavar='MODULE:FACTORY',
                   help='a module name or .py file, and a callable in it that returns the '
                        'model (a chainer.Link)')
    p.add_argument('--input-shape', dest='shapes', type=_parse_shape, action='append',
                   required=True, metavar='SHAPE[:DTYPE]',
                   help='shape of an input (repeat for more inputs), such as 1,3,224,224; '
                        'floats are drawn from [-1, 1), integers from [0, --int-high)')
    p.add_argument('-o', '--output', required=True, help='the ONNX file to write')
    p.add_argument('--opset', type=int, default=None,
                   help='ONNX opset (default: onnx_chainer.DEFAULT_OPSET_VERSION)')
    p.add_argument('--dynamic-batch', action='store_true',
                   help='name the first axis of every input "batch", so that the file runs '
                        'at any batch size')
    p.add_argument('--int-high', type=int, default=2,
                   help='integer inputs are drawn from [0, INT_HIGH) (default 2)')
    p.add_argument('--seed', type=int, default=0, help='seed of the inputs (default 0)')
    p.add_argument('--rtol', type=float, default=1e-4)
    p.add_argument('--atol', type=float, default=1e-5)
    return p


def _load_factory(spec):
    module_name, sep, attr = spec.rpartition(':')
    if not sep or not module_name or not attr:
        raise ValueError('expected MODULE:FACTORY, got {!r}'.format(spec))
    if module_name.endswith('.py') or os.sep in module_name:
        path = os.path.abspath(module_name)
        if not os.path.isfile(path):
            raise ValueError('no file {}'.format(path))
        loader = importlib.util.spec_from_file_location(
            os.path.splitext(os.path.basename(path))[0], path)
        module = importlib.util.module_from_spec(loader)
        sys.path.insert(0, os.path.dirname(path))
        loader.loader.exec_module(module)
    else:
        if '' not in sys.path and os.getcwd() not in sys.path:
            sys.path.insert(0, os.getcwd())
        module = importlib.import_module(module_name)
    try:
        return getattr(module, attr)
    except AttributeError:
        raise ValueError('{} has no attribute {!r}'.format(module_name, attr))


def _inputs(shapes, rng, int_high, batch=None):
    out = []
    for shape, dtype in shapes:
        if batch is not None:
            shape = (batch,) + shape[1:]
        if dtype.kind in 'iu':
            out.append(rng.randint(0, int_high, shape).astype(dtype))
        else:
            out.append(rng.uniform(*_FLOAT_RANGE, shape).astype(dtype))
    return out


def _forward(model, xs):
    """The model's outputs on ``xs`` (run on a copy, so that a model with a state is not
    changed), in the order it returns them, and their names for ``export``."""
    import chainer
    with chainer.using_config('train', False), chainer.using_config('enable_backprop', False):
        y = copy.deepcopy(model)(*xs)
    if isinstance(y, dict):
        names = {k: str(k) for k in y}
        ys = list(y.values())
    else:
        ys = list(y) if isinstance(y, (list, tuple)) else [y]
        names = ['output_{}'.format(i) for i in range(len(ys))]
    return [numpy.asarray(chainer.backend.CpuDevice().send(
        v.array if isinstance(v, chainer.Variable) else v)) for v in ys], names


def _compare(proto, model, xs, names, rtol, atol):
    # The largest difference of ONNX Runtime's outputs from the model's, or a failure text.
    import onnxruntime
    feeds = [v.name for v in proto.graph.input
             if v.name not in {t.name for t in proto.graph.initializer}]
    options = onnxruntime.SessionOptions()
    options.log_severity_level = 3
    session = onnxruntime.InferenceSession(proto.SerializeToString(), options,
                                           providers=['CPUExecutionProvider'])
    actual = session.run(names, dict(zip(feeds, xs)))
    expected, _ = _forward(model, xs)
    worst, ok = 0.0, True
    for a, e in zip(actual, expected):
        if a.shape != e.shape:
            return None, 'shape {} != {}'.format(a.shape, e.shape)
        if a.size:
            worst = max(worst, float(numpy.abs(a.astype(numpy.float64) - e).max()))
        ok = ok and numpy.allclose(a, e, rtol=rtol, atol=atol)
    return worst, None if ok else 'outside rtol={} atol={}'.format(rtol, atol)


def main(argv=None):
    args = _parser().parse_args(argv)

    def step(text):
        print('onnx_chainer: ' + text, flush=True)

    import chainer
    import onnx_chainer

    step('loading {}'.format(args.factory))
    try:
        factory = _load_factory(args.factory)
    except (ValueError, ImportError) as e:
        print('onnx_chainer: error: {}'.format(e), file=sys.stderr)
        return 2
    model = factory() if callable(factory) and not isinstance(factory, chainer.Link) else (
        factory)
    if not isinstance(model, chainer.Link):
        print('onnx_chainer: error: {} returned {}, not a chainer.Link'.format(
            args.factory, type(model).__name__), file=sys.stderr)
        return 2
    opset = args.opset if args.opset is not None else onnx_chainer.DEFAULT_OPSET_VERSION
    rng = numpy.random.RandomState(args.seed)
    xs = _inputs(args.shapes, rng, args.int_high)
    step('inputs: {}'.format(', '.join('{}{}'.format(x.dtype, list(x.shape)) for x in xs)))
    input_shapes = None
    if args.dynamic_batch:
        input_shapes = [('batch',) + x.shape[1:] for x in xs]
        if len(xs) == 1:
            input_shapes = input_shapes[0]
    step('exporting at opset {}{} to {}'.format(
        opset, ' with a dynamic batch axis' if args.dynamic_batch else '', args.output))
    _, output_names = _forward(model, xs)
    with chainer.using_config('train', False):
        proto = onnx_chainer.export(
            model, xs if len(xs) > 1 else xs[0], filename=args.output, opset_version=opset,
            input_shapes=input_shapes, output_names=output_names, no_testcase=True)
    step('wrote {} nodes, {} initializers, {} bytes'.format(
        len(proto.graph.node), len(proto.graph.initializer), os.path.getsize(args.output)))
    import onnx
    onnx.checker.check_model(proto)
    step('onnx.checker: the model is valid')
    try:
        import onnxruntime  # NOQA
    except ImportError:
        step('onnxruntime is not installed: outputs not compared')
        return 0
    names = list(output_names.values() if isinstance(output_names, dict) else output_names)
    batches = [None]
    if args.dynamic_batch:
        batches.append(xs[0].shape[0] + 2)
    status = 0
    for batch in batches:
        run_xs = xs if batch is None else _inputs(args.shapes, rng, args.int_high, batch)
        worst, failure = _compare(proto, model, run_xs, names, args.rtol, args.atol)
        where = 'batch size {}'.format(run_xs[0].shape[0] if run_xs[0].ndim else 1)
        if failure is None:
            step('ONNX Runtime at {}: outputs equal to the model (largest difference '
                 '{:.3g})'.format(where, worst))
        else:
            step('ONNX Runtime at {}: outputs DIFFER: {}'.format(where, failure))
            status = 1
    return status


if __name__ == '__main__':
    sys.exit(main())
