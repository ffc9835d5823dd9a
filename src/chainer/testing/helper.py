"""Small test helpers: requirement-based skips, warning assertions, call spying."""
import contextlib
import importlib
import importlib.metadata
import re
import sys
import unittest
import unittest.mock
import warnings

import pytest

try:
    from packaging.requirements import Requirement
    from packaging.version import Version
except ImportError:  # packaging is optional; a small parser covers plain specifiers
    Requirement = Version = None


def _version_key(text):
    # Enough of PEP 440 for the simple fallback: numeric release segments only.
    return tuple(int(p) for p in re.findall(r'\d+', text.split('+')[0])[:4])


_SIMPLE_OPS = {
    '==': lambda a, b: a == b, '!=': lambda a, b: a != b,
    '>=': lambda a, b: a >= b, '<=': lambda a, b: a <= b,
    '>': lambda a, b: a > b, '<': lambda a, b: a < b,
}


def _installed_version(name):
    """The installed version of the distribution ``name``, or None.

    rechainer is Chainer (and ChainerMN, which ships with it): without the ``chainer`` stand-in
    distribution installed, their version is the API level rechainer provides.
    """
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        if name.lower().replace('_', '-') in ('chainer', 'chainermn'):
            import chainer
            return chainer.__version__
        return None


def _simple_satisfied(requirement):
    match = re.fullmatch(r'\s*([A-Za-z0-9_.\-]+)\s*(.*)', requirement)
    if match is None:
        raise ValueError(f'cannot parse requirement {requirement!r}')
    name, spec = match.groups()
    version = _installed_version(name)
    if version is None:
        return False
    installed = _version_key(version)
    for clause in filter(None, (c.strip() for c in spec.split(','))):
        op = next((o for o in ('==', '!=', '>=', '<=', '>', '<') if clause.startswith(o)), None)
        if op is None:
            raise ValueError(f'cannot parse version clause {clause!r} in {requirement!r}')
        if not _SIMPLE_OPS[op](installed, _version_key(clause[len(op):])):
            return False
    return True


def _satisfied(requirement):
    if Requirement is None:
        return _simple_satisfied(requirement)
    req = Requirement(requirement)
    installed = _installed_version(req.name)
    if installed is None:
        return False
    return req.specifier.contains(Version(installed), prereleases=True)


def with_requires(*requirements):
    """Skips the decorated test unless every requirement is installed.

    Args:
        requirements (str): Distribution requirements such as ``'scipy>=1.10'`` or
            ``'h5py'``, checked against the installed distributions.

    Returns:
        A decorator for test functions, methods and classes.
    """
    return _skip_unless(all(_satisfied(r) for r in requirements),
                        f"requires: {','.join(requirements)}")


def without_requires(*requirements):
    """Skips the decorated test when every requirement is installed.

    The counterpart of :func:`with_requires`, for tests of what happens when an optional
    dependency (or a recent enough version of it) is missing.

    Args:
        requirements (str): Distribution requirements such as ``'scipy'``.

    Returns:
        A decorator for test functions, methods and classes.
    """
    return _skip_unless(not all(_satisfied(r) for r in requirements),
                        f"runs only without: {','.join(requirements)}")


def _skip_unless(run, reason):
    def decorator(obj):
        if run:
            return obj
        if isinstance(obj, type) and issubclass(obj, unittest.TestCase):
            obj = unittest.skip(reason)(obj)
        return pytest.mark.skip(reason=reason)(obj)

    return decorator


@contextlib.contextmanager
def assert_warns(expected):
    """Asserts that the ``with`` block issues a warning of category ``expected``.

    Args:
        expected (type): A ``Warning`` subclass.
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        yield caught
    if not any(issubclass(w.category, expected) for w in caught):
        issued = ', '.join(w.category.__name__ for w in caught) or 'none'
        raise AssertionError(f'{expected.__name__} not issued (issued: {issued})')


def _resolve(target):
    module_name, attr = target.rsplit('.', 1)
    parts = module_name.split('.')
    # Import the longest importable prefix, then walk attributes (classes, nested ones).
    for n in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module('.'.join(parts[:n]))
        except ImportError:
            continue
        for part in parts[n:]:
            obj = getattr(obj, part)
        return getattr(obj, attr)
    raise ImportError(f'cannot import any module from {target!r}')


def patch(target, *args, **kwargs):
    """``unittest.mock.patch`` that still calls the original object.

    The mock ``wraps`` the patched object, so calls are recorded (``call_count``,
    ``assert_called_with``...) while the behaviour stays the original one. Other
    arguments are passed to ``unittest.mock.patch``.
    """
    kwargs.setdefault('wraps', _resolve(target))
    return unittest.mock.patch(target, *args, **kwargs)


def run_module(name, file):
    """Runs the tests in ``file`` with pytest when ``name`` is ``'__main__'``.

    Lets a test file end with ``testing.run_module(__name__, __file__)`` and be run as a
    script.
    """
    if name == '__main__':
        sys.exit(pytest.main([file, '-v']))
