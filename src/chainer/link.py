"""Link, Chain and ChainList: objects that own parameters (and other links)."""
import collections
import contextlib
import copy as _copy
import warnings

import numpy

import chainer
from chainer import _errors
from chainer import backend
from chainer import device_resident
from chainer import initializers
from chainer import link_hook
from chainer import variable
from chainer.utils import type_check

_n_global_hooks = link_hook._n_global_hooks
_COPY_MODES = ('init', 'copy', 'share')


class _NotALinkError(TypeError, AttributeError):
    # Chainer fails with AttributeError here (it sets `.name` on the object); the real
    # problem is the object's type.
    pass


def _is_array(x):
    return isinstance(x, chainer.get_array_types())


def _parse_shape_dtype(name, value):
    # Link(**params): each value is a shape, or a (shape, dtype) pair.
    if (isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], (tuple, int))
            and not isinstance(value[1], int)):
        return value
    if isinstance(value, (tuple, int)):
        return value, numpy.float32
    raise TypeError(f'Link(): parameter {name!r} must be given as a shape or a '
                    f'(shape, dtype) pair, got {value!r}')


class Link(device_resident.DeviceResident):
    """Building block of models: holds parameters and persistent values.

    Parameters are :class:`~chainer.Parameter` objects assigned as attributes
    inside :meth:`init_scope` (or added with :meth:`add_param`); persistent
    values (statistics, counters) are registered with :meth:`add_persistent`.
    Both are serialized and moved between devices with the link. Calling a link
    calls its ``forward`` method, with the registered link hooks around it.

    Args:
        params: Parameters to create, as ``name=shape`` (deprecated; use
            :meth:`init_scope`).

    .. admonition:: Example

        >>> class Affine(chainer.Link):
        ...     def __init__(self, n_in, n_out):
        ...         super().__init__()
        ...         with self.init_scope():
        ...             self.W = chainer.Parameter(
        ...                 chainer.initializers.Normal(), (n_out, n_in))
        ...             self.b = chainer.Parameter(0, (n_out,))
        ...     def forward(self, x):
        ...         return F.linear(x, self.W, self.b)
        >>> Affine(3, 2)(np.ones((1, 3), np.float32)).shape
        (1, 2)
    """

    # Class-level defaults, so that attribute reads work before (or without) __init__.
    name = None
    _within_init_scope = False
    _local_link_hooks = None
    _n_local_link_hooks = 0

    def __init__(self, **params):
        super().__init__()
        self._params = set()
        self._persistent = set()
        for name, value in params.items():
            shape, dtype = _parse_shape_dtype(name, value)
            self.add_param(name, shape, dtype=dtype)

    # ---- calling ---------------------------------------------------------
    def __call__(self, *args, **kwargs):
        try:
            if _n_global_hooks[0] or self._n_local_link_hooks:
                return self._call_with_hooks(args, kwargs)
            return self.forward(*args, **kwargs)
        except type_check.InvalidType as e:
            # (costs nothing unless raised) the link and the layer that got the bad input
            _errors.name_link(e, self, args, kwargs)
            raise

    def _input_error_hint(self, *args, **kwargs):
        """What this link expects of its input, said when a function it calls refuses the input
        (``expects in_size 784, got 100``), or None for a generic description."""
        return None

    def _call_with_hooks(self, args, kwargs):
        hooks = chainer._get_link_hooks()
        if self._n_local_link_hooks:
            hooks = collections.OrderedDict(hooks)
            hooks.update(self._local_link_hooks)
        if not hooks:
            return self.forward(*args, **kwargs)
        hooks = list(hooks.values())
        pre = link_hook._ForwardPreprocessCallbackArgs(self, 'forward', args, kwargs)
        for hook in hooks:
            hook.forward_preprocess(pre)
        out = self.forward(*args, **kwargs)
        post = link_hook._ForwardPostprocessCallbackArgs(self, 'forward', args, kwargs, out)
        for hook in hooks:
            hook.forward_postprocess(post)
        return out

    # ---- registration ------------------------------------------------------
    @property
    def within_init_scope(self):
        """Whether the code runs inside :meth:`init_scope`."""
        return self._within_init_scope

    @contextlib.contextmanager
    def init_scope(self):
        """Context in which assigned Parameters (and, in a Chain, Links) are registered.

        .. admonition:: Example

            >>> link = chainer.Link()
            >>> with link.init_scope():
            ...     link.w = chainer.Parameter(np.zeros(3, np.float32))
            >>> [name for name, _ in link.namedparams()]
            ['/w']
        """
        if '_params' not in self.__dict__:
            raise AttributeError(f'{type(self).__name__}.__init__ must call '
                                 f'super().__init__() before using init_scope()')
        old = self._within_init_scope
        self._within_init_scope = True
        try:
            yield
        finally:
            self._within_init_scope = old

    def __setattr__(self, name, value):
        if self._within_init_scope and isinstance(value, variable.Parameter):
            value.name = name
            value._link_name = type(self).__name__     # named in initialization errors
            self._params.add(name)
            self._persistent.discard(name)
        # As in Chainer, assigning a non-Parameter to a registered name keeps it registered:
        # hooks (SpectralNormalization) swap the weight for a Variable during forward.
        super().__setattr__(name, value)

    def __delattr__(self, name):
        self._params.discard(name)
        self._persistent.discard(name)
        super().__delattr__(name)

    def _check_free_name(self, name, what):
        if name in self.__dict__:
            raise AttributeError(f'cannot register a new {what} {name}: attribute exists '
                                 f'in {type(self).__name__}')

    def add_param(self, name, shape=None, dtype=numpy.float32, initializer=None):
        """Registers a new parameter.

        Args:
            name (str): Attribute name of the parameter.
            shape (int or tuple of int): Its shape (``None``: initialized later).
            dtype: Its dtype when no initializer is given (NaN-filled then).
            initializer: An initializer, a scalar or an array.
        """
        self._check_free_name(name, 'parameter')
        if initializer is None:
            initializer = initializers.NaN(dtype)
        param = variable.Parameter(initializer, shape)
        with self.init_scope():
            setattr(self, name, param)

    def add_persistent(self, name, value):
        """Registers a persistent value: saved, loaded and moved with the link.

        Args:
            name (str): Attribute name.
            value: An array, a scalar or any other serializable object.
        """
        self._check_free_name(name, 'persistent value')
        self._persistent.add(name)
        self._params.discard(name)
        object.__setattr__(self, name, value)

    def register_persistent(self, name):
        """Registers an existing attribute as a persistent value.

        Args:
            name (str): Attribute name.
        """
        if not hasattr(self, name):
            raise AttributeError(f'cannot register non-existent attribute {name} as a '
                                 f'persistent value of {type(self).__name__}')
        self._persistent.add(name)
        self._params.discard(name)

    # ---- traversal ----------------------------------------------------------
    def _child_items(self):
        # (name, link) of the child links, in traversal (and serialization) order.
        return ()

    def params(self, include_uninit=True):
        """Iterates over the parameters of this link and its descendants.

        Args:
            include_uninit (bool): Whether to include uninitialized parameters.
        """
        for _, param in self.namedparams(include_uninit):
            yield param

    def namedparams(self, include_uninit=True):
        """Iterates over ``(path, parameter)``: own parameters in name order, then the
        children's, under ``/<child name>``.

        Args:
            include_uninit (bool): Whether to include uninitialized parameters.
        """
        d = self.__dict__
        for name in sorted(self._params):
            if include_uninit or d[name].array is not None:
                yield '/' + name, d[name]
        for cname, child in self._child_items():
            prefix = '/' + cname
            for path, param in child.namedparams(include_uninit):
                yield prefix + path, param

    def links(self, skipself=False):
        """Iterates over this link (unless ``skipself``) and all its descendants."""
        for _, link in self.namedlinks(skipself):
            yield link

    def namedlinks(self, skipself=False):
        """Iterates over ``(path, link)`` for this link (``'/'``) and its descendants."""
        if not skipself:
            yield '/', self
        for cname, child in self._child_items():
            prefix = '/' + cname
            yield prefix, child
            for path, link in child.namedlinks(True):
                yield prefix + path, link

    def children(self):
        """Iterates over the direct child links."""
        for _, child in self._child_items():
            yield child

    def count_params(self):
        """Returns the number of scalars in the (initialized) parameters."""
        size = 0
        for path, param in self.namedparams():
            if param.array is None:
                warnings.warn(f"Parameter '{path}' has not been initialized, so the "
                              f"resulting count will not include the number of parameters "
                              f"in it.")
                continue
            size += param.size
        return size

    # ---- copies ------------------------------------------------------------
    def copy(self, mode='share'):
        """Returns a copy of this link (and its descendants).

        Args:
            mode (str): ``'share'``: new Parameter objects sharing the arrays (no
                gradients); ``'copy'``: a deep copy; ``'init'``: a deep copy whose
                initialized parameters are initialized again.

        Returns:
            Link: The copy, with no name.
        """
        if mode == 'share':
            ret = self._share_copy()
        elif mode == 'copy':
            ret = _copy.deepcopy(self)
        elif mode == 'init':
            ret = _copy.deepcopy(self)
            for param in ret.params(include_uninit=False):
                param.initialize(param.shape)
                # Like a newly made parameter, the copy has a NaN gradient (as in Chainer).
                param.grad = param.xp.full_like(param.array, numpy.nan)
        else:
            raise ValueError(f"The 'mode' argument should be either 'init','copy', or "
                             f"'share'. But {mode} was given.")
        ret.name = None
        return ret

    def _share_copy(self):
        ret = _copy.copy(self)
        d = ret.__dict__
        d['_params'] = set(self._params)
        d['_persistent'] = set(self._persistent)
        if self._local_link_hooks is not None:
            d['_local_link_hooks'] = collections.OrderedDict(self._local_link_hooks)
        for name in ret._params:
            param = _copy.copy(d[name])
            param.grad = None
            d[name] = param
        return ret

    def repeat(self, n_repeat, mode='init'):
        """Returns a :class:`~chainer.Sequential` of ``n_repeat`` copies of this link.

        Args:
            n_repeat (int): Number of copies (none when it is not positive).
            mode (str): Copy mode (see :meth:`copy`).
        """
        from chainer import sequential
        return sequential.Sequential(*[self.copy(mode) for _ in range(max(n_repeat, 0))])

    def copyparams(self, link, copy_persistent=True):
        """Copies the parameter values (and persistent values) of ``link`` into this one.

        Args:
            link (Link): A link of the same structure.
            copy_persistent (bool): Also copy the persistent values.
        """
        src, dst = link.__dict__, self.__dict__
        for name in self._params:
            dst[name].copydata(src[name])
        if copy_persistent:
            for name in self._persistent:
                value = src[name]
                if _is_array(value) and _is_array(dst[name]):
                    backend.copyto(dst[name], value)
                else:
                    dst[name] = _copy.deepcopy(value)
        other = dict(link._child_items())
        for cname, child in self._child_items():
            child.copyparams(other[cname], copy_persistent)

    def addgrads(self, link):
        """Adds the gradients of ``link`` (same structure) to this link's."""
        src, dst = link.__dict__, self.__dict__
        for name in self._params:
            dst[name].addgrad(src[name])
        other = dict(link._child_items())
        for cname, child in self._child_items():
            child.addgrads(other[cname])

    # ---- gradients and updates -------------------------------------------------
    def cleargrads(self):
        """Sets the gradients of all parameters to ``None``."""
        for param in self.params():
            param.cleargrad()

    def zerograds(self):
        """Fills the gradients of all parameters with zeros (deprecated: use
        :meth:`cleargrads`)."""
        warnings.warn('Link.zerograds is deprecated. Use Link.cleargrads instead.',
                      DeprecationWarning, stacklevel=2)
        for param in self.params():
            param._zerograd()

    def enable_update(self):
        """Lets optimizers update every parameter (their update rules)."""
        for param in self.params():
            if param.update_rule is not None:
                param.update_rule.enabled = True

    def disable_update(self):
        """Stops optimizers from updating any parameter (their update rules)."""
        for param in self.params():
            if param.update_rule is not None:
                param.update_rule.enabled = False

    @property
    def update_enabled(self):
        """Whether some parameter has an enabled update rule."""
        for param in self.params():
            rule = param.update_rule
            if rule is not None and rule.enabled:
                return True
        return False

    # ---- devices and serialization ------------------------------------------------
    @property
    def _device_id(self):
        # Old code reads the CUDA device id (None on the CPU).
        return getattr(self._device, 'device_id', None) if self._device.xp is not numpy \
            else None

    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        d = self.__dict__
        for name in self._params:
            visitor.visit_variable(d[name])
        for name in self._persistent:
            value = d[name]
            if _is_array(value):
                d[name] = visitor.visit_array(value)
        for _, child in self._child_items():
            child.device_resident_accept(visitor)

    def serialize(self, serializer):
        """Saves or loads the parameters and persistent values (and the children's).

        An uninitialized parameter is initialized with the shape of the loaded array.

        Args:
            serializer (~chainer.AbstractSerializer): Serializer or deserializer.
        """
        d = self.__dict__
        for name in sorted(self._params):
            param = d[name]
            data = serializer(name, param.array)
            if param.array is None and data is not None:
                param.initialize(data.shape)
                with chainer.using_device(param.device):
                    param.array[...] = param.device.send(data)
        for name in sorted(self._persistent):
            d[name] = serializer(name, d[name])
        for cname, child in self._child_items():
            child.serialize(serializer[cname])

    @classmethod
    def from_params(cls, *args, **kwargs):
        """Builds a link around given parameter arrays (links that support it)."""
        raise NotImplementedError(f'{cls.__name__} does not implement `from_params`.')

    # ---- hooks ------------------------------------------------------------------
    @property
    def local_link_hooks(self):
        """Ordered dict of the hooks registered on this link (name -> hook)."""
        hooks = self._local_link_hooks
        if hooks is None:
            hooks = self._local_link_hooks = collections.OrderedDict()
        return hooks

    def add_hook(self, hook, name=None):
        """Registers a link hook on this link.

        Args:
            hook (~chainer.LinkHook): The hook.
            name (str): Key to register it under (default: ``hook.name``).

        Returns:
            Link: This link.
        """
        if not isinstance(hook, link_hook.LinkHook):
            raise TypeError('Hook must be of type LinkHook')
        if name is None:
            name = hook.name
        hooks = self.local_link_hooks
        if name in hooks:
            raise KeyError(f'Hook {name} already exists')
        hooks[name] = hook
        self._n_local_link_hooks = len(hooks)
        hook.added(self)
        return self

    def delete_hook(self, name):
        """Unregisters the link hook registered under ``name``."""
        hooks = self.local_link_hooks
        if name not in hooks:
            raise KeyError(f'Hook {name} does not exist')
        hooks[name].deleted(self)
        del hooks[name]
        self._n_local_link_hooks = len(hooks)

    # ---- text ------------------------------------------------------------------------
    @property
    def printable_specs(self):
        """``(name, value)`` pairs shown by ``str(link)``; links override it."""
        return iter(())

    def __str__(self):
        specs = ', '.join(f'{k}={v}' for k, v in self.printable_specs)
        return f'{type(self).__name__}({specs})'


def _children_str(link, items):
    lines = [f'{type(link).__name__}(']
    for name, child in items:
        text = str(child).replace('\n', '\n  ')
        lines.append(f'  ({name}): {text},')
    lines.append(')')
    return '\n'.join(lines) if len(lines) > 2 else f'{type(link).__name__}()'


class Chain(Link):
    """A link whose child links are attributes.

    Links assigned inside :meth:`init_scope` (or added with :meth:`add_link`)
    become children: their parameters are this chain's too, under
    ``/<attribute name>``.

    Args:
        links: Child links to add, as ``name=link``.

    .. admonition:: Example

        >>> class MLP(chainer.Chain):
        ...     def __init__(self):
        ...         super().__init__()
        ...         with self.init_scope():
        ...             self.l1 = L.Linear(None, 4)
        ...             self.l2 = L.Linear(4, 2)
        ...     def forward(self, x):
        ...         return self.l2(F.relu(self.l1(x)))
        >>> MLP()(np.ones((1, 3), np.float32)).shape
        (1, 2)
    """

    def __init__(self, **links):
        super().__init__()
        self._children = set()
        for name, link in links.items():
            self.add_link(name, link)

    def _child_items(self):
        d = self.__dict__
        return [(name, d[name]) for name in sorted(self._children)]

    def __getitem__(self, name):
        """Returns the attribute ``name`` (usually a child link)."""
        return getattr(self, name)

    def __setattr__(self, name, value):
        if self._within_init_scope and isinstance(value, Link):
            if hasattr(self, name):
                raise AttributeError(f'cannot register a new link {name}: attribute exists '
                                     f'in {type(self).__name__}')
            value.name = name
            self._children.add(name)
        super().__setattr__(name, value)

    def __delattr__(self, name):
        self._children.discard(name)
        super().__delattr__(name)

    def add_link(self, name, link):
        """Registers a child link under ``name``.

        Args:
            name (str): Attribute name.
            link (Link): The child.
        """
        if name in self.__dict__:
            raise AttributeError(f'cannot register a new link {name}: attribute exists '
                                 f'in {type(self).__name__}')
        if not isinstance(link, Link):
            raise TypeError(f'cannot register a non-link object as a child: {name} of '
                            f'{type(self).__name__} would be a {type(link).__name__}')
        with self.init_scope():
            setattr(self, name, link)

    def _share_copy(self):
        ret = super()._share_copy()
        d = ret.__dict__
        d['_children'] = set(self._children)
        for name in ret._children:
            child = d[name].copy('share')
            child.name = name
            d[name] = child
        return ret

    def __str__(self):
        return _children_str(self, self._child_items())


class ChainList(Link):
    """A link whose child links form a list (``chainlist[i]``, ``len``, iteration).

    Args:
        links: The initial children.
    """

    def __init__(self, *links):
        super().__init__()
        self._children = []
        for link in links:
            self.add_link(link)

    def _child_items(self):
        return [(str(i), child) for i, child in enumerate(self._children)]

    def __setattr__(self, name, value):
        if self._within_init_scope and isinstance(value, Link):
            raise TypeError('cannot register a new link within a "with '
                            'chainlist.init_scope():" block.')
        super().__setattr__(name, value)

    def __setitem__(self, index, value):
        if not isinstance(index, int):
            raise TypeError(f'ChainList indices must be integers, not {type(index).__name__}')
        if not isinstance(value, Link):
            raise _NotALinkError(f'{type(self).__name__}[{index}] must be a Link, got '
                                 f'{type(value).__name__}')
        self._children[index].name = None
        value.name = str(index)
        self._children[index] = value

    def __getitem__(self, index):
        """Returns the child at ``index`` (a list for a slice)."""
        return self._children[index]

    def __iter__(self):
        return iter(self._children)

    def __len__(self):
        return len(self._children)

    def add_link(self, link):
        """Appends a child link (named by its index).

        Args:
            link (Link): The child.
        """
        if not isinstance(link, Link):
            raise _NotALinkError(f'{type(self).__name__} can only hold Links: child '
                                 f'{len(self._children)} would be a {type(link).__name__}')
        link.name = str(len(self._children))
        self._children.append(link)

    def append(self, link):
        """Appends a child link (same as :meth:`add_link`)."""
        self.add_link(link)

    def insert(self, index, link):
        """Inserts a child link before position ``index`` (the children are renamed by their
        new positions).

        Args:
            index (int): Where ``link`` goes, as in :meth:`list.insert`.
            link (Link): The child.
        """
        if not isinstance(link, Link):
            raise _NotALinkError(f'{type(self).__name__} can only hold Links: cannot insert '
                                 f'a {type(link).__name__}')
        self._children.insert(index, link)
        for i, child in enumerate(self._children):
            child.name = str(i)

    def _share_copy(self):
        ret = super()._share_copy()
        children = [child.copy('share') for child in self._children]
        for i, child in enumerate(children):
            child.name = str(i)
        ret.__dict__['_children'] = children
        return ret

    def __str__(self):
        return _children_str(self, self._child_items())
