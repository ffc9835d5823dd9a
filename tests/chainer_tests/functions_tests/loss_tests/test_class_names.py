"""The loss and evaluation modules define the classes Chainer 7's define, under its names."""
import importlib

import pytest

import chainer

_CLASSES = {
    'loss.absolute_error': ['AbsoluteError'],
    'loss.contrastive': ['Contrastive'],
    'loss.cross_covariance': ['CrossCovariance'],
    'loss.ctc': ['ConnectionistTemporalClassification'],
    'loss.decov': ['DeCov'],
    'loss.discriminative_loss': ['DiscriminativeMarginBasedClusteringLoss'],
    'loss.hinge': ['Hinge'],
    'loss.huber_loss': ['HuberLoss'],
    'loss.mean_absolute_error': ['MeanAbsoluteError'],
    'loss.mean_squared_error': ['MeanSquaredError'],
    'loss.negative_sampling': ['NegativeSamplingFunction', 'NegativeSamplingFunctionGrad'],
    'loss.sigmoid_cross_entropy': ['SigmoidCrossEntropy', 'SigmoidCrossEntropyGrad'],
    'loss.softmax_cross_entropy': ['SoftmaxCrossEntropy'],
    'loss.squared_error': ['SquaredError'],
    'loss.triplet': ['Triplet'],
    'evaluation.accuracy': ['Accuracy'],
    'evaluation.binary_accuracy': ['BinaryAccuracy'],
    'evaluation.classification_summary': ['ClassificationSummary'],
    'evaluation.r2_score': ['R2_score'],
}


@pytest.mark.parametrize('module', sorted(_CLASSES))
def test_classes(module):
    mod = importlib.import_module('chainer.functions.' + module)
    for name in _CLASSES[module]:
        cls = getattr(mod, name)
        assert cls.__module__ == mod.__name__
        if name != 'DiscriminativeMarginBasedClusteringLoss':
            assert issubclass(cls, (chainer.FunctionNode, chainer.Function)), name


def test_family_packages_are_attributes():
    import chainer.functions as F
    assert F.loss.crf1d.argmax_crf1d is F.argmax_crf1d
    assert F.evaluation.classification_summary.fbeta_score is not None
    with pytest.raises(AttributeError):
        F.loss.no_such_module
