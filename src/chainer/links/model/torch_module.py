"""A PyTorch module as a Chainer link: one model can mix both, one layer at a time.

Arrays cross between the two through DLPack, so nothing is copied: torch computes on the
memory of Chainer's arrays (NumPy on the CPU, CuPy on a GPU) and Chainer keeps torch's
results as they are. rechainer's addition to Chainer 7's API.
"""
import numpy

import chainer
from chainer import _dlpack
from chainer import function_node
from chainer import link
from chainer import variable


def import_torch(what):
    """Imports torch, or raises ImportError saying that ``what`` needs it."""
    try:
        import torch
    except ImportError as e:
        raise ImportError(f'{what} needs PyTorch: pip install torch (see the README for the '
                          'CPU-only wheel)') from e
    return torch


def _address(array):
    # The address of an array's first element, NumPy or CuPy.
    if isinstance(array, numpy.ndarray):
        return array.__array_interface__['data'][0]
    return array.data.ptr


def _tensor(torch, array):
    # The torch view of a Chainer array (host memory for NumPy, CUDA memory for CuPy).
    return torch.from_dlpack(array)


def _leaf(torch, array, grad):
    t = _tensor(torch, array)
    if grad and (t.is_floating_point() or t.is_complex()):
        t = t.detach().requires_grad_(True)
    return t


def _rng_state(torch, tensors):
    # The generators a recomputation must replay, so that dropout draws the same masks.
    state = [torch.get_rng_state()]
    devices = sorted({t.device.index for t in tensors if t.is_cuda})
    if devices:
        state.append({d: torch.cuda.get_rng_state(d) for d in devices})
    return state


class TorchFunction(function_node.FunctionNode):
    """Applies a function of torch tensors to Chainer variables, on the same memory.

    ``fn`` takes one tensor per input and returns a tensor or a tuple of tensors. Its
    forward runs torch's autograd; the backward reuses that graph for first-order gradients.
    When the backward itself must be differentiable (double backprop), the gradient is
    another :class:`TorchFunction` that runs ``fn`` again, with the random generators replayed
    and the module buffers (running statistics) left as they were.

    Args:
        fn: The function of tensors.
        label (str): The name in graphs and error messages.
        module (torch.nn.Module): The module whose buffers ``fn`` may update in place; a
            recomputation works on copies of them.
    """

    def __init__(self, fn, label='TorchFunction', module=None):
        self._fn = fn
        self._label = label
        self._module = module
        self._graph = None

    @property
    def label(self):
        return self._label

    def forward(self, inputs):
        torch = import_torch(self._label)
        self.retain_inputs(tuple(range(len(inputs))))
        grad = chainer.config.enable_backprop
        xs = [_leaf(torch, a, grad) for a in inputs]
        self._rng = _rng_state(torch, xs) if grad else None
        with torch.set_grad_enabled(grad):
            ys = self._fn(*xs)
        if isinstance(ys, torch.Tensor):
            ys = (ys,)
        elif not (isinstance(ys, (tuple, list))
                  and all(isinstance(y, torch.Tensor) for y in ys)):
            raise TypeError(f'{self._label}: the torch function must return a tensor or a '
                            f'tuple of tensors, got {type(ys).__name__}')
        ys = tuple(ys)
        if grad:
            self._graph = (xs, ys)
        self._out_meta = [(y.shape, y.dtype) for y in ys]
        return tuple(_dlpack.to_array(y.detach()) for y in ys)

    def backward(self, indexes, grad_outputs):
        inputs = self.get_retained_inputs()
        wanted = [i for i in indexes
                  if inputs[i] is not None and inputs[i].dtype.kind in 'fc']
        if not wanted:
            return (None,) * len(indexes)
        if chainer.config.enable_backprop:
            grads = self._differentiable_backward(inputs, wanted, grad_outputs)
        else:
            grads = self._first_order_backward(wanted, grad_outputs)
        by_index = dict(zip(wanted, grads))
        return tuple(by_index.get(i) for i in indexes)

    def _first_order_backward(self, wanted, grad_outputs):
        torch = import_torch(self._label)
        xs, ys = self._graph
        pairs = [(y, _tensor(torch, g.array)) for y, g in zip(ys, grad_outputs)
                 if g is not None and y.requires_grad]
        if not pairs:
            return [None] * len(wanted)
        # retain_graph: Chainer may run backward through the same graph again.
        gxs = torch.autograd.grad([y for y, _ in pairs], [xs[i] for i in wanted],
                                  [g for _, g in pairs], retain_graph=True,
                                  allow_unused=True)
        return [None if g is None else variable.Variable(_dlpack.to_array(g)) for g in gxs]

    def _differentiable_backward(self, inputs, wanted, grad_outputs):
        gys = []
        xp = chainer.backend.get_array_module(inputs[wanted[0]])
        for g, (shape, dtype) in zip(grad_outputs, self._out_meta):
            if g is None:
                g = variable.Variable(xp.zeros(tuple(shape), str(dtype).replace('torch.', '')),
                                      requires_grad=False)
            gys.append(g)
        vjp = _VJP(self._fn, len(inputs), wanted, self._rng, self._module)
        node = TorchFunction(vjp, self._label + 'Grad', self._module)
        return node.apply(tuple(inputs) + tuple(gys))


class _VJP:
    # (inputs..., grad outputs...) -> grads of the wanted inputs, by running fn again with
    # create_graph, so that the result can itself be differentiated.
    def __init__(self, fn, n_inputs, wanted, rng, module):
        self.fn = fn
        self.n_inputs = n_inputs
        self.wanted = wanted
        self.rng = rng
        self.module = module

    def __call__(self, *tensors):
        torch = import_torch('TorchFunction')
        xs, gys = tensors[:self.n_inputs], tensors[self.n_inputs:]
        # The recomputation updates copies of the buffers (BatchNorm's statistics moved once,
        # in the forward), and nothing that a graph saved is changed in place.
        buffers = [] if self.module is None else [
            (m, name, b) for m in self.module.modules() for name, b in m._buffers.items()
            if b is not None]
        devices = list(self.rng[1]) if len(self.rng) > 1 else []
        try:
            for m, name, b in buffers:
                m._buffers[name] = b.clone()
            with torch.random.fork_rng(devices=devices):
                torch.set_rng_state(self.rng[0])
                for d in devices:
                    torch.cuda.set_rng_state(self.rng[1][d], d)
                with torch.enable_grad():
                    ys = self.fn(*xs)
        finally:
            for m, name, b in buffers:
                m._buffers[name] = b
        if isinstance(ys, torch.Tensor):
            ys = (ys,)
        pairs = [(y, g) for y, g in zip(ys, gys) if y.requires_grad]
        targets = [xs[i] for i in self.wanted]
        gxs = torch.autograd.grad([y for y, _ in pairs], targets, [g for _, g in pairs],
                                  create_graph=True, allow_unused=True)
        return tuple(torch.zeros_like(x) if g is None else g for x, g in zip(targets, gxs))


class TorchModule(link.Link):
    """A ``torch.nn.Module`` used as a Chainer link.

    The module's parameters become the link's :class:`~chainer.Parameter` objects and its
    buffers (running statistics...) the link's persistent values, all sharing the torch
    tensors' memory: Chainer's optimizers train the module in place, ``save_npz`` saves it,
    ``to_device`` moves it, and ``module.state_dict()`` always holds the current weights.
    A call runs the module's forward in torch on the memory of the input arrays, and the
    backward runs torch's autograd, so gradients flow through models that mix Chainer links
    and PyTorch modules. ``chainer.config.train`` sets the module's training mode.

    Args:
        module (torch.nn.Module): The module. Its parameters and buffers must be initialized
            (lazy modules: run them once first).

    Attributes:
        module (torch.nn.Module): The wrapped module.

    A call takes the module's positional arguments (Variables or arrays; other values, and
    keyword arguments, are passed to torch as they are) and returns a Variable, or a tuple
    of Variables for a module that returns a tuple of tensors. Double backprop recomputes
    the module's forward.

    .. admonition:: Example

        >>> import torch                                              # doctest: +SKIP
        >>> mlp = chainer.Sequential(
        ...     L.Linear(4, 8),
        ...     L.TorchModule(torch.nn.Sequential(torch.nn.Linear(8, 8),
        ...                                       torch.nn.Tanh())),
        ...     L.Linear(8, 2))                                       # doctest: +SKIP
    """

    def __init__(self, module):
        torch = import_torch('chainer.links.TorchModule')
        if not isinstance(module, torch.nn.Module):
            raise TypeError(f'TorchModule requires a torch.nn.Module, got '
                            f'{type(module).__name__}')
        super().__init__()
        self.module = module
        self._param_names = []
        self._buffer_names = []
        lazy = torch.nn.parameter.UninitializedTensorMixin
        with self.init_scope():
            for name, p in module.named_parameters():
                if isinstance(p, lazy):
                    raise ValueError(f'TorchModule: parameter {name!r} of the '
                                     f'{type(module).__name__} is not initialized yet; '
                                     'run the module once before wrapping it')
                setattr(self, name, variable.Parameter(_dlpack.to_array(p.detach())))
                self._param_names.append(name)
        for name, b in module.named_buffers():
            self.add_persistent(name, _dlpack.to_array(b.detach()))
            self._buffer_names.append(name)
        arrays = [getattr(self, n).array for n in self._param_names]
        if arrays and not isinstance(arrays[0], numpy.ndarray):
            self.to_device(chainer.backend.get_device_from_array(arrays[0]))

    def _bind(self, torch):
        # Points the module's tensors at this link's arrays again where a load, a device
        # move or an assignment replaced an array (in-place updates need nothing).
        params = dict(self.module.named_parameters())
        for name in self._param_names:
            array = getattr(self, name).array
            p = params[name]
            if p.data_ptr() != _address(array) or p.shape != array.shape \
                    or p.device.type != ('cpu' if isinstance(array, numpy.ndarray) else 'cuda'):
                p.data = _tensor(torch, array)
        for name in self._buffer_names:
            array = getattr(self, name)
            owner, _, leaf = name.rpartition('.')
            module = self.module.get_submodule(owner)
            b = module._buffers[leaf]
            if not variable._is_array(array):
                continue
            if b is None or b.data_ptr() != _address(array) or b.shape != array.shape:
                module._buffers[leaf] = _tensor(torch, array)

    def forward(self, *args, **kwargs):
        """Runs the module on the arguments.

        Returns:
            ~chainer.Variable or tuple of ~chainer.Variable: The module's output(s).
        """
        torch = import_torch('chainer.links.TorchModule')
        self._bind(torch)
        module = self.module
        train = bool(chainer.config.train)
        slots = [i for i, a in enumerate(args)
                 if isinstance(a, variable.Variable) or variable._is_array(a)]
        names = self._param_names
        n = len(slots)
        single = []

        def fn(*tensors):
            module.train(train)     # (also when a double backprop runs the module again)
            call_args = list(args)
            for i, t in zip(slots, tensors):
                call_args[i] = t
            params = dict(zip(names, tensors[n:]))
            out = torch.func.functional_call(module, params, tuple(call_args), kwargs)
            if not single:
                single.append(isinstance(out, torch.Tensor))
            return out

        inputs = tuple(args[i] for i in slots) + tuple(getattr(self, name) for name in names)
        node = TorchFunction(fn, f'TorchModule({type(module).__name__})', module)
        outs = node.apply(inputs)
        return outs[0] if single[0] else outs
