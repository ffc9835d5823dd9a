"""Static-graph mode: record a Chain's forward once and replay it (``chainer.static_graph``)."""
from chainer.graph_optimizations import static_graph  # NOQA
from chainer.graph_optimizations import static_graph_utilities  # NOQA
from chainer.graph_optimizations.static_graph_utilities import static_code  # NOQA
