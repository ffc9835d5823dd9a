from chainer.testing import attr


def _mark_names(obj):
    return [m.name for m in getattr(obj, 'pytestmark', [])]


def test_markers():
    for name in ('gpu', 'cudnn', 'slow', 'ideep', 'chainerx'):
        decorator = getattr(attr, name)

        def f():
            pass

        assert _mark_names(decorator(f)) == [name]


def test_marker_on_class():
    @attr.slow
    class TestSlow:
        pass

    assert _mark_names(TestSlow) == ['slow']


def test_multi_gpu(monkeypatch):
    attr.get_gpu_count.cache_clear()
    monkeypatch.setenv('CHAINER_TEST_GPU_LIMIT', '0')
    try:
        @attr.multi_gpu(2)
        def f():
            pass
    finally:
        attr.get_gpu_count.cache_clear()
    marks = {m.name: m for m in f.pytestmark}
    assert set(marks) == {'gpu', 'multi_gpu', 'skipif'}
    assert marks['multi_gpu'].args == (2,)
    assert marks['skipif'].args == (True,)
    assert marks['skipif'].kwargs['reason'] == 'requires 2 GPUs'


def test_markers_are_registered(pytestconfig):
    registered = ' '.join(pytestconfig.getini('markers'))
    for name in ('gpu', 'multi_gpu', 'cudnn', 'slow', 'ideep', 'chainerx'):
        assert f'{name}:' in registered

