"""Export of computational graphs to the DOT language of Graphviz.

:func:`build_computational_graph` walks backward from some outputs through
the creators and inputs recorded by :class:`~chainer.FunctionNode` and returns
a :class:`ComputationalGraph`, whose :meth:`~ComputationalGraph.dump` writes
DOT text. :meth:`ComputationalGraph.render` turns it into SVG, PNG or PDF with
the ``dot`` program when Graphviz is installed.
"""
import shutil
import subprocess

from chainer import function
from chainer import function_node
from chainer import variable

_var_style = {'shape': 'octagon', 'fillcolor': '#E0E0E0', 'style': 'filled'}
_func_style = {'shape': 'record', 'fillcolor': '#6495ED', 'style': 'filled'}
_rankdirs = ('TB', 'BT', 'LR', 'RL')


def _quote(text):
    # In DOT quoted strings only the double quote needs escaping (backslashes are
    # left for the label escapes of Graphviz, see _label_text).
    return '"' + str(text).replace('"', '\\"') + '"'


def _label_text(text, record):
    # Graphviz reads backslash escapes in labels (\n, \l, \N...): a literal backslash
    # is written doubled. In shape=record labels, {}|<> delimit fields: escape them too.
    text = text.replace('\\', '\\\\')
    if record:
        for ch in '{}|<>':
            text = text.replace(ch, '\\' + ch)
    return text


def _variable_label(node):
    if node.shape is None:
        return 'None' if node.dtype is None else str(node.dtype)
    return node.label


class DotNode:
    """One node of a computational graph with its DOT representation.

    Args:
        node (VariableNode or FunctionNode): The graph node.
        attribute (dict): Extra DOT attributes (shape, color, ...) of the node.
        show_name (bool): Prefix the label with the node's ``name`` when it
            has one.
    """

    def __init__(self, node, attribute=None, show_name=True):
        if not isinstance(node, (variable.VariableNode, function_node.FunctionNode)):
            raise TypeError(f'node must be a VariableNode or a FunctionNode, got '
                            f'{type(node).__name__}')
        self.node = node
        self.id_ = id(node)
        is_var = isinstance(node, variable.VariableNode)
        text = _variable_label(node) if is_var else node.label
        name = getattr(node, 'name', None)
        if show_name and name is not None:
            text = f'{name}: {text}'
        attrs = dict(attribute or {})
        self.attribute = {'label': _label_text(text, attrs.get('shape') == 'record')}
        self.attribute.update(attrs)

    @property
    def label(self):
        """The DOT statement that declares this node."""
        attrs = ','.join(f'{k}={_quote(v)}' for k, v in self.attribute.items())
        return f'{self.id_} [{attrs}];'


class ComputationalGraph:
    """A computational graph: a list of nodes and a list of edges between them.

    The graph is assumed to be directed and acyclic. It is usually made by
    :func:`build_computational_graph`.

    Args:
        nodes (list): The nodes (:class:`~chainer.variable.VariableNode` or
            :class:`~chainer.FunctionNode` objects).
        edges (list): The edges, each a pair ``(tail, head)`` of nodes.
        variable_style (dict or 'default'): DOT attributes of variable nodes;
            ``'default'`` gives grey octagons, ``None`` no attributes.
        function_style (dict or 'default'): DOT attributes of function nodes;
            ``'default'`` gives blue records, ``None`` no attributes.
        rankdir (str): Layout direction: ``'TB'``, ``'BT'``, ``'LR'`` or ``'RL'``.
        remove_variable (bool): Whether variable nodes were removed (only
            function nodes are shown).
        show_name (bool): Prefix node labels with their ``name``.
    """

    def __init__(self, nodes, edges, variable_style='default', function_style='default',
                 rankdir='TB', remove_variable=False, show_name=True):
        if rankdir not in _rankdirs:
            raise ValueError(f"rankdir must be one of {', '.join(_rankdirs)}, got {rankdir!r}")
        self.nodes = nodes
        self.edges = edges
        self.variable_style = _var_style if variable_style == 'default' else variable_style
        self.function_style = _func_style if function_style == 'default' else function_style
        self.rankdir = rankdir
        self.remove_variable = remove_variable
        self.show_name = show_name

    def _dot_node(self, node):
        is_var = isinstance(node, variable.VariableNode)
        style = self.variable_style if is_var else self.function_style
        return DotNode(node, style, self.show_name)

    def _to_dot(self):
        lines = ['digraph graphname {', f'  rankdir={self.rankdir};']
        for node in self.nodes:
            lines.append('  ' + self._dot_node(node).label)
        for tail, head in self.edges:
            lines.append(f'  {id(tail)} -> {id(head)};')
        lines.append('}')
        return '\n'.join(lines) + '\n'

    def dump(self, format='dot'):
        """Returns the graph as text in the given format.

        Args:
            format (str): Output format; only ``'dot'`` is supported.

        Returns:
            str: The graph in the DOT language.
        """
        if format == 'dot':
            return self._to_dot()
        raise NotImplementedError(f"dump supports only format='dot', got {format!r}")

    def render(self, filename, format=None, program='dot'):
        """Draws the graph into an image file with Graphviz (not in Chainer).

        Args:
            filename (str): Output path; its extension gives the format when
                ``format`` is not given (``.svg``, ``.png``, ``.pdf``...).
            format (str): Graphviz output format, e.g. ``'svg'`` or ``'png'``.
            program (str): Graphviz layout program to run.

        Raises:
            RuntimeError: The Graphviz program is not installed, or failed.
        """
        if format is None:
            format = filename.rsplit('.', 1)[-1].lower() if '.' in filename else 'svg'
        exe = shutil.which(program)
        if exe is None:
            raise RuntimeError(
                f'rendering a graph needs the Graphviz program {program!r}, which was not '
                f'found on PATH. Install Graphviz (e.g. `apt install graphviz`), or save '
                f'graph.dump() to a .dot file and render it elsewhere.')
        proc = subprocess.run([exe, f'-T{format}', '-o', filename], input=self.dump().encode(),
                              capture_output=True, check=False)
        if proc.returncode != 0:
            raise RuntimeError(f'{program} failed (exit status {proc.returncode}): '
                               f'{proc.stderr.decode(errors="replace").strip()}')


def _start_nodes(outputs):
    if isinstance(outputs, (variable.Variable, variable.VariableNode,
                            function_node.FunctionNode, function.Function)):
        outputs = [outputs]
    nodes = []
    for o in outputs:
        if isinstance(o, variable.Variable):
            o = o.node
        elif isinstance(o, function.Function):
            o = o.node
        elif not isinstance(o, (variable.VariableNode, function_node.FunctionNode)):
            raise TypeError(f'outputs must be Variables, VariableNodes or FunctionNodes, '
                            f'got {type(o).__name__}')
        nodes.append(o)
    return nodes


def build_computational_graph(outputs, remove_split=True, variable_style='default',
                              function_style='default', rankdir='TB', remove_variable=False,
                              show_name=True):
    """Builds the graph of functions and variables backward-reachable from ``outputs``.

    The walk goes from each output to its creator, from each function to its
    inputs, and so on; it stops at variables without a creator (including
    those cut by :meth:`~chainer.Variable.unchain_backward`).

    Args:
        outputs: A :class:`~chainer.Variable`, a
            :class:`~chainer.variable.VariableNode`, a
            :class:`~chainer.FunctionNode` (or an old-style
            :class:`~chainer.Function`), or a list of them.
        remove_split (bool): Must be ``True``; kept for old code.
        variable_style (dict or 'default'): DOT attributes of variable nodes
            (``shape``, ``color``, ``fillcolor``, ``style``...); ``'default'``
            gives filled grey octagons.
        function_style (dict or 'default'): DOT attributes of function nodes;
            ``'default'`` gives filled blue records.
        rankdir (str): ``'TB'`` (top to bottom), ``'BT'``, ``'LR'`` or ``'RL'``.
        remove_variable (bool): Keep only the function nodes, with an edge
            from a function to each function that consumed one of its outputs.
        show_name (bool): Prefix labels with the node's ``name`` when set.

    Returns:
        ComputationalGraph: The nodes and edges found.

    .. admonition:: Example

        >>> x = chainer.Variable(np.ones((2, 3), np.float32), name='x')
        >>> g = chainer.computational_graph.build_computational_graph([F.sum(x * 2)])
        >>> print(g.dump())  # doctest: +SKIP
    """
    if not remove_split:
        raise ValueError('remove_split=False is not supported anymore')
    if rankdir not in _rankdirs:
        raise ValueError(f"rankdir must be one of {', '.join(_rankdirs)}, got {rankdir!r}")

    order = []          # nodes in discovery order (deterministic output)
    seen = set()
    edges = []
    seen_edges = set()

    def visit(node):
        if node not in seen:
            seen.add(node)
            order.append(node)
            todo.append(node)

    def link(tail, head):
        if (tail, head) not in seen_edges:
            seen_edges.add((tail, head))
            edges.append((tail, head))

    todo = []
    for node in _start_nodes(outputs):
        visit(node)
    # Iterative walk (graphs can be thousands of nodes deep).
    while todo:
        node = todo.pop()
        if isinstance(node, variable.VariableNode):
            creator = node.creator_node
            if creator is not None:
                visit(creator)
                link(creator, node)
        else:
            for x in node.inputs or ():
                visit(x)
                link(x, node)

    if remove_variable:
        funcs = [n for n in order if isinstance(n, function_node.FunctionNode)]
        func_edges = []
        done = set()
        for f in funcs:
            for x in f.inputs or ():
                c = x.creator_node
                if c is not None and c in seen and (c, f) not in done:
                    done.add((c, f))
                    func_edges.append((c, f))
        order, edges = funcs, func_edges

    return ComputationalGraph(order, edges, variable_style, function_style, rankdir,
                              remove_variable, show_name)
