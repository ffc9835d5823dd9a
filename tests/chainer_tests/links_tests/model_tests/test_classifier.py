"""L.Classifier: what it reports, its label key; a small CNN trained through it."""
import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import testing


def _x(*shape, dtype=numpy.float32):
    return numpy.random.uniform(-1, 1, shape).astype(dtype)


def test_classifier_reports_loss_and_accuracy():
    model = L.Classifier(L.Linear(3, 2))
    x, t = _x(4, 3), numpy.array([0, 1, 1, 0], 'i')
    reporter = chainer.Reporter()
    reporter.add_observer('main', model)
    observation = {}
    with reporter.scope(observation):
        loss = model(x, t)
    assert set(observation) == {'main/loss', 'main/accuracy'}
    testing.assert_allclose(loss.array, F.softmax_cross_entropy(model.y, t).array)
    assert model.loss is loss and model.y.shape == (4, 2)
    model.compute_accuracy = False
    observation = {}
    with reporter.scope(observation):
        model(x, t)
    assert set(observation) == {'main/loss'} and model.accuracy is None


def test_classifier_label_key():
    keyed = L.Classifier(L.Linear(3, 2), label_key='t')
    x, t = _x(4, 3), numpy.array([0, 1, 1, 0], 'i')
    assert keyed(x=x, t=t).shape == ()
    with pytest.raises(ValueError, match='"t" is not found'):
        keyed(x, t)
    first = L.Classifier(lambda a: a, label_key=0, lossfun=F.mean_squared_error,
                         accfun=lambda y, t: y[0, 0])
    first.compute_accuracy = False
    assert first(_x(2), _x(2)).shape == ()
    with pytest.raises(ValueError, match='out of bounds'):
        L.Classifier(L.Linear(3, 2), label_key=3)(x, t)
    with pytest.raises(TypeError, match='label_key must be int or str'):
        L.Classifier(L.Linear(3, 2), label_key=1.5)


def test_module_path():
    assert L.Classifier.__module__ == 'chainer.links.model.classifier'


class LeNetLike(chainer.Chain):
    """conv 1->32 3x3, relu, max-pool 2, conv 32->64 3x3, relu, max-pool 2,
    linear ->128, relu, linear ->10."""

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.conv1 = L.Convolution2D(1, 32, 3)
            self.conv2 = L.Convolution2D(32, 64, 3)
            self.fc1 = L.Linear(None, 128)
            self.fc2 = L.Linear(128, 10)

    def forward(self, x):
        h = F.max_pooling_2d(F.relu(self.conv1(x)), 2)
        h = F.max_pooling_2d(F.relu(self.conv2(h)), 2)
        return self.fc2(F.relu(self.fc1(h)))


def _problem(n, rng):
    # Ten classes, each a fixed random 14x14 pattern; examples add noise.
    prototypes = rng.uniform(-1, 1, (10, 1, 14, 14)).astype(numpy.float32)
    t = rng.randint(0, 10, n).astype(numpy.int32)
    x = prototypes[t] + rng.normal(0, 0.5, (n, 1, 14, 14)).astype(numpy.float32)
    return x, t


def test_lenet_like_cnn_halves_its_loss_within_100_steps():
    rng = numpy.random.RandomState(0)
    numpy.random.seed(0)
    x, t = _problem(256, rng)
    model = L.Classifier(LeNetLike())
    optimizer = chainer.optimizers.Adam()
    optimizer.setup(model)

    def full_loss():
        with chainer.using_config('train', False), chainer.no_backprop_mode():
            return float(model(x, t).array)

    start = full_loss()
    for step in range(100):
        idx = rng.choice(len(x), 32, replace=False)
        optimizer.update(model, x[idx], t[idx])
        if full_loss() < start / 2:
            break
    assert full_loss() < start / 2, (start, full_loss(), step)
    assert model.predictor.fc1.W.shape == (128, 64 * 2 * 2)   # sized lazily
