import io
import subprocess
import sys
import threading

import numpy as np
import pytest

import chainer


def test_defaults():
    c = chainer.config
    assert c.train is True and c.enable_backprop is True and c.type_check is True
    assert c.debug is False and c.lazy_grad_sum is False and c.use_cudnn == 'auto'
    assert c.use_ideep == 'never' and c.dtype == np.float32 and c.autotune is False
    assert c.cudnn_deterministic is False and c.keep_graph_on_report is False
    assert c.in_recomputing is False and c.schedule_func is None
    assert c.use_static_graph is True and c.warn_nondeterministic is False
    assert c.compute_mode is None and c.use_cudnn_tensor_core == 'auto'


def test_using_config_restores_and_deletes():
    with chainer.using_config('train', False):
        assert chainer.config.train is False
        with chainer.using_config('train', True):
            assert chainer.config.train is True
        assert chainer.config.train is False
    assert chainer.config.train is True
    with chainer.using_config('my_new_key', 3):
        assert chainer.config.my_new_key == 3
    with pytest.raises(AttributeError):
        chainer.config.my_new_key


def test_using_config_is_reusable_and_a_decorator():
    # Chainer returns a context object that can be entered again; no_backprop_mode()
    # objects are commonly kept and reused.
    ctx = chainer.using_config('train', False)
    for _ in range(2):
        with ctx:
            assert chainer.config.train is False
            with ctx:
                assert chainer.config.train is False
            assert chainer.config.train is False
        assert chainer.config.train is True

    @chainer.using_config('train', False)
    def f():
        return chainer.config.train

    assert f() is False and f() is False and chainer.config.train is True
    nb = chainer.no_backprop_mode()
    x = chainer.Variable(np.ones(1, np.float32))
    for _ in range(2):
        with nb:
            assert (x * 2).creator is None
    assert (x * 2).creator is not None


def test_using_config_decorator_in_threads():
    seen = []

    @chainer.using_config('user_flag', 1)
    def work(i):
        seen.append(chainer.config.user_flag)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen == [1] * 8
    assert not hasattr(chainer.config, 'user_flag')


def test_thread_isolation():
    seen = {}

    def worker():
        seen['before'] = chainer.config.train
        chainer.config.train = 'thread'
        seen['after'] = chainer.config.train

    with chainer.using_config('train', False):
        t = threading.Thread(target=worker)
        t.start()
        t.join()
        assert chainer.config.train is False
    assert seen == {'before': True, 'after': 'thread'}


def test_global_config_visible_everywhere():
    chainer.global_config.some_flag = 1
    try:
        out = {}
        t = threading.Thread(target=lambda: out.setdefault('v', chainer.config.some_flag))
        t.start()
        t.join()
        assert out['v'] == 1
    finally:
        del chainer.global_config.some_flag


def test_show():
    buf = io.StringIO()
    with chainer.using_config('train', False):
        chainer.config.show(buf)
    lines = buf.getvalue().splitlines()
    keys = [line.split()[0] for line in lines]
    assert keys == sorted(keys)
    assert any(line.split() == ['train', 'False'] for line in lines)
    buf = io.StringIO()
    chainer.global_config.show(buf)
    assert 'type_check' in buf.getvalue()


def test_debug_helpers():
    assert not chainer.is_debug()
    chainer.set_debug(True)
    try:
        assert chainer.is_debug()
    finally:
        chainer.set_debug(False)
    with chainer.DebugMode(True):
        assert chainer.is_debug()


def test_get_dtype_and_mixed16():
    assert chainer.get_dtype() == np.float32
    with chainer.using_config('dtype', chainer.mixed16):
        assert chainer.get_dtype() == np.float16
        assert chainer.get_dtype(map_mixed16=np.float32) == np.float32
    assert chainer.mixed16 == 'mixed16' and str(chainer.mixed16) == 'mixed16'


def test_print_runtime_info():
    buf = io.StringIO()
    chainer.print_runtime_info(buf)
    text = buf.getvalue()
    assert 'Chainer: 7.8.1' in text and 'NumPy: ' in text and 'iDeep: Not Available' in text


@pytest.mark.parametrize('env, expr, expected', [
    ({'CHAINER_DEBUG': '1'}, 'chainer.config.debug', 'True'),
    ({'CHAINER_TYPE_CHECK': '0'}, 'chainer.config.type_check', 'False'),
    ({'CHAINER_DTYPE': 'float16'}, 'chainer.config.dtype', 'float16'),
    ({'CHAINER_DTYPE': 'mixed16'}, 'chainer.config.dtype', 'mixed16'),
    ({'CHAINER_LAZY_GRAD_SUM': '1'}, 'chainer.config.lazy_grad_sum', 'True'),
    ({'CHAINER_USE_CUDNN': 'never'}, 'chainer.config.use_cudnn', 'never'),
])
def test_environment_defaults(env, expr, expected):
    import os
    full = dict(os.environ, **env)
    out = subprocess.run([sys.executable, '-c', f'import chainer; print({expr})'],
                         env=full, capture_output=True, text=True, check=True).stdout.strip()
    assert out == expected


def test_bad_dtype_environment():
    import os
    r = subprocess.run([sys.executable, '-c', 'import chainer'],
                       env=dict(os.environ, CHAINER_DTYPE='int8'), capture_output=True, text=True)
    assert r.returncode != 0 and 'CHAINER_DTYPE' in r.stderr


def test_import_is_light():
    code = ('import sys, time; t = time.time(); import chainer; '
            'bad = [m for m in ("scipy", "cupy", "matplotlib", "h5py", "mpi4py", "onnx") '
            'if m in sys.modules]; print(bad)')
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == '[]'
