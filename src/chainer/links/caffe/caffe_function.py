"""CaffeFunction: importing Caffe models is not supported by rechainer."""
from chainer import link


class CaffeFunction(link.Chain):
    """Caffe model loader; not supported by rechainer.

    Chainer 7 built this on protobuf bindings generated for an old protoc. rechainer
    does not ship them: constructing one raises ``RuntimeError``. Convert the model
    with Chainer 7 (``chainer.links.caffe.CaffeFunction`` there), save it with
    :func:`chainer.serializers.save_npz`, and load that file into an equivalent
    chain here.
    """

    def __init__(self, model_path):
        raise RuntimeError(
            f'CaffeFunction({model_path!r}): loading Caffe models is not supported by '
            'rechainer. Convert the model with Chainer 7.8.1, save it with '
            'chainer.serializers.save_npz, and load the .npz into an equivalent chain.')

    def forward(self, inputs, outputs, disable=(), **kwargs):
        """Runs the imported network (unreachable: construction raises)."""
        raise RuntimeError('CaffeFunction is not supported by rechainer')
