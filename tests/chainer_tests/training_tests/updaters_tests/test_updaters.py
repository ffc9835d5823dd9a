import copy
import unittest.mock

import numpy
import pytest

import chainer
from chainer import training
from chainer.training import updaters
from chainer.training.updaters import multiprocess_parallel_updater as mpu
from chainer_tests.training_tests import _train_helpers as H


def _setup(batch=4, shuffle=False, **kwargs):
    numpy.random.seed(0)
    model = H.Regressor()
    opt = chainer.optimizers.SGD(lr=0.1)
    opt.setup(model)
    it = chainer.iterators.SerialIterator(H.dataset(8), batch, shuffle=shuffle)
    return model, opt, it


def test_standard_updater_progress_and_update():
    model, opt, it = _setup()
    before = model.l1.W.array.copy()
    u = updaters.StandardUpdater(it, opt)
    assert (u.iteration, u.epoch, u.epoch_detail, u.is_new_epoch) == (0, 0, 0.0, False)
    assert u.previous_epoch_detail is None
    assert u.get_optimizer('main') is opt and u.get_iterator('main') is it
    assert u.get_all_optimizers() == {'main': opt}
    u.update()
    assert u.iteration == 1 and opt.t == 1 and not numpy.array_equal(model.l1.W.array, before)
    u.update()
    assert u.epoch == 1 and u.is_new_epoch and opt.epoch == 1  # auto_new_epoch
    assert opt.use_auto_new_epoch


def test_standard_updater_loss_func_converter_and_arguments():
    model, opt, it = _setup()
    calls = []

    def converter(batch, device):
        calls.append(device)
        x, t = chainer.dataset.concat_examples(batch)
        return {'x': x, 't': t}

    def loss_func(x, t):
        return model(x, t) * 2

    u = updaters.StandardUpdater(it, opt, converter=converter, loss_func=loss_func,
                                 device='@numpy')
    u.update()
    assert u.device == chainer.get_device('@numpy') and u.input_device == u.device
    assert calls == [-1]  # a plain function gets the legacy device argument
    with pytest.raises(TypeError, match='foo'):
        updaters.StandardUpdater(it, opt, foo=1)


def test_standard_updater_single_argument_batch():
    model, opt, it = _setup()
    seen = []
    u = updaters.StandardUpdater(it, opt, converter=lambda b, d: 'whole',
                                 loss_func=lambda arg: seen.append(arg) or
                                 chainer.functions.sum(model.l1.W))
    u.update()
    assert seen == ['whole']


def test_standard_updater_loss_scale_and_no_auto_new_epoch():
    model, opt, it = _setup()
    with unittest.mock.patch.object(opt, 'set_loss_scale') as set_scale:
        updaters.StandardUpdater(it, opt, loss_scale=8.0, auto_new_epoch=False)
    set_scale.assert_called_once_with(8.0)
    assert not opt.use_auto_new_epoch


def test_standard_updater_serialize_keys():
    model, opt, it = _setup()
    u = updaters.StandardUpdater(it, opt)
    u.update()
    keys = set(chainer.serializers.npz.serialize(u))
    assert {'iteration', 'iterator:main/current_position', 'optimizer:main/t',
            'model:main/l1/W'} <= keys


def test_parallel_updater_matches_standard_on_cpu():
    model, opt, it = _setup(batch=4)
    ref_model = copy.deepcopy(model)
    ref_opt = chainer.optimizers.SGD(lr=0.1)
    ref_opt.setup(ref_model)
    ref_it = chainer.iterators.SerialIterator(H.dataset(8), 4, shuffle=False)
    ref = updaters.StandardUpdater(ref_it, ref_opt)
    # Each half-batch loss is a mean over 2 examples: their sum equals twice the
    # mean over the batch, so the parallel step is compared with lr doubled.
    ref_opt.lr = 0.2
    par = updaters.ParallelUpdater(it, opt, devices={'main': '@numpy', 'second': '@numpy'})
    for _ in range(3):
        par.update()
        ref.update()
    for (name, p), (_, q) in zip(sorted(model.namedparams()), sorted(ref_model.namedparams())):
        numpy.testing.assert_allclose(p.array, q.array, rtol=1e-5, atol=1e-6, err_msg=name)
    second = par._models['second']
    numpy.testing.assert_array_equal(second.l1.W.array, model.l1.W.array)
    with pytest.raises(ValueError, match='models or devices'):
        updaters.ParallelUpdater(it, opt)


def test_parallel_updater_in_trainer_reports(tmp_path):
    model, opt, it = _setup()
    par = updaters.ParallelUpdater(it, opt, devices={'main': '@numpy', 'second': '@numpy'})
    trainer = training.Trainer(par, (2, 'iteration'), out=str(tmp_path))
    trainer.run()
    assert 'main/loss' in trainer.observation


def test_multiprocess_parallel_updater_checks_and_clear_error():
    model, opt, it = _setup()
    it2 = chainer.iterators.SerialIterator(H.dataset(8), 4)
    short = chainer.iterators.SerialIterator(H.dataset(6), 4)
    with pytest.raises(ValueError, match='one iterator per device'):
        mpu.MultiprocessParallelUpdater([it], opt, devices=[0, 1])
    with pytest.raises(ValueError, match='same length'):
        mpu.MultiprocessParallelUpdater([it, short], opt, devices=[0, 1])
    with pytest.raises(ValueError, match='devices'):
        mpu.MultiprocessParallelUpdater([it, it2], opt, devices='0,1')
    if not mpu.MultiprocessParallelUpdater.available():
        with pytest.raises(RuntimeError, match='NCCL'):
            mpu.MultiprocessParallelUpdater([it, it2], opt, devices=[0, 1])
    with pytest.raises(RuntimeError, match='GPU'):
        mpu.gather_grads(model)
    with pytest.raises(RuntimeError, match='GPU'):
        mpu.gather_params(model)


def test_updater_base_is_abstract():
    u = training.Updater()
    u.connect_trainer(None)
    u.finalize()
    for call in (u.update, u.get_all_optimizers, lambda: u.get_optimizer('main'),
                 lambda: u.serialize(None)):
        with pytest.raises(NotImplementedError):
            call()
