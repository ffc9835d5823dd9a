"""Variable, VariableNode and Parameter: arrays that remember how they were made."""
import sys
import traceback
import warnings
import weakref

import numpy

import chainer
from chainer.utils import argument


_new_object = object.__new__
_weakref = weakref.ref
# The engine's Variable.backward, handed over by chainer._backprop.install (the engine is
# built on this module).
_backward_from_variable = None


def _is_array(x):
    # (CuPy arrays exist only once cupy is imported: no need to import it here)
    cupy = sys.modules.get('cupy')
    return isinstance(x, numpy.ndarray) or (cupy is not None and isinstance(x, cupy.ndarray))


def _check_array(data, what):
    if data is not None and not _is_array(data):
        # Chainer's words (its list of array types, without ChainerX), then ours.
        raise TypeError(
            f"<class 'cupy.ndarray'> or <class 'numpy.ndarray'> are expected. "
            f'Actual: {type(data)}\n'
            f'{what} must be numpy.ndarray or cupy.ndarray (or None), '
            f'got {type(data).__name__}')


class _ComparisonError(TypeError, NotImplementedError):
    """Raised on ``==``, ``<``, ``bool()``... of Variables (ambiguous in a graph)."""


def _no_compare(self, other=None):
    raise _ComparisonError(
        'Variables cannot be compared or used as truth values; compare their '
        'arrays instead (e.g. `x.array == y.array`)')


def check_grad_type(func, x, is_node_x, gx, index=None):
    """Checks that ``gx`` (an array) is a valid gradient for node/variable ``x``."""
    data = x.data if is_node_x else x.array
    if (data is None and not is_node_x) or x.dtype is None:
        # An uninitialized variable (or a node that never saw data) has nothing to compare
        # with; Chainer lets any gradient through here too.
        return
    if data is not None and type(gx) is not type(data) and not (
            _is_array(gx) and _is_array(data)
            and type(gx).__module__.split('.')[0] == type(data).__module__.split('.')[0]):
        what, got, want, typ = 'Type', type(gx), type(data), TypeError
    elif gx.dtype != x.dtype:
        what, got, want, typ = 'Dtype', gx.dtype, x.dtype, TypeError
    elif gx.shape != x.shape:
        what, got, want, typ = 'Shape', gx.shape, x.shape, ValueError
    else:
        return
    msg = f'{what} of data and grad mismatch\ngrad: {got} != data: {want}'
    if func is not None:
        where = f'input #{index}' if index is not None else 'an input'
        stack = ('The function was called at:\n' + ''.join(traceback.format_list(func.stack))
                 if func.stack else '')
        msg = (f'{type(func).__name__} ({func.label}) returned an invalid gradient for {where} '
               f'in backward.\n{stack}{msg}')
    raise typ(msg)


class VariableNode:
    """A node of the computational graph standing for one :class:`Variable`.

    The node outlives its variable when a function keeps it as an input, so
    that backprop can still walk the graph after user code dropped the
    variable. It keeps the array only when asked to (:meth:`retain_data`).

    Args:
        variable (Variable): The variable this node stands for.
        name (str): Name of the node.
    """

    # Slots for what every node sets (node creation runs once per op output; _init_node
    # sets them all); class-level defaults for what only some nodes set.
    __slots__ = ('_variable', '_requires_grad', 'dtype', 'shape', '_creator_node', '_rank',
                 '__dict__', '__weakref__')
    data = None
    name = None
    _old_style_grad_generator = None

    def __init__(self, variable, name, **kwargs):
        if kwargs:
            argument.parse_kwargs(kwargs, grad='unexpected keyword argument "grad": '
                                  'pass the gradient to Variable instead')
        _init_node(self, variable, variable._requires_grad, variable._array, None, 0)
        if name is not None:
            self.name = name

    def _update_data_info(self, d):
        self.dtype, self.shape = (None, None) if d is None else (d.dtype, d.shape)

    @property
    def creator(self):
        """The function that made this node (old-style ``Function`` if it was one)."""
        return getattr(self._creator_node, '_adapted_function', self._creator_node)

    @creator.setter
    def creator(self, func):
        self.creator_node = func

    @property
    def creator_node(self):
        """The :class:`FunctionNode` that made this node, or ``None``."""
        return self._creator_node

    @creator_node.setter
    def creator_node(self, func):
        if isinstance(func, chainer.Function):
            func = func.node
        self._creator_node = func
        if func is not None:
            self._rank = func.rank + 1

    @property
    def rank(self):
        """Topological order: one more than the rank of the creator (0 without one)."""
        return self._rank

    @property
    def grad(self):
        """Gradient array of the variable, if the variable is alive."""
        return getattr(self._variable(), 'grad', None)

    @property
    def grad_var(self):
        """Gradient variable of the variable, if the variable is alive."""
        return getattr(self._variable(), '_grad_var', None)

    @property
    def label(self):
        """Short text with the shape and dtype, used in graph dumps."""
        return (str(self.dtype) if self.shape == ()
                else '(%s), %s' % (', '.join(map(str, self.shape)), self.dtype))

    @property
    def requires_grad(self):
        """Whether backprop computes a gradient for this node."""
        return self._requires_grad

    def get_variable(self):
        """Returns the variable of this node, rebuilding one if it was freed: it shares this
        node, so graphs built on it connect to this one (double backprop on retained inputs)."""
        var = self._variable()
        if var is not None:
            return var
        # Rebuilt inline (no helper call): backward of every op retaining outputs comes here.
        var = _new_object(Variable)
        var._array = self.data
        var._requires_grad = self._requires_grad
        var._vnode = self
        self._variable = _weakref(var)
        return var

    def get_variable_or_none(self):
        """Returns the variable of this node, or ``None`` if it was freed."""
        return self._variable()

    def set_creator(self, creator):
        """Sets the creator (a Function or FunctionNode)."""
        self.creator = creator

    def set_creator_node(self, creator_node):
        """Sets the creator function node."""
        self.creator_node = creator_node

    def unchain(self):
        """Forgets the creator, turning this node into a root."""
        self._creator_node = None

    def retain_data(self):
        """Keeps a reference to the variable's current array in this node."""
        var = self._variable()
        if var is None:
            raise RuntimeError('cannot retain the data of a variable node whose '
                               'variable has been freed')
        self.data = var.array

    def _check_old_style_gradient(self):
        if self._old_style_grad_generator is not None:
            raise RuntimeError(
                'cannot twice-differentiate an old style Function "%s": its '
                'backward works on arrays, so the gradient it produced has no graph. '
                'Rewrite it as a FunctionNode to use double backprop.'
                % self._old_style_grad_generator)


def _init_node(node, var, requires_grad, array, creator, rank):
    """Fills in every slot of ``node`` for variable ``var`` and links ``var`` to it: the one
    place nodes are built (apply's come from ``object.__new__``, without __init__'s checks)."""
    node._variable = _weakref(var)
    node._requires_grad = requires_grad
    if array is None:
        node.dtype = node.shape = None
    else:
        node.dtype = array.dtype
        node.shape = array.shape
    node._creator_node = creator
    node._rank = rank
    var._vnode = node
    return node


class Variable:
    """An array that records the function applications it comes from.

    A variable wraps an array (``numpy.ndarray`` or ``cupy.ndarray``) and a
    :class:`VariableNode`. Variables made by functions point to the function
    that made them, which backprop follows.

    Args:
        data (N-dimensional array): The array to hold (``None`` leaves the
            variable without data until one is assigned).
        name (str): A name shown in ``repr``, graph dumps and reports.
        grad (N-dimensional array): A gradient to start with (same shape and
            dtype as ``data``).
        requires_grad (bool): Whether the gradient is computed in backprop.
    """

    # _vnode is the VariableNode, or None for an output made while no graph was recorded (it
    # gets one on first use, through _node). No __getattr__ here: CPython specializes attribute
    # reads only on classes without one, and Variable attributes are read on every op.
    __slots__ = ('_array', '_requires_grad', '_vnode', '__dict__', '__weakref__')
    _grad_var = None
    _loss_scale = None
    __array_priority__ = 200
    __hash__ = None

    def __init__(self, data=None, *, name=None, grad=None, requires_grad=True, **kwargs):
        if kwargs:
            if 'volatile' in kwargs:
                raise ValueError('volatile argument is not supported anymore. '
                                 'Use chainer.using_config instead.')
            bad = ', '.join(repr(k) for k in kwargs)
            raise TypeError(f'Variable() got unexpected keyword argument(s) {bad}')
        if data is not None and type(data) is not numpy.ndarray:
            if isinstance(data, Variable):
                raise TypeError('Variable() takes an array, not a Variable; '
                                'use chainer.as_variable or x.array')
            _check_array(data, 'Variable data')
        self._array = data
        self._requires_grad = requires_grad
        self._vnode = VariableNode(self, name)
        if grad is not None:
            self.grad = grad

    @property
    def _node(self):
        # The node, made on first use for outputs made while no graph was recorded.
        node = self._vnode
        if node is None:
            node = self._vnode = VariableNode(self, None)
        return node

    @_node.setter
    def _node(self, node):
        self._vnode = node

    def __copy__(self):
        target = _new_object(type(self))
        target.__dict__.update(self.__dict__)
        target._array = self._array
        target._requires_grad = self._requires_grad
        old = self._node
        node = _new_object(VariableNode)
        node.__dict__.update(old.__dict__)
        _init_node(node, target, old._requires_grad, self._array, old._creator_node, old._rank)
        return target

    def __reduce__(self):
        return _rebuild_variable, (type(self), self.__getstate__())

    def __getstate__(self):
        extra = {k: v for k, v in self.__dict__.items() if k != '_grad_var'}
        return {'data': self._array, 'name': self.name, 'grad': self.grad,
                'requires_grad': self._requires_grad, 'dict': extra}

    # ---- text forms -----------------------------------------------------
    def __repr__(self):
        return _format(self, ', ', repr_mode=True)

    def __str__(self):
        return _format(self, ' ', repr_mode=False)

    def summary(self):
        """Returns a one-line description: its name, or its address."""
        return f'<variable {self.name}>' if self.name else f'<variable at 0x{id(self):x}>'

    def debug_print(self):
        """Returns a multi-line description: device, backend, shape, dtype, statistics."""
        data, g = self._array, self.grad
        # As Chainer: 'CPU' for NumPy arrays, the CUDA device for CuPy ones.
        device = None if data is None else 'CPU' if type(data) is numpy.ndarray else data.device
        gs = None if g is None else 0 if bool((g == 0).all()) else _stats(g)
        return (f'{self.summary()}\n- device: {device}\n'
                f'- backend: {None if data is None else type(data)}\n'
                f'- shape: {getattr(data, "shape", None)}\n'
                f'- dtype: {getattr(data, "dtype", None)}\n'
                f'- statistics: {None if data is None else _stats(data)}\n- grad: {gs}')

    # ---- data and gradient ------------------------------------------------
    @property
    def array(self):
        """The array this variable holds (``None`` if it has none yet)."""
        return self._array

    @array.setter
    def array(self, d):
        if d is not None and type(d) is not numpy.ndarray:
            _check_array(d, 'Variable.array')
        self._array = d
        self._node._update_data_info(d)

    data = array

    @property
    def raw_array(self):
        """The underlying array as stored (the same as :attr:`array`: rechainer has no
        non-standard memory layouts)."""
        return self._array

    @raw_array.setter
    def raw_array(self, d):
        self.array = d

    @property
    def chainerx_array(self):
        """The ChainerX array of the data; always ``None`` (rechainer has no ChainerX)."""
        return None

    @property
    def grad(self):
        """Gradient array, or ``None``."""
        gv = self._grad_var
        return None if gv is None else gv._array

    @grad.setter
    def grad(self, g):
        if g is not None:
            _check_array(g, 'Variable.grad')
            check_grad_type(None, self, False, g)
            g = Variable(g)
        self._grad_var = g

    @property
    def grad_var(self):
        """Gradient as a :class:`Variable`, or ``None``."""
        return self._grad_var

    @grad_var.setter
    def grad_var(self, g):
        if g is not None:
            if not isinstance(g, Variable):
                raise TypeError(f'grad_var must be a Variable or None, got {type(g).__name__}')
            check_grad_type(None, self, False, g.array)
        self._grad_var = g

    @property
    def name(self):
        return self._node.name

    @name.setter
    def name(self, n):
        self._node.name = n

    @property
    def requires_grad(self):
        """Whether backprop computes the gradient of this variable."""
        return self._requires_grad

    @property
    def node(self):
        """The :class:`VariableNode` of this variable."""
        return self._node

    @property
    def creator(self):
        """The function that made this variable (old-style ``Function`` if so)."""
        return self._node.creator

    @creator.setter
    def creator(self, func):
        self._node.creator = func

    @property
    def creator_node(self):
        """The :class:`FunctionNode` that made this variable, or ``None``."""
        return self._node._creator_node

    @creator_node.setter
    def creator_node(self, func):
        self._node.creator_node = func

    @property
    def rank(self):
        """Topological order of the variable in its graph."""
        return self._node._rank

    @property
    def label(self):
        return self._node.label

    @property
    def shape(self):
        return self._array.shape

    @property
    def ndim(self):
        return self._array.ndim

    @property
    def size(self):
        return self._array.size

    @property
    def dtype(self):
        return self._array.dtype

    @property
    def xp(self):
        """Array module (numpy or cupy) of the data."""
        return numpy if self._array is None else chainer.backend.get_array_module(self._array)

    @property
    def device(self):
        """The :class:`~chainer.backend.Device` holding the data."""
        if self._array is None:
            return chainer.backend.CpuDevice()
        return chainer.backend.get_device_from_array(self._array)

    # DLPack (rechainer's addition): torch.from_dlpack(v), jax.numpy.from_dlpack(v)... share
    # the data array's memory; chainer.backend.from_dlpack goes the other way.
    def __dlpack__(self, **kwargs):
        from chainer import _dlpack
        return _dlpack.dlpack(self, kwargs)

    def __dlpack_device__(self):
        from chainer import _dlpack
        return _dlpack.dlpack_device(self)

    @property
    def T(self):
        """This variable with its axes reversed (see :func:`chainer.functions.transpose`)."""
        return chainer.functions.transpose(self)

    def __len__(self):
        return len(self._array)

    def item(self):
        """Returns the single element of the data as a Python scalar."""
        return self._array.item()

    def mean(self, axis=None, *, weights=None, keepdims=False):
        """Returns the (weighted) mean (see :func:`chainer.functions.average`)."""
        return chainer.functions.average(self, axis, weights, keepdims)

    def reshape(self, *shape):
        """Returns a reshaped variable (see :func:`chainer.functions.reshape`)."""
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = shape[0]
        return chainer.functions.reshape(self, tuple(shape))

    def transpose(self, *axes):
        """Returns a variable with permuted axes (see :func:`chainer.functions.transpose`)."""
        if not axes:
            axes = None
        elif len(axes) == 1 and (isinstance(axes[0], (tuple, list)) or axes[0] is None):
            axes = axes[0]
        return chainer.functions.transpose(self, axes)

    def __getitem__(self, slices):
        return chainer.functions.get_item(self, slices)

    # ---- device moves -----------------------------------------------------
    def to_cpu(self):
        """Moves the data and gradient to host memory."""
        self._to(chainer.backend.CpuDevice())

    def to_gpu(self, device=None):
        """Moves the data and gradient to a GPU (current one by default)."""
        from chainer.backends import cuda
        cuda.check_cuda_available()
        self._to(cuda.GpuDevice.from_device_id(
            cuda.cupy.cuda.Device(device).id) if device is not None else
            cuda.GpuDevice(cuda.cupy.cuda.Device()))

    def to_intel64(self):
        """iDeep is not available in rechainer; this raises ``RuntimeError``."""
        from chainer.backends import intel64
        intel64.check_ideep_available()

    def to_chainerx(self):
        """ChainerX is not available in rechainer; this raises ``RuntimeError``."""
        raise RuntimeError('ChainerX is not available in rechainer')

    from_chainerx = to_chx = from_chx = to_chainerx     # (and Chainer's short names)

    # (the ChainerX array, by Chainer's short name)
    @property
    def chx_array(self):
        """ChainerX is not available in rechainer; reading this raises ``RuntimeError``."""
        raise RuntimeError('ChainerX is not available in rechainer')

    def to_device(self, device):
        """Moves the data and gradient to the given device (spec or Device)."""
        self._to(chainer.backend.get_device(device))

    def _to(self, device):
        if self._array is not None:
            self._array = device.send(self._array)
            self._node._update_data_info(self._array)
        if self._grad_var is not None:
            self._grad_var._array = device.send(self._grad_var._array)
        if self._node.data is not None:
            self._node.data = self._array

    # ---- gradient helpers ---------------------------------------------------
    def cleargrad(self):
        """Sets the gradient to ``None``."""
        self._grad_var = None

    def zerograd(self):
        """Sets the gradient to zeros (deprecated: use :meth:`cleargrad`)."""
        warnings.warn('Variable.zerograd is deprecated. Use Variable.cleargrad instead.',
                      DeprecationWarning, stacklevel=2)
        self._zerograd()

    def _zerograd(self):
        if self._array is None:
            return
        gv = self._grad_var
        if gv is None:
            self._grad_var = Variable(self.xp.zeros_like(self._array))
        else:
            gv.unchain()
            gv._array.fill(0)

    def copydata(self, var):
        """Copies the data of ``var`` (a Variable or array) into this variable.

        An uninitialized side is initialized first (a :class:`Parameter` with the
        other side's shape), across devices if needed.
        """
        src = var.array if isinstance(var, Variable) else var
        dst = self._array
        if src is None:
            if dst is None:
                return
            if not isinstance(var, Parameter):
                raise RuntimeError('cannot copy the data of an uninitialized variable')
            var.initialize(self.shape)
            src = var.array
        elif dst is None:
            if isinstance(self, Parameter):
                self.initialize(src.shape)
                dst = self._array
            else:
                self.array = src.copy()
                return
        chainer.backend.copyto(dst, src)

    def addgrad(self, var):
        """Adds the gradient of ``var`` to this variable's gradient (across devices)."""
        src = var._grad_var
        if src is None:
            return
        g = src.array
        if self._array is None:
            if not isinstance(self, Parameter):
                raise RuntimeError('cannot add a gradient to a variable without data')
            self.initialize(g.shape)
        g = self.device.send(g)
        if self._grad_var is None:
            self._grad_var = Variable(g.copy())
        else:
            self._grad_var._array = self._grad_var._array + g

    # ---- graph ------------------------------------------------------------
    def set_creator(self, gen_func):
        self._node.set_creator(gen_func)

    def set_creator_node(self, fnode):
        self._node.set_creator_node(fnode)

    def retain_data(self):
        """Keeps the current array in the node for use after this variable is freed."""
        self._node.data = self._array

    def unchain(self):
        """Cuts the link to the creator, making this variable a root."""
        self._node._creator_node = None

    def unchain_backward(self):
        """Cuts every link in the graph behind this variable."""
        todo, seen = [self._node._creator_node], set()
        while todo:
            f = todo.pop()
            if f is not None and id(f) not in seen:
                seen.add(id(f))
                todo.extend([x._creator_node for x in f.inputs or ()])
                f.unchain()

    def backward(self, retain_grad=False, enable_double_backprop=False, loss_scale=None):
        """Runs backprop from this variable: from its :attr:`grad`, or from 1 for a variable
        of one element without one (else nothing propagates).

        Args:
            retain_grad (bool): Keep the gradients of intermediate variables.
            enable_double_backprop (bool): Record the backward pass, to differentiate again.
            loss_scale (float): Scale the start gradient by this factor (mixed-precision
                training; optimizers divide it out).
        """
        _backward_from_variable(self, retain_grad, enable_double_backprop, loss_scale)

    # ---- operators (the differentiable ones live in functions.math.basic_math) -----
    __eq__ = __ne__ = __lt__ = __le__ = __gt__ = __ge__ = _no_compare
    __bool__ = _no_compare


def _stats(a):
    return f'mean={float(a.mean()):.8f}, std={float(a.std()):.8f}'


def _rebuild_variable(cls, state):
    var = cls.__new__(cls)
    Variable.__init__(var, state['data'], name=state['name'],
                      requires_grad=state['requires_grad'])
    var.__dict__.update(state['dict'])
    if state['grad'] is not None:
        var._grad_var = Variable(state['grad'])
    return var


def _format(var, sep, repr_mode):
    prefix = 'variable %s' % var.name if var.name else 'variable'
    arr = var._array
    if arr is None:
        body = 'None'
    else:
        arr = chainer.backend.CpuDevice().send(arr) if type(arr) is not numpy.ndarray else arr
        if repr_mode and arr.size == 0 and arr.shape != (0,):
            body = '[], shape=%r' % (arr.shape,)
        else:
            body = numpy.array2string(arr, separator=sep, prefix=prefix + '(')
    return '%s(%s)' % (prefix, body)


class Parameter(Variable):
    """A variable that holds a link's learnable array.

    Args:
        initializer: Initial value: an :class:`~chainer.Initializer`, a scalar
            (constant fill) or an array (used as is). ``None`` fills with NaN.
        shape (int or tuple of int): Shape of the array. If omitted (and the
            initializer is not an array) the parameter stays uninitialized
            until :meth:`initialize` is called.
        name (str): The parameter's name (links give their parameters the
            attribute name).
    """

    initializer = None
    update_rule = None
    _grad_initializer = None
    _initial_device = None

    def __init__(self, initializer=None, shape=None, name=None):
        from chainer import initializers
        if initializer is None:
            initializer = initializers.NaN()
        elif numpy.isscalar(initializer):
            initializer = initializers.Constant(initializer)
        if shape is None:
            if _is_array(initializer):
                super().__init__(initializer, name=name)
            else:
                super().__init__(name=name)
                self._grad_initializer = initializers.NaN(
                    getattr(initializer, 'dtype', None))
        else:
            if _is_array(initializer):
                xp = chainer.backend.get_array_module(initializer)
                initializer = initializers.Constant(initializer)
            else:
                xp = numpy
            data = initializers.generate_array(initializer, shape, xp)
            super().__init__(data, name=name, grad=xp.full_like(data, numpy.nan))
        self.initializer = initializer
        self.update_rule = None

    @property
    def is_initialized(self):
        """Whether the array has been allocated."""
        return self._array is not None

    @property
    def dtype(self):
        if self._array is not None:
            return self._array.dtype
        if not hasattr(self.initializer, 'dtype'):
            # A plain function as initializer: nothing tells the dtype before it runs.
            raise RuntimeError('the dtype of this parameter is not known: it is not '
                               'initialized yet and its initializer gives no dtype')
        d = self.initializer.dtype
        return numpy.dtype(d) if d is not None else chainer.get_dtype()

    def cleargrad(self):
        self._grad_var = None   # (Variable.cleargrad, without the call: once per parameter)
        if self._array is None:
            self._grad_initializer = None

    def _zerograd(self):
        super()._zerograd()
        if self._array is None:
            from chainer import initializers
            self._grad_initializer = initializers.Zero(getattr(self.initializer, 'dtype', None))

    def initialize(self, shape):
        """Allocates the array with the given shape using the initializer."""
        from chainer import initializers
        device = self._initial_device
        xp = numpy if device is None else device.xp
        init = self.initializer
        if _is_array(init):
            # A parameter made from an array starts over from that array (Chainer fails).
            init = initializers.Constant(init)
        try:
            data = initializers.generate_array(init, shape, xp, device=device)
        except ValueError as e:
            owner = getattr(self, '_link_name', None)
            where = f'{owner}.{self.name}' if owner else f'parameter {self.name!r}'
            raise ValueError(f'{where}: cannot initialize with shape {shape} ({e})') from e
        grad = self._grad_initializer
        self._array = data
        self._node._update_data_info(data)
        self._grad_var = None if grad is None else Variable(
            initializers.generate_array(grad, shape, xp, device=device))

    def _to(self, device):
        super()._to(device)
        self._initial_device = device

    def update(self):
        """Updates the array with its update rule (set by an optimizer), if it is enabled."""
        if self.update_rule is not None and self.update_rule.enabled:
            self.update_rule.update(self)


def as_variable(obj):
    """Returns ``obj`` if it is a Variable, else wraps the array (or ``None``) in a constant
    one (``requires_grad=False``)."""
    if isinstance(obj, Variable):
        return obj
    if obj is not None and not _is_array(obj):
        from chainer import _errors
        which = _errors.not_an_array(obj)
        raise TypeError(f'as_variable expects a Variable, an N-dimensional array or None, '
                        f'got {type(obj).__name__}' + (f'\n{which}' if which else ''))
    return Variable(obj, requires_grad=False)


def as_array(obj):
    """Returns the array of a Variable, or ``obj`` itself if it is an array."""
    return obj.array if isinstance(obj, Variable) else obj


def variable_repr(var):
    """The ``repr`` of a Variable (Chainer's module-level helper)."""
    return _format(var, ', ', repr_mode=True)


def variable_str(var):
    """The ``str`` of a Variable (Chainer's module-level helper)."""
    return _format(var, ' ', repr_mode=False)
