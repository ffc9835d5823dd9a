import subprocess
import sys

import pytest

import chainer


def test_fallback_sentinel():
    assert repr(chainer.Fallback) == 'Fallback'
    assert isinstance(chainer.Fallback, chainer._FallbackType)


def test_get_compute_mode():
    assert chainer.get_compute_mode() is None
    with chainer.using_config('compute_mode', 'cudnn_fast'):
        assert chainer.get_compute_mode() == 'cudnn_fast'


def test_link_hooks_are_per_thread():
    import threading
    hooks = chainer._get_link_hooks()
    assert hooks is chainer._get_link_hooks()
    assert len(hooks) == 0
    seen = []
    t = threading.Thread(target=lambda: seen.append(chainer._get_link_hooks()))
    t.start()
    t.join()
    assert seen[0] is not hooks


def test_lazy_names_fail_as_attribute_errors():
    # A name whose module does not exist (yet) must look absent, not crash.
    try:
        chainer.Link
    except AttributeError as e:
        assert 'chainer.link' in str(e)
    with pytest.raises(AttributeError):
        chainer.no_such_name
    assert chainer.chainerx.is_available() is False


def test_import_chainer_stays_light():
    code = ('import sys, chainer, chainer.backend; print([m for m in ("scipy", "cupy", '
            '"matplotlib", "h5py", "torch", "jax") if m in sys.modules])')
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == '[]'
