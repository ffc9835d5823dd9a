"""Loading and running the example scripts of examples/ from the tests."""
import importlib.util
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = os.path.join(ROOT, 'examples')


def load(relpath, name):
    """Imports ``examples/<relpath>`` as a module named ``name``."""
    spec = importlib.util.spec_from_file_location(name, os.path.join(EXAMPLES, relpath))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_script(relpath, *args, timeout=600, env=None):
    """Runs ``examples/<relpath>`` in a fresh interpreter (this one, with
    ``src`` first on the path); returns the CompletedProcess (output captured)."""
    full_env = dict(os.environ)
    full_env['PYTHONPATH'] = os.pathsep.join(
        [os.path.join(ROOT, 'src')] + ([os.environ['PYTHONPATH']]
                                       if os.environ.get('PYTHONPATH') else []))
    full_env['MPLBACKEND'] = 'Agg'
    full_env.update(env or {})
    return subprocess.run([sys.executable, os.path.join(EXAMPLES, relpath), *args],
                          capture_output=True, text=True, timeout=timeout, env=full_env)


def read_log(out):
    with open(os.path.join(out, 'log')) as f:
        return json.load(f)


def assert_png(path):
    """The file is a PNG that decodes to a non-empty, non-uniform image."""
    with open(path, 'rb') as f:
        assert f.read(8) == b'\x89PNG\r\n\x1a\n', f'{path} is not a PNG'
    import matplotlib.image
    image = matplotlib.image.imread(path)
    assert image.ndim == 3 and image.shape[0] > 100 and image.shape[1] > 100, image.shape
    assert image.min() < image.max(), f'{path} is blank'
