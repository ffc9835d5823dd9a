"""Dumps the computational graph of an observed variable once, at the first iteration."""
import os
import shutil
import subprocess

from chainer import computational_graph
from chainer import configuration
from chainer.serializers import _files
from chainer.training import extension
from chainer.utils import argument
from chainer import variable


def is_graphviz_available():
    """Whether Graphviz's ``dot`` command is on the PATH."""
    return shutil.which('dot') is not None


class DumpGraph(extension.Extension):
    """Writes the graph that produced ``trainer.observation[root_name]`` as a dot file.

    The graph of the first iteration is written to ``<trainer.out>/<filename>``
    (and rendered to a PNG beside it when Graphviz is installed). To keep
    that graph, ``chainer.config.keep_graph_on_report`` is set to ``True``
    during the first iteration and restored afterwards.

    Args:
        root_name (str): Observed key of the output variable (``'main/loss'``).
        filename (str): Name of the dot file (``'cg.dot'``).
        variable_style (dict): Graphviz attributes of variable nodes.
        function_style (dict): Graphviz attributes of function nodes.
    """

    default_name = 'dump_graph'
    priority = extension.PRIORITY_READER

    def __init__(self, root_name, filename=None, variable_style=None, function_style=None,
                 **kwargs):
        (out_name,) = argument.parse_kwargs(kwargs, ('out_name', 'cg.dot'))
        self._root_name = root_name
        self._filename = out_name if filename is None else filename
        self._variable_style = variable_style
        self._function_style = function_style
        self._original_flag = None
        self._flag_called = False
        self._flag_set = False  # keep_graph_on_report is ours to restore

    def initialize(self, trainer):
        if not self._flag_called:
            self._original_flag = configuration.config.keep_graph_on_report
            configuration.config.keep_graph_on_report = True
            self._flag_set = True

    def trigger(self, trainer):
        # Fires at the first iteration only.
        return not self._flag_called

    def __call__(self, trainer):
        if self._flag_called:
            return
        self._flag_called = True
        try:
            var = trainer.observation[self._root_name]
            if not isinstance(var, variable.Variable):
                raise TypeError(f'DumpGraph: the observed value {self._root_name!r} must be a '
                                f'Variable, got {type(var).__name__}')
            kwargs = {}
            if self._variable_style is not None:
                kwargs['variable_style'] = self._variable_style
            if self._function_style is not None:
                kwargs['function_style'] = self._function_style
            dot = computational_graph.build_computational_graph([var], **kwargs).dump()
            path = os.path.join(trainer.out, self._filename)
            with _files.atomic_open(path, 'w') as f:
                f.write(dot)
            if is_graphviz_available():
                base, _ = os.path.splitext(path)
                subprocess.call(['dot', '-Tpng', path, '-o', base + '.png'])
        finally:
            self._restore_flag()

    def _restore_flag(self):
        if self._flag_set:
            configuration.config.keep_graph_on_report = self._original_flag
            self._flag_set = False

    def finalize(self):
        self._restore_flag()

    def serialize(self, serializer):
        """Saves or loads whether the graph was dumped (``_flag_called``) and the
        configuration value it replaced (``_original_flag``), as Chainer 7.8.1 does; a
        resumed run does not dump the graph again."""
        try:
            self._flag_called = bool(serializer('_flag_called', self._flag_called))
            original = serializer('_original_flag', self._original_flag)
        except KeyError:  # older files hold nothing for us
            return
        self._original_flag = None if original is None else bool(original)


# The old function name of the extension (the same class in Chainer 7).
dump_graph = DumpGraph
