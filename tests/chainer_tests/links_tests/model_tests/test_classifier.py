"""The LeNet-like CNN, built only from links, learns a fixed synthetic problem."""
import numpy

import chainer
import chainer.functions as F
import chainer.links as L


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
