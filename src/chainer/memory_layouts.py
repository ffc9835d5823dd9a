"""Memory layout names (``chainer.memory_layouts``).

Chainer 7 let a Variable carry a cuDNN channel-last layout as an experiment.
rechainer stores every array in the standard (channel-first) layout: the names
exist so that code importing them runs, and the shape helpers return shapes as
they are.
"""
CUDNN_CHANNEL_FIRST_X = None
CUDNN_CHANNEL_LAST_X = 'CUDNN_CHANNEL_LAST_X'
CUDNN_CHANNEL_FIRST_W = None
CUDNN_CHANNEL_LAST_W = 'CUDNN_CHANNEL_LAST_W'


def get_raw_shape(arr_or_var):
    """Shape of the stored array (the standard layout's shape in rechainer)."""
    return tuple(arr_or_var.shape)


def get_semantic_shape(arr_or_var, *, assumed_layout=None):
    """Shape in the standard (channel-first) layout."""
    return tuple(arr_or_var.shape)
