"""The interface every ChainerMN communicator implements."""
import abc
import contextlib
import warnings


class CommunicatorBase(metaclass=abc.ABCMeta):
    """Interface of ChainerMN communicators.

    A communicator connects the processes of one job. It exchanges arrays (``send``, ``bcast``,
    ``allreduce``, ...), arbitrary Python objects (the ``*_obj`` methods) and whole models
    (``bcast_data`` for parameters, ``multi_node_mean_grad`` for gradients).

    Settings (``batched_copy``, ``allreduce_grad_dtype``, ...) are set with :meth:`set_config`
    and read with :meth:`get_config` or as attributes (``comm.batched_copy``).
    """

    def __init__(self):
        pass

    def __deepcopy__(self, memo):
        # A communicator is this process's connection to the others, not data: deep copies
        # of models (MultiNodeBatchNormalization, create_mnbn_model) share it.
        return self

    # Settings live in a per-instance dict created on first use, so that subclasses that skip
    # ``__init__`` still work and no two communicators share them.
    @property
    def _configs(self):
        configs = self.__dict__.get('_configs')
        if configs is None:
            configs = {'_within_config_scope': False}
            self.__dict__['_configs'] = configs
        return configs

    def __getattr__(self, name):
        # Reached only when normal lookup fails: settings read as attributes.
        if not name.startswith('__'):
            configs = self._configs
            if name in configs:
                return configs[name]
        raise AttributeError(f'{type(self).__name__!r} object has no attribute {name!r}')

    def __setattr__(self, name, value):
        if self.within_config_scope:
            self._configs[name] = value
        else:
            super().__setattr__(name, value)

    @property
    def rank(self):
        """Rank (process id in the job) of this process."""
        raise NotImplementedError()

    @property
    def size(self):
        """Number of processes of the job."""
        raise NotImplementedError()

    @property
    def intra_rank(self):
        """Rank of this process among the processes of its machine."""
        raise NotImplementedError()

    @property
    def intra_size(self):
        """Number of processes on this machine."""
        raise NotImplementedError()

    @property
    def inter_rank(self):
        """Index of this process's machine among the machines of the job."""
        raise NotImplementedError()

    @property
    def inter_size(self):
        """Number of machines of the job."""
        raise NotImplementedError()

    def set_config(self, name, **kwargs):
        """Sets a setting of this communicator.

        Args:
            name (str): Name of the setting; which names exist depends on the communicator.
            **kwargs: The value and options, depending on the setting.

        Raises:
            ValueError: If this communicator has no setting ``name``.
        """
        raise ValueError(f'Unknown config: {name}')

    def get_config(self, name=None):
        """Returns the value of setting ``name``, or a dict of all settings if ``name`` is None.

        Raises:
            KeyError: If there is no setting ``name``.
        """
        if name is None:
            return dict(self._configs)
        return self._configs[name]

    @abc.abstractmethod
    def split(self, color, key):
        """Splits the processes into groups, like ``MPI_Comm_split``.

        Args:
            color (int): Group of this process; processes with the same color form a group.
            key (int): Order of this process within its group (its rank follows ``key``).

        Returns:
            CommunicatorBase: A communicator of the same class over the group.
        """
        raise NotImplementedError()

    @abc.abstractmethod
    def alltoall(self, xs):
        """Sends ``xs[i]`` to process ``i`` and receives one array from every process.

        Args:
            xs (tuple of arrays): One array per process (``len(xs) == size``).

        Returns:
            tuple of arrays: The array each process sent to this one, by rank.
        """
        raise NotImplementedError()

    @abc.abstractmethod
    def send(self, data, dest, tag):
        """Sends an array, or a tuple of arrays of one dtype, to process ``dest``.

        The receiver calls :meth:`recv` with the same tag.

        Args:
            data: A NumPy/CuPy array or a tuple/list of them.
            dest (int): Rank of the receiver.
            tag (int): Tag matching the receiver's.
        """
        raise NotImplementedError()

    @abc.abstractmethod
    def recv(self, source, tag):
        """Receives what process ``source`` sent with :meth:`send`.

        Args:
            source (int): Rank of the sender.
            tag (int): Tag of the message.

        Returns:
            The array, or a tuple of arrays when a tuple or list was sent.
        """
        raise NotImplementedError()

    @abc.abstractmethod
    def bcast(self, data, max_buf_len=None, root=0):
        """Sends an array from ``root`` to every process.

        Args:
            data: The array on ``root``; ignored elsewhere.
            max_buf_len (int): Largest message, where the communicator honours it.
            root (int): Rank that holds the array.

        Returns:
            The array, on every process.
        """
        raise NotImplementedError()

    @abc.abstractmethod
    def gather(self, data, root=0):
        """Collects one array from every process on ``root``.

        Args:
            data: This process's array.
            root (int): Rank that receives.

        Returns:
            On ``root``, the tuple of every process's array by rank; elsewhere ``None``.
        """
        raise NotImplementedError()

    @abc.abstractmethod
    def allgather(self, x):
        """Collects one array from every process on every process.

        Args:
            x: This process's array.

        Returns:
            tuple of arrays: Every process's array, by rank.
        """
        raise NotImplementedError()

    @abc.abstractmethod
    def allreduce(self, data):
        """Sums an array over all processes.

        Args:
            data: This process's array (the same shape and dtype on every process).

        Returns:
            The elementwise sum over all processes, on every process.
        """
        raise NotImplementedError()

    @abc.abstractmethod
    def scatter(self, xs, root=0):
        """Sends ``xs[i]`` from ``root`` to process ``i``.

        Args:
            xs (tuple of arrays): One array per process, on ``root``; ignored elsewhere.
            root (int): Rank that holds the arrays.

        Returns:
            The array meant for this process.
        """
        raise NotImplementedError()

    def finalize(self):
        """Releases the resources of this communicator; it must not be used afterwards."""
        pass

    @abc.abstractmethod
    def send_obj(self, obj, dest, tag):
        """Sends a picklable object to process ``dest``.

        Args:
            obj: The object.
            dest (int): Rank of the receiver.
            tag (int): Tag matching the receiver's.
        """
        raise NotImplementedError()

    @abc.abstractmethod
    def recv_obj(self, source, tag):
        """Receives an object sent with :meth:`send_obj`.

        Args:
            source (int): Rank of the sender.
            tag (int): Tag of the message.

        Returns:
            The object.
        """
        raise NotImplementedError()

    @abc.abstractmethod
    def bcast_obj(self, obj, max_buf_len=None, root=0):
        """Sends a picklable object from ``root`` to every process.

        Args:
            obj: The object on ``root``; ignored elsewhere.
            max_buf_len (int): Largest message in bytes; bigger pickles go in several.
            root (int): Rank that holds the object.

        Returns:
            The object, on every process.
        """
        raise NotImplementedError()

    @abc.abstractmethod
    def gather_obj(self, obj, root=0):
        """Collects one object from every process on ``root``.

        Returns:
            On ``root``, the list of every process's object by rank; elsewhere ``None``.
        """
        raise NotImplementedError()

    @abc.abstractmethod
    def allreduce_obj(self, obj):
        """Sums objects over all processes with ``+``.

        Args:
            obj: This process's object (a number, an array, a list, ...).

        Returns:
            ``obj_0 + obj_1 + ...`` over all processes, on every process.
        """
        raise NotImplementedError()

    @abc.abstractmethod
    def bcast_data(self, model):
        """Copies the parameters of ``model`` on rank 0 into ``model`` on every process."""
        raise NotImplementedError()

    def broadcast_data(self, model):
        """Same as :meth:`bcast_data`."""
        self.bcast_data(model)

    @abc.abstractmethod
    def multi_node_mean_grad(self, model, zero_fill=False):
        """Replaces the gradients of ``model`` by their mean over all processes.

        Args:
            model (~chainer.Link): The model; every process passes the same structure.
            zero_fill (bool): If True, an initialized parameter without a gradient takes part
                with zeros (and gets the mean); every process must then hold the same
                parameters. If False, parameters without a gradient are skipped, so every
                process must lack the same ones. Uninitialized parameters are always skipped.
        """
        raise NotImplementedError()

    def allreduce_grad(self, model, zero_fill=False):
        """Deprecated name of :meth:`multi_node_mean_grad`."""
        warnings.warn('allreduce_grad() is deprecated; use multi_node_mean_grad() instead.',
                      DeprecationWarning)
        self.multi_node_mean_grad(model, zero_fill)

    @property
    def within_config_scope(self):
        """True inside :meth:`config_scope`, where attribute assignments become settings."""
        return self._configs['_within_config_scope']

    @contextlib.contextmanager
    def config_scope(self):
        """A scope in which ``comm.name = value`` stores a setting (readable by get_config)."""
        configs = self._configs
        old = configs['_within_config_scope']
        configs['_within_config_scope'] = True
        try:
            yield
        finally:
            configs['_within_config_scope'] = old
