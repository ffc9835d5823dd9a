"""Base of the link hooks that replace a link's weight by a function of it during forward."""
from chainer import link_hook


class WeightHook(link_hook.LinkHook):
    # During forward, `link.<weight_name>` is the Variable returned by `transform(link, W)`;
    # afterwards the Parameter is put back, so users and optimizers only ever see it.

    weight_name = 'W'
    _initialized = False

    def __enter__(self):
        raise NotImplementedError(f'{type(self).__name__}: this hook is not supposed to be '
                                  f'used as context manager; register it with '
                                  f'link.add_hook(hook)')

    def __exit__(self, *_):
        raise NotImplementedError()

    def added(self, link):
        if not hasattr(link, self.weight_name):
            raise ValueError(f"Weight '{self.weight_name}' does not exist! "
                             f"({type(link).__name__} has no attribute {self.weight_name!r})")
        if getattr(link, self.weight_name).array is not None:
            self._prepare(link)

    def _prepare(self, link):
        # Called once the weight exists (when added, or at the first call of a lazy link).
        self._initialized = True

    def forward_preprocess(self, cb_args):
        link = cb_args.link
        if not self._initialized:
            if getattr(link, self.weight_name).array is None:
                # Lazy links (Linear, Convolution) size their weight from x.shape[1].
                link._initialize_params(cb_args.args[0].shape[1])
            self._prepare(link)
        self.original_weight = getattr(link, self.weight_name)
        setattr(link, self.weight_name, self.transform(link, self.original_weight))

    def forward_postprocess(self, cb_args):
        setattr(cb_args.link, self.weight_name, self.original_weight)

    def transform(self, link, W):
        raise NotImplementedError()
