"""GPU cases of the updaters (skipped without CuPy and a GPU)."""
import numpy
import pytest

import chainer
from chainer.training import updaters
from chainer.training.updaters import multiprocess_parallel_updater as mpu
from chainer_tests.training_tests import _train_helpers as H


@pytest.mark.gpu
def test_standard_updater_moves_model_and_batches_to_gpu():
    import cupy
    model = H.Regressor()
    opt = chainer.optimizers.SGD(lr=0.1)
    opt.setup(model)
    it = chainer.iterators.SerialIterator(H.dataset(8), 4)
    u = updaters.StandardUpdater(it, opt, device='@cupy:0')
    assert isinstance(model.l1.W.array, cupy.ndarray)
    u.update()
    assert u.iteration == 1 and isinstance(model.l1.W.array, cupy.ndarray)


@pytest.mark.gpu
def test_gather_scatter_round_trip_on_gpu():
    model, other = H.Regressor(), H.Regressor()
    model.to_device('@cupy:0')
    other.to_device('@cupy:0')
    packed = mpu.gather_params(model)
    mpu.scatter_params(other, packed)
    for (_, p), (_, q) in zip(sorted(model.namedparams()), sorted(other.namedparams())):
        numpy.testing.assert_array_equal(chainer.backends.cuda.to_cpu(p.array),
                                         chainer.backends.cuda.to_cpu(q.array))
