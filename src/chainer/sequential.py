"""Sequential: a link that applies its layers one after another."""
from chainer import link as _link


def _layer_type_name(layer):
    # Links (and other callable objects) by class name; functions by their own name.
    if isinstance(layer, _link.Link) or not hasattr(layer, '__name__'):
        return type(layer).__name__
    return layer.__name__


def _check_callable(layer):
    if not callable(layer):
        raise ValueError(f'All elements of the argument should be callable. But given '
                         f'{layer} is not callable.')


class Sequential(_link.ChainList):
    """A list of layers (links or any callables) applied in order.

    Calling it passes the input through each layer; a layer that returns a
    tuple has it spread over the next layer's arguments. The layers that are
    links are its children (named ``'0'``, ``'1'``... in order), so their
    parameters are the Sequential's.

    Args:
        layers: The layers: links, functions or other callables.

    .. admonition:: Example

        >>> model = chainer.Sequential(L.Linear(3, 4), F.relu, L.Linear(4, 2))
        >>> model(np.ones((1, 3), np.float32)).shape
        (1, 2)
        >>> [name for name, _ in model.namedparams()]
        ['/0/W', '/0/b', '/1/W', '/1/b']
    """

    def __init__(self, *layers):
        super().__init__()
        self._layers = []
        for layer in layers:
            self.append(layer)

    def _sync_children(self):
        # The children are the links among the layers, named by their position among them.
        children = [layer for layer in self._layers if isinstance(layer, _link.Link)]
        for i, child in enumerate(children):
            child.name = str(i)
        self._children = children

    # ---- list protocol ---------------------------------------------------------
    def __len__(self):
        return len(self._layers)

    def __getitem__(self, i):
        """Returns the layer at ``i`` (a list of layers for a slice)."""
        return self._layers[i]

    def __setitem__(self, i, layer):
        _check_callable(layer)
        self._layers[i] = layer
        self._sync_children()

    def __delitem__(self, i):
        del self._layers[i]
        self._sync_children()

    def __iter__(self):
        return iter(self._layers)

    def __reversed__(self):
        return reversed(self._layers)

    def __contains__(self, layer):
        return layer in self._layers

    def __add__(self, other):
        if not isinstance(other, Sequential):
            raise ValueError(f'add (+) operator supports only objects of Sequential class, '
                             f'but {type(other)} is given.')
        return Sequential(*self._layers, *other._layers)

    def __iadd__(self, other):
        if not isinstance(other, Sequential):
            raise ValueError(f'add (+) operator supports only objects of Sequential class, '
                             f'but {type(other)} is given.')
        self.extend(other)
        return self

    def append(self, layer):
        """Appends a layer."""
        self.insert(len(self._layers), layer)

    def extend(self, sequential):
        """Appends every layer of ``sequential`` (or of any iterable of layers)."""
        for layer in sequential:
            self.append(layer)

    def insert(self, i, layer):
        """Inserts a layer before position ``i``."""
        _check_callable(layer)
        self._layers.insert(i, layer)
        self._sync_children()

    def pop(self, i=-1):
        """Removes and returns the layer at ``i`` (the last by default)."""
        layer = self._layers.pop(i)
        self._sync_children()
        return layer

    def remove(self, layer):
        """Removes the first occurrence of ``layer``."""
        self._layers.remove(layer)
        self._sync_children()

    def remove_by_layer_type(self, type_name):
        """Removes every layer whose type name (class name of a link, name of a
        function) is ``type_name``."""
        self._layers = [layer for layer in self._layers
                        if _layer_type_name(layer) != type_name]
        self._sync_children()

    def clear(self):
        """Removes every layer."""
        self._layers = []
        self._sync_children()

    def index(self, layer, start=None, end=None):
        """Returns the position of the first occurrence of ``layer``."""
        return self._layers[start:end].index(layer) + (start or 0)

    def count(self, layer):
        """Returns how many times ``layer`` occurs."""
        return self._layers.count(layer)

    def count_by_layer_type(self, type_name):
        """Returns how many layers have the type name ``type_name`` (see
        :meth:`remove_by_layer_type`)."""
        return sum(1 for layer in self._layers if _layer_type_name(layer) == type_name)

    def reverse(self):
        """Reverses the order of the layers in place."""
        self._layers.reverse()
        self._sync_children()

    # ---- calling and copies -------------------------------------------------------
    def forward(self, *x):
        """Applies the layers in order (a tuple output is spread over the next layer)."""
        if not self._layers:
            raise RuntimeError('Sequential does not have any layer.')
        for layer in self._layers:
            x = layer(*x) if isinstance(x, tuple) else layer(x)
        return x

    def copy(self, mode='share'):
        """Returns a copy whose links are copied with ``mode`` (see
        :meth:`Link.copy`); the other layers are shared."""
        ret = Sequential()
        for layer in self._layers:
            ret.append(layer.copy(mode) if isinstance(layer, _link.Link) else layer)
        return ret

    def copyparams(self, link, copy_persistent=True):
        """Copies the parameters of the links of another Sequential, position by position."""
        if not isinstance(link, Sequential):
            raise ValueError('Objects other than Sequential object cannot be copied to a '
                             f'Sequential object, got {type(link).__name__}.')
        for mine, theirs in zip(self._layers, link._layers):
            if isinstance(mine, _link.Link):
                mine.copyparams(theirs, copy_persistent)

    def flatten(self):
        """Returns a new Sequential with the layers of nested Sequentials spliced in."""
        ret = Sequential()
        for layer in self._layers:
            if isinstance(layer, Sequential):
                ret.extend(layer.flatten())
            else:
                ret.append(layer)
        return ret

    def __str__(self):
        items = [(str(i), layer if isinstance(layer, _link.Link) else _Repr(layer))
                 for i, layer in enumerate(self._layers)]
        return _link._children_str(self, items)


class _Repr:
    # Shows a plain callable by its repr in Sequential's text form.

    def __init__(self, obj):
        self.obj = obj

    def __str__(self):
        return repr(self.obj)
