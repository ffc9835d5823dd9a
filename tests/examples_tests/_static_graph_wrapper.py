"""Runs one of Chainer's example scripts with the static graph on or off.

    python _static_graph_wrapper.py SCRIPT on|off ARGS...

The script is imported from its own folder (unchanged) and its ``main()`` called with
ARGS as its command line, after ``chainer.config.use_static_graph`` was set and NumPy's
and Python's random generators were seeded, so that both runs draw the same numbers.
"""
import importlib.util
import os
import random
import sys

import numpy

import chainer


def main():
    script, mode = sys.argv[1], sys.argv[2]
    chainer.config.use_static_graph = mode == 'on'
    numpy.random.seed(0)
    random.seed(0)
    sys.argv = [script] + sys.argv[3:]
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    spec = importlib.util.spec_from_file_location('__example__', script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.main()


if __name__ == '__main__':
    main()
