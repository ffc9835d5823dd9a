"""A link that wraps a predictor with a loss and an accuracy, reported per call."""
from chainer.functions.evaluation import accuracy
from chainer.functions.loss import softmax_cross_entropy
from chainer import link
from chainer import reporter


class Classifier(link.Chain):
    """Wraps a predictor: computes the loss (and accuracy) of its output against labels.

    One of the call's arguments is the label ``t`` (chosen by ``label_key``); the
    others go to the predictor. The loss (and, when :attr:`compute_accuracy`, the
    accuracy) is reported as ``loss`` and ``accuracy`` through
    :func:`chainer.reporter.report`, and kept in :attr:`loss`, :attr:`accuracy` and
    :attr:`y`.

    Args:
        predictor (~chainer.Link): The model; its output is the prediction ``y``.
        lossfun: ``lossfun(y, t)`` gives the loss.
        accfun: ``accfun(y, t)`` gives the accuracy.
        label_key (int or str): Position of the label among the positional
            arguments (an int) or its keyword (a str).

    Attributes:
        compute_accuracy (bool): Whether to compute and report the accuracy.
    """

    compute_accuracy = True

    def __init__(self, predictor, lossfun=softmax_cross_entropy.softmax_cross_entropy,
                 accfun=accuracy.accuracy, label_key=-1):
        if not isinstance(label_key, (int, str)):
            raise TypeError(f'label_key must be int or str, but is {type(label_key)}')
        super().__init__()
        self.lossfun = lossfun
        self.accfun = accfun
        self.y = None
        self.loss = None
        self.accuracy = None
        self.label_key = label_key
        with self.init_scope():
            self.predictor = predictor

    def forward(self, *args, **kwargs):
        """Computes the loss of the predictor's output against the label.

        Returns:
            ~chainer.Variable: The loss.
        """
        key = self.label_key
        if isinstance(key, int):
            if not -len(args) <= key < len(args):
                raise ValueError(f'Label key {key} is out of bounds')
            t = args[key]
            if key == -1:
                args = args[:-1]
            else:
                args = args[:key] + args[key + 1:]
        else:
            if key not in kwargs:
                raise ValueError(f'Label key "{key}" is not found')
            t = kwargs.pop(key)
        self.y = None
        self.loss = None
        self.accuracy = None
        self.y = self.predictor(*args, **kwargs)
        self.loss = self.lossfun(self.y, t)
        reporter.report({'loss': self.loss}, self)
        if self.compute_accuracy:
            self.accuracy = self.accfun(self.y, t)
            reporter.report({'accuracy': self.accuracy}, self)
        return self.loss
