"""Runs the cases of ``_seed_cases`` on whichever chainer this interpreter imports.

    python _seed_runner.py OUT.npz [NAME ...]

writes, for every case (all when no name is given), ``NAME/out/<i>`` (its results) and
``NAME/next`` (the next number NumPy's global generator would give), or ``NAME/error`` (the
exception's type and message) when the case fails. The differential test runs it on both
frameworks and compares. Only NumPy and chainer are imported here, so Chainer 7.8.1's
interpreter runs it as it is.
"""
import os
import sys
import time
import warnings

import numpy


def _peek():
    # The next number the global generator gives, without moving it.
    state = numpy.random.get_state()
    value = numpy.random.random_sample()
    numpy.random.set_state(state)
    return value


def wait_for_position(iterator, settle=0.05, limit=5.0):
    """The next global draw once ``iterator``'s prefetching has stopped drawing.

    Chainer 7.8.1's MultiprocessIterator prefetches in a background thread; rechainer's
    draws in ``next`` itself, where this returns at once.
    """
    if not hasattr(iterator, '_prefetch_loop'):
        return _peek()
    deadline = time.time() + limit
    last = _peek()
    while time.time() < deadline:
        time.sleep(settle)
        now = _peek()
        if now == last:
            time.sleep(settle * 4)
            if _peek() == now:
                return now
        last = now
    return last


def run(names=None):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import _seed_cases
    import chainer
    from chainer import distributions, functions, initializers, links

    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        return _run_cases(names, _seed_cases.CASES, chainer, functions, links, initializers,
                          distributions)


def _run_cases(names, cases, chainer, functions, links, initializers, distributions):
    results = {}
    for name, code in cases.items():
        if names and name not in names:
            continue
        x = numpy.random.RandomState(1).uniform(0, 1, (4, 6)).astype(numpy.float32)
        scope = {'numpy': numpy, 'chainer': chainer, 'F': functions, 'L': links,
                 'I': initializers, 'D': distributions, 'x': x,
                 'wait_for_position': wait_for_position}
        numpy.random.seed(0)
        try:
            with chainer.using_config('train', True):
                exec(compile(code, f'<case {name}>', 'exec'), scope)
        except Exception as e:  # recorded: the other side must fail alike
            results[f'{name}/error'] = numpy.array(f'{type(e).__name__}: {e}')
            continue
        out = scope['out']
        if not isinstance(out, (list, tuple)):
            out = [out]
        for i, value in enumerate(out):
            results[f'{name}/out/{i}'] = numpy.asarray(value)
        results[f'{name}/next'] = numpy.array(_peek())
    return results


if __name__ == '__main__':
    numpy.savez(sys.argv[1], **run(set(sys.argv[2:])))
