"""Old-style ``chainer.Function``: arrays in, arrays out, adapted onto FunctionNode."""
import warnings
import weakref

import numpy

from chainer import function_node
from chainer.variable import Variable


class FunctionAdapter(function_node.FunctionNode):
    """The FunctionNode that runs an old-style :class:`Function` in the graph.

    Its gradients are computed on arrays, so they carry no graph: a second
    differentiation through them raises ``RuntimeError``.
    """

    def __init__(self, function):
        self._adapted_function = function

    @property
    def function(self):
        """The wrapped old-style :class:`Function`."""
        return self._adapted_function

    @property
    def label(self):
        return self._adapted_function.label

    def check_type_forward(self, in_types):
        self._adapted_function.check_type_forward(in_types)

    def forward(self, inputs):
        # Old-style functions keep all their inputs unless they say otherwise
        # (the function's own retain_inputs call, made in forward, overrides this).
        self.retain_inputs(tuple(range(len(inputs))))
        return self._adapted_function.forward(inputs)

    def backward(self, target_input_indexes, grad_outputs):
        fn = self._adapted_function
        in_data = tuple([x.data for x in self.inputs])
        gys = tuple([None if g is None else g.array for g in grad_outputs])
        gxs = fn.backward(in_data, gys)
        if not isinstance(gxs, tuple):
            if isinstance(gxs, list) or gxs is None:
                gxs = tuple(gxs) if gxs is not None else (None,) * len(in_data)
            else:
                raise TypeError(f'{fn.label}: backward must return a tuple of arrays, '
                                f'got {type(gxs).__name__}')
        if len(gxs) != len(in_data):
            raise ValueError(f'{fn.label}: backward returned {len(gxs)} gradients for '
                             f'{len(in_data)} inputs')
        ret = []
        for i in target_input_indexes:
            g = gxs[i]
            if g is None:
                ret.append(None)
                continue
            if isinstance(g, numpy.generic):
                g = numpy.asarray(g)
            # requires_grad stays True so that differentiating this gradient again
            # reaches the check below instead of silently giving zero.
            v = Variable(g)
            v._node._old_style_grad_generator = fn.label
            ret.append(v)
        return tuple(ret)


class Function:
    """Old-style differentiable function working directly on arrays.

    Implement :meth:`forward` (or :meth:`forward_cpu`/:meth:`forward_gpu`) and
    :meth:`backward` (or :meth:`backward_cpu`/:meth:`backward_gpu`) on tuples of
    arrays and call the instance on Variables. An instance may be called many
    times; each call makes a new graph node (:attr:`node`).

    New code should subclass :class:`~chainer.FunctionNode`, which supports
    double backprop.
    """

    _node = None
    _node_ref = None

    def __call__(self, *inputs):
        node = self._node
        if node is None:
            node = FunctionAdapter(self)
        # The graph owns the node from now on; we only watch it.
        self._node = None
        self._node_ref = weakref.ref(node)
        ret = node.apply(inputs)
        return ret[0] if len(ret) == 1 else ret

    @property
    def node(self):
        """The :class:`FunctionAdapter` of the latest (or next) call."""
        if self._node is not None:
            return self._node
        ref = self._node_ref
        node = None if ref is None else ref()
        if node is None:
            node = self._node = FunctionAdapter(self)
        return node

    @property
    def label(self):
        """Short name of the function (the class name by default)."""
        return self.__class__.__name__

    @property
    def inputs(self):
        return self.node.inputs

    @property
    def outputs(self):
        return self.node.outputs

    @property
    def rank(self):
        return self.node.rank

    @property
    def stack(self):
        return self.node.stack

    @property
    def output_data(self):
        """Tuple of retained output arrays (``None`` where not retained)."""
        return self.node.output_data

    @property
    def local_function_hooks(self):
        return self.node.local_function_hooks

    def check_type_forward(self, in_types):
        """Checks the input types (override with ``type_check.expect``)."""
        pass

    def forward(self, inputs):
        """Computes outputs from input arrays (dispatches on the array type)."""
        if inputs and not isinstance(inputs[0], numpy.ndarray):
            return self.forward_gpu(inputs)
        return self.forward_cpu(inputs)

    def forward_cpu(self, inputs):
        raise NotImplementedError(f'{self.label} does not implement forward_cpu')

    def forward_gpu(self, inputs):
        raise NotImplementedError(f'{self.label} does not implement forward_gpu')

    def backward(self, inputs, grad_outputs):
        """Returns the input gradients (arrays), given the inputs and the output gradients."""
        if any(x is not None and not isinstance(x, numpy.ndarray)
               for x in inputs + grad_outputs):
            return self.backward_gpu(inputs, grad_outputs)
        return self.backward_cpu(inputs, grad_outputs)

    def backward_cpu(self, inputs, grad_outputs):
        return tuple(None for _ in inputs)

    def backward_gpu(self, inputs, grad_outputs):
        return tuple(None for _ in inputs)

    def retain_inputs(self, indexes):
        """Keeps only the given inputs for backward (call inside forward)."""
        self.node.retain_inputs(indexes)

    def retain_outputs(self, indexes, retain_after_backward=False):
        """Keeps the given outputs for backward (call inside forward).

        ``retain_after_backward`` is accepted for old code and has no effect.
        """
        if retain_after_backward:
            warnings.warn('retain_after_backward option has no effect',
                          DeprecationWarning, stacklevel=2)
        self.node.retain_outputs(indexes)

    def unchain(self):
        self.node.unchain()

    def add_hook(self, hook, name=None):
        self.node.add_hook(hook, name)

    def delete_hook(self, name):
        self.node.delete_hook(name)


def __getattr__(name):
    # ``chainer.function.no_backprop_mode`` and ``force_backprop_mode``: Chainer defines them
    # here (add-ons import them from this module); rechainer in the chainer package.
    if name in ('no_backprop_mode', 'force_backprop_mode'):
        import chainer
        return getattr(chainer, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
