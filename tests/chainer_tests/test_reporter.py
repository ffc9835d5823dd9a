import threading
import warnings

import numpy as np
import pytest

import chainer
from chainer import reporter as reporter_module
from chainer_tests import _serializers


def test_observers_prefix_keys_and_unregistered_observer_is_key_error():
    r = chainer.Reporter()
    link, other = object(), object()
    r.add_observer('main', link)
    r.add_observers('main/', [('l1', other)])
    r.report({'loss': 1.}, link)
    r.report({'acc': 2.}, other)
    r.report({'plain': 3.})
    assert r.observation == {'main/loss': 1., 'main/l1/acc': 2., 'plain': 3.}
    with pytest.raises(KeyError):
        r.report({'x': 1}, object())


def test_current_reporter_stack_scope_and_report_scope():
    r1, r2 = chainer.Reporter(), chainer.Reporter()
    with pytest.raises(IndexError):
        chainer.get_current_reporter()
    chainer.report({'ignored': 1})  # no reporter: nothing happens
    with r1:
        obs = {}
        with r2.scope(obs):
            assert chainer.get_current_reporter() is r2
            chainer.report({'x': 1})
        assert obs == {'x': 1} and r2.observation == {}
        inner = {}
        with chainer.report_scope(inner):
            chainer.report({'y': 2})
        assert inner == {'y': 2} and 'y' not in r1.observation
        assert chainer.get_current_reporter() is r1


def test_reporter_is_per_thread():
    seen = []
    r = chainer.Reporter()

    def other():
        try:
            chainer.get_current_reporter()
        except IndexError:
            seen.append('none')

    with r:
        t = threading.Thread(target=other)
        t.start()
        t.join()
    assert seen == ['none']


@pytest.mark.parametrize('keep', [False, True])
def test_reported_variable_graph(keep):
    x = chainer.Variable(np.array([1.], np.float32))
    y = x * 2
    r = chainer.Reporter()
    with chainer.using_config('keep_graph_on_report', keep):
        r.report({'y': y})
    assert (r.observation['y'].creator is not None) == keep
    assert r.observation['y'].array is y.array


def test_summary_weighted_mean_std_and_serialize():
    s = reporter_module.Summary()
    for v, w in ((1., 1.), (3., 3.)):
        s.add(v, w)
    np.testing.assert_allclose(s.compute_mean(), 2.5)
    mean, std = s.make_statistics()
    np.testing.assert_allclose(std, np.sqrt((1 + 27) / 4 - 2.5 ** 2))
    saved = _serializers.save(s)
    assert set(saved) == {'_x', '_x2', '_n'}
    t = reporter_module.Summary()  # a fresh summary takes float weight sums
    _serializers.load(saved, t)
    t.add(5.)
    np.testing.assert_allclose(t.compute_mean(), (1 + 9 + 5) / 5)


def test_summary_of_old_file_warns_and_keeps_state():
    s = reporter_module.Summary()
    s.add(2.)
    with pytest.warns(UserWarning):
        _serializers.load({}, s)
    assert s.compute_mean() == 2.


def test_dict_summary_skips_non_scalars_and_checks_weights():
    d = reporter_module.DictSummary()
    d.add({'a': 1., 'v': chainer.Variable(np.array(3., np.float32)),
           'arr': np.zeros(3), 'w': (2., np.array(0.5))})
    assert set(d.compute_mean()) == {'a', 'v', 'w'}
    stats = d.make_statistics()
    assert set(stats) == {'a', 'a.std', 'v', 'v.std', 'w', 'w.std'}
    with pytest.raises(ValueError, match="'w'"):
        d.add({'w': (1., np.array([0.5]))})


def test_dict_summary_serialize_keys_with_slashes_and_replacement():
    d = reporter_module.DictSummary()
    d.add({'a/b': 1., '/c': 2.})
    d.add({'a/b': 3.})
    saved = _serializers.save(d)
    assert '_names' in saved and '_summaries/0/_x' in saved
    e = reporter_module.DictSummary()
    e.add({'other': 10.})
    _serializers.load(saved, e)
    e.add({'a/b': 5.})
    assert set(e.compute_mean()) == {'a/b', '/c'}
    np.testing.assert_allclose(e.compute_mean()['a/b'], 3.)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        _serializers.load({}, e)
    assert w and e.compute_mean() == {}


def test_weighted_sums_round_trip_into_fresh_summaries():
    d = reporter_module.DictSummary()
    d.add({'a': (2., 0.5)})
    d.add({'a': (4., 0.25)})
    e = reporter_module.DictSummary()
    _serializers.load(_serializers.save(d), e)
    np.testing.assert_allclose(e.compute_mean()['a'], (1. + 1.) / 0.75)


@pytest.mark.parametrize('value', [1.5, 2, np.float32(0.5), np.array(0.5, np.float32),
                                   np.float16(0.25), np.int32(3),
                                   chainer.Variable(np.array(0.5, np.float32)).array])
def test_summary_sums_in_float64_and_counts_in_int(value):
    # The dtypes Chainer 7.8.1 saves (whatever NumPy's promotion rules): float64 sums and
    # an integer count, unless a weight is a float.
    s = reporter_module.Summary()
    s.add(value)
    s.add(value, weight=2)
    saved = _serializers.save(s)
    assert saved['_x'].dtype == np.float64 and saved['_x2'].dtype == np.float64
    assert saved['_n'].dtype == np.int64 and int(saved['_n']) == 3
    np.testing.assert_allclose(s.compute_mean(), float(value))
    s.add(value, weight=0.5)
    assert _serializers.save(s)['_n'].dtype == np.float64


def test_summary_loads_integer_and_float_counts():
    for n in (np.array(4), np.array(2.5)):
        s = reporter_module.Summary()
        _serializers.load({'_x': np.array(5.), '_x2': np.array(13.), '_n': n}, s)
        assert s._n == n and type(s._n) is (int if n.dtype.kind == 'i' else np.float64)
        np.testing.assert_allclose(s.compute_mean(), 5. / float(n))
