"""The loss and evaluation families: Chainer 7's class names and module access, shared checks."""
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


def test_label_values_are_checked_on_gpu_only_in_debug_mode():
    # On CuPy the check waits for the device, so it runs only under config.debug.
    import numpy
    from chainer.functions.loss import _common
    not_numpy = object()
    assert _common.should_check_values(numpy)
    assert not _common.should_check_values(not_numpy)
    with chainer.using_config('debug', True):
        assert _common.should_check_values(not_numpy)
