"""Files written by the original Chainer 7.8.1 (tests/fixtures/chainer781_files) load into
rechainer and behave the same; rechainer writes files with the same keys, dtypes and values."""
import os

import numpy
import pytest

import chainer
from chainer import optimizers
from chainer import serializers
from chainer.serializers import npz

from fixtures import make_serializer_files as fixture

FILES = fixture.OUT


def _path(name):
    return os.path.join(FILES, name)


def _saved(obj, tmp_path, name='out.npz'):
    path = str(tmp_path / name)
    serializers.save_npz(path, obj)
    with numpy.load(path, allow_pickle=True) as f:
        return {k: f[k] for k in f.files}


def _original(name):
    with numpy.load(_path(name), allow_pickle=True) as f:
        return {k: f[k] for k in f.files}


def _assert_same_files(ours, theirs):
    assert set(ours) == set(theirs)
    for key in theirs:
        assert ours[key].dtype == theirs[key].dtype, key
        assert ours[key].shape == theirs[key].shape, key
        if theirs[key].dtype == object:
            assert ours[key][()] is None and theirs[key][()] is None, key
        else:
            numpy.testing.assert_array_equal(ours[key], theirs[key], err_msg=key)


@pytest.mark.parametrize('name, load', [('model.npz', serializers.load_npz),
                                        ('model.h5', serializers.load_hdf5)])
def test_model_loads_and_computes_the_same(name, load):
    if name.endswith('.h5'):
        pytest.importorskip('h5py')
    io = numpy.load(_path('io.npz'))
    net = fixture.Net()
    load(_path(name), net)
    assert net.calls == 3  # a persistent scalar
    original = _original('model.npz')
    assert net.bn.N == original['bn/N']  # BatchNormalization's statistics are persistents too
    numpy.testing.assert_array_equal(net.bn.avg_mean, original['bn/avg_mean'])
    numpy.testing.assert_array_equal(net.bn.avg_var, original['bn/avg_var'])
    assert net.unused.W.array is None  # saved uninitialized, stays so
    with chainer.using_config('train', False):
        y = net(io['x'])
    numpy.testing.assert_allclose(y.array, io['y'], rtol=1e-6, atol=1e-7)


def test_model_saves_like_the_original(tmp_path):
    net = fixture.Net()
    serializers.load_npz(_path('model.npz'), net)
    _assert_same_files(_saved(net, tmp_path), _original('model.npz'))


@pytest.mark.parametrize('name', ['adam.npz', 'adam.h5'])
def test_adam_state_resumes_identically(name, tmp_path):
    if name.endswith('.h5'):
        pytest.importorskip('h5py')
    io = numpy.load(_path('io.npz'))
    net = fixture.Net()
    serializers.load_npz(_path('model.npz'), net)
    opt = optimizers.Adam(alpha=0.01)
    opt.setup(net)
    (serializers.load_npz if name.endswith('.npz') else serializers.load_hdf5)(_path(name), opt)
    assert opt.t == 3 and net.enc.l.W.update_rule.t == 3
    assert net.unused.W.update_rule.state is None
    if name.endswith('.npz'):
        _assert_same_files(_saved(opt, tmp_path), _original('adam.npz'))
    opt.update(fixture.loss_of, net, io['x'])
    numpy.testing.assert_allclose(net.head.W.array, io['W_after_next_adam_step'],
                                  rtol=1e-6, atol=1e-7)


def test_momentum_state_round_trips(tmp_path):
    net = fixture.Net()
    opt = optimizers.MomentumSGD(lr=0.05)
    opt.setup(net)
    serializers.load_npz(_path('momentum.npz'), opt)
    assert opt.t == 2
    _assert_same_files(_saved(opt, tmp_path), _original('momentum.npz'))


def test_trainer_snapshot_parts_load():
    net = fixture.Net()
    serializers.load_npz(_path('snapshot_iter_4'), net, path='updater/model:main/predictor/')
    wrapper = chainer.Chain()
    with wrapper.init_scope():
        wrapper.predictor = net
    opt = optimizers.Adam(alpha=0.01)
    opt.setup(wrapper)
    serializers.load_npz(_path('snapshot_iter_4'), opt, path='updater/optimizer:main/')
    assert opt.t == 4 and net.calls == 4
    snapshot = _original('snapshot_iter_4')
    numpy.testing.assert_array_equal(net.stack[1].W.array,
                                     snapshot['updater/model:main/predictor/stack/1/W'])
    numpy.testing.assert_array_equal(net.head.W.update_rule.state['m'],
                                     snapshot['updater/optimizer:main/predictor/head/W/m'])


def test_original_files_hold_none_as_pickles_we_accept():
    arrays = chainer.serializers._files.read_npz(_path('model.npz'))
    assert arrays['unused/W'].dtype == object and arrays['unused/W'][()] is None
    assert set(arrays) == set(_original('model.npz'))
