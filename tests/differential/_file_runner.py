"""Runs the cases of ``_file_cases`` on whichever chainer this interpreter imports.

    python _file_runner.py WORKDIR write [CASE ...]    # save mid-run, carry on, observe
    python _file_runner.py WORKDIR read ORIGIN [CASE ...]  # load ORIGIN's files, carry on
    python _file_runner.py WORKDIR surface             # the classes that serialize

Files go to ``WORKDIR/<framework>/``: ``<case>.<point>.npz`` and ``.h5`` (or ``.h5.refused``
holding the writer's error), ``<case>.<point>.obs.npz`` (what the uninterrupted run
observed), ``<case>.<point>.<fmt>.from-<origin>.obs.npz`` (what a run resumed from ORIGIN's
file observed, or ``.error`` when the load failed), ``surface.json``. Several modes may
follow one another in one call, separated by ``--``. Only NumPy and chainer are imported
here, so Chainer 7.8.1's interpreter runs it as it is.
"""
import json
import os
import sys
import traceback
import warnings

import numpy

HERE = os.path.dirname(os.path.abspath(__file__))
FORMATS = ('npz', 'h5')


def framework():
    """``rechainer`` or ``chainer`` (defined once, beside this script)."""
    import _seed_training
    return _seed_training.framework()


def _cases(names):
    # Named cases, or (without names) every case but the slow ones (or only the slow ones
    # with the name 'slow').
    import _file_cases
    cases = _file_cases.CASES.values()
    if names == {'slow'}:
        return [c for c in cases if c.slow]
    return [c for c in cases if (c.name in names if names else not c.slow)]


def _save_all(case, base, obj):
    import chainer
    chainer.serializers.save_npz(base + '.npz', obj, compression=case.compression)
    if 'h5' not in case.formats:
        return
    try:
        chainer.serializers.save_hdf5(base + '.h5', obj)
    except Exception as e:
        if os.path.exists(base + '.h5'):
            os.remove(base + '.h5')
        with open(base + '.h5.refused', 'w') as f:
            f.write(f'{type(e).__name__}: {e}')


def _save_observed(path, observed):
    numpy.savez(path, **{k: numpy.asarray(v) for k, v in observed.items()})


def write(workdir, names):
    side = os.path.join(workdir, framework())
    for case in _cases(names):
        for point in case.points:
            base = os.path.join(side, f'{case.name}.{point}')
            scratch = os.path.join(side, 'scratch', f'{case.name}.{point}.write')
            os.makedirs(scratch, exist_ok=True)
            numpy.random.seed(0)
            ctx = None
            try:
                ctx = case.make(scratch)
                case.run(ctx, point, lambda obj: _save_all(case, base, obj))
                _save_observed(base + '.obs.npz', case.observe(ctx, point))
            except Exception:
                with open(base + '.write-error', 'w') as f:
                    f.write(traceback.format_exc())
                for fmt in FORMATS:  # what a failed save left behind
                    if os.path.exists(f'{base}.{fmt}'):
                        os.remove(f'{base}.{fmt}')
            finally:
                if ctx is not None:
                    case.close(ctx)


def read(workdir, origin, names):
    import chainer
    side = os.path.join(workdir, framework())
    for case in _cases(names):
        for point in case.points:
            for fmt in case.formats:
                source = os.path.join(workdir, origin, f'{case.name}.{point}.{fmt}')
                if not os.path.exists(source):
                    continue
                base = os.path.join(side, f'{case.name}.{point}.{fmt}.from-{origin}')
                scratch = os.path.join(side, 'scratch', f'{case.name}.{point}.{fmt}.{origin}')
                os.makedirs(scratch, exist_ok=True)
                numpy.random.seed(1)  # another start: what is not loaded differs
                ctx = None
                try:
                    load = (chainer.serializers.load_npz if fmt == 'npz'
                            else chainer.serializers.load_hdf5)
                    try:
                        ctx = case.make_loaded(scratch, source)
                        if ctx is None:
                            ctx = case.make(scratch)
                            load(source, case.target(ctx))
                    except Exception as e:
                        with open(base + '.error', 'w') as f:
                            f.write(f'{type(e).__name__}: {e}')
                        continue
                    case.resume(ctx, point)
                    _save_observed(base + '.obs.npz', case.observe(ctx, point))
                except Exception:
                    with open(base + '.run-error', 'w') as f:
                        f.write(traceback.format_exc())
                finally:
                    if ctx is not None:
                        case.close(ctx)


def surface(workdir):
    import _file_cases
    path = os.path.join(workdir, framework(), 'surface.json')
    with open(path, 'w') as f:
        json.dump(_file_cases.reference_surface(), f)


def main(argv):
    sys.path.insert(0, HERE)
    workdir = argv[0]
    os.makedirs(os.path.join(workdir, framework()), exist_ok=True)
    commands = []
    current = []
    for arg in argv[1:]:
        if arg == '--':
            commands.append(current)
            current = []
        else:
            current.append(arg)
    commands.append(current)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        for command in commands:
            mode, *rest = command
            if mode == 'write':
                write(workdir, set(rest))
            elif mode == 'read':
                read(workdir, rest[0], set(rest[1:]))
            elif mode == 'surface':
                surface(workdir)
            else:
                raise SystemExit(f'unknown mode {mode!r}')


if __name__ == '__main__':
    main(sys.argv[1:])
