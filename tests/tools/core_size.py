"""Line counts of the core, as issue 31 measures them: physical lines, docstrings and comments
included, of the core's modules together, of ``FunctionNode.apply`` and of the engine's run
loop (``chainer._backprop._run``).

    python tests/tools/core_size.py [--check]

``--check`` exits with status 1 when a count exceeds the bound that issue 31 set (later
issues may raise them for what their features need).
"""
import argparse
import inspect
import sys

import chainer
from chainer import _backprop
from chainer import _backprop_utils
from chainer import function_node
from chainer import variable

MODULES = (variable, function_node, _backprop, _backprop_utils)
BOUNDS = {'core modules': 1700, 'FunctionNode.apply': 40, '_backprop._run': 40}


def counts():
    """Returns ``{what: physical lines}`` for the measured pieces and each core module."""
    per_module = {m.__name__: len(inspect.getsource(m).splitlines()) for m in MODULES}
    return {
        **per_module,
        'core modules': sum(per_module.values()),
        'FunctionNode.apply': len(inspect.getsource(function_node.FunctionNode.apply)
                                  .splitlines()),
        '_backprop._run': len(inspect.getsource(_backprop._run).splitlines()),
    }


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('--check', action='store_true', help='exit 1 when over a bound')
    args = p.parse_args()
    over = False
    print(f'chainer: {chainer.__file__}')
    for what, n in counts().items():
        bound = BOUNDS.get(what)
        mark = '' if bound is None else f'  (bound {bound}{", OVER" if n > bound else ""})'
        over = over or (bound is not None and n > bound)
        print(f'{what:28} {n:5d}{mark}')
    if args.check and over:
        sys.exit(1)


if __name__ == '__main__':
    main()
