"""The deliberate departures from Chainer 7.8.1 listed in ``docs/differences.md``.

The differential checks call :func:`expected` with a difference's key: a listed key makes the
difference expected; anything else they find is a failure.
"""
import functools
import pathlib
import re

PATH = pathlib.Path(__file__).resolve().parent.parent / 'docs' / 'differences.md'
_ENTRY = re.compile(r'^- `([^`]+)`')
AREAS = frozenset(('name', 'signature', 'message', 'function', 'link', 'optimizer', 'serializer',
                   'file', 'random', 'chainermn', 'onnx', 'static_graph', 'core'))


@functools.lru_cache(maxsize=None)
def entries():
    """Returns ``{key: text}`` for every entry of the file, in order."""
    out = {}
    key = None
    for line in PATH.read_text(encoding='utf-8').splitlines():
        m = _ENTRY.match(line)
        if m:
            key = m.group(1)
            if key in out:
                raise ValueError(f'{PATH.name}: key {key!r} is listed twice')
            out[key] = line[m.end():].strip()
        elif key is not None and line.startswith('  ') and line.strip():
            out[key] += ' ' + line.strip()
        else:
            key = None
    return out


def expected(key):
    """Whether ``key`` is a listed departure."""
    return key in entries()


def keys(prefix=''):
    """The listed keys that start with ``prefix``."""
    return frozenset(k for k in entries() if k.startswith(prefix))
