"""Converts model files between Chainer's ``.npz`` and PyTorch ``state_dict`` files, both ways.

From the command line (the direction follows the input file's format)::

    python -m chainer.tools.convert_checkpoint model.npz model.pt
    python -m chainer.tools.convert_checkpoint model.pt model.npz
    python -m chainer.tools.convert_checkpoint result/snapshot_iter_300 mlp.pt \\
        --prefix updater/model:main/predictor/

Layers are recognised from the parameter names and shapes in the file, so no model code is
needed; the functions below also take the Chainer model, which names each layer's class.
The layers known are those of :data:`chainer.tools._checkpoint_layers.LAYERS` (Linear,
EmbedID, (de)convolutions, BatchNormalization, LSTM, the NStep RNNs); the vision models are
made of them, and :mod:`chainer.tools.torch_models` holds their PyTorch equivalents. Any
other layer is an error naming it. Nothing in an input file is ever run: ``.npz`` files are
read without pickles (as ``load_npz`` reads them) and PyTorch files with
``torch.load(..., weights_only=True)``.

This tool is rechainer's addition; Chainer 7 had none.
"""
import argparse
import os
import sys
import zipfile

import numpy

from chainer.serializers import _files
from chainer.tools import _checkpoint_layers

LAYERS = _checkpoint_layers.LAYERS


class UnknownLayerError(ValueError):
    """A layer that the converter has no entry for (named in the message)."""


def _layer_key(path, key):
    return f'{path}/{key}' if path else key


def _torch_key(path, leaf):
    return f'{path.replace("/", ".")}.{leaf}' if path else leaf


def _shape(value):
    return None if value is None or getattr(value, 'dtype', None) == object else value.shape


def _subtree(arrays, path):
    # The entries under a layer, keyed relative to it.
    if not path:
        return dict(arrays)
    start = path + '/'
    return {k[len(start):]: v for k, v in arrays.items() if k.startswith(start)}


def _describe(keys, limit=8):
    keys = sorted(keys)
    more = f', ... ({len(keys)} in all)' if len(keys) > limit else ''
    return ', '.join(keys[:limit]) + more


def _where(path):
    return repr(path) if path else 'the root'


def _known():
    return ', '.join(name for entry in LAYERS if not entry.refused for name in entry.links)


# ---- finding the layers ------------------------------------------------------------------


def _layers_of_model(model):
    """``[(path, entry, options)]`` of a Chainer link tree, by the links' classes."""
    from chainer import variable
    found = []
    covered = []
    for path, link in model.namedlinks():
        path = path.strip('/')
        if any(not c or path == c or path.startswith(c + '/') for c in covered):
            continue
        entry = _checkpoint_layers.for_link(link)
        where = f'{type(link).__module__}.{type(link).__name__} at {_where(path)}'
        if entry is not None:
            if entry.refused:
                raise UnknownLayerError(f'cannot convert {where}: {entry.refused}')
            found.append((path, entry, entry.options(link)))
            covered.append(path)
            continue
        d = link.__dict__
        own = sorted(link._params) + sorted(
            n for n in link._persistent if variable._is_array(d[n]))
        if own:
            raise UnknownLayerError(
                f'no converter for {where} (its own parameters: {", ".join(own)}); the '
                f'converter knows {_known()} and chains of them')
    return found


def _layers_of_chainer_file(shapes, directions):
    """``[(path, entry, options)]`` recognised from Chainer keys and shapes."""
    found = []

    def visit(path, sub):
        for entry in LAYERS:
            options = entry.match_chainer(sub)
            if options is None:
                continue
            if entry.refused:
                raise UnknownLayerError(
                    f'cannot convert the layer at {_where(path)} (parameters of a '
                    f'{"/".join(entry.links)}): {entry.refused}')
            if options.get('directions', 0) is None:
                options = dict(options, directions=directions.get(path))
                if options['directions'] is None:
                    raise ValueError(
                        f'{path!r}: {len({k.partition("/")[0] for k in sub})} NStep layers '
                        'whose input size equals the hidden size may be as many '
                        'unidirectional layers or half as many bidirectional ones; say '
                        f'which with --bidirectional {path} or --unidirectional {path} '
                        '(bidirectional=/unidirectional= in Python), or give the model')
            found.append((path, entry, options))
            return
        leaves = [k for k in sub if '/' not in k]
        if leaves:
            raise UnknownLayerError(
                f'no converter recognises the layer at {_where(path)} (entries: '
                f'{_describe(leaves)}); the converter knows {_known()} and chains of them')
        children = {}
        for key in sub:
            child, _, rest = key.partition('/')
            children.setdefault(child, {})[rest] = sub[key]
        for child, rel in children.items():
            visit(_layer_key(path, child), rel)

    visit('', shapes)
    return found


def _layers_of_torch_file(shapes):
    """``[(path, entry, options)]`` recognised from PyTorch keys and shapes."""
    modules = {}
    for key, shape in shapes.items():
        module, _, leaf = key.rpartition('.')
        modules.setdefault(module, {})[leaf] = shape
    found = []
    for module, sub in modules.items():
        for entry in LAYERS:
            options = entry.match_torch(sub)
            if options is not None:
                found.append((module.replace('.', '/'), entry, options))
                break
        else:
            raise UnknownLayerError(
                f'no converter recognises the PyTorch module at {_where(module)} '
                f'(entries: {_describe(sub)}); the converter knows the equivalents of '
                f'{_known()}: ' + ', '.join(e.torch for e in LAYERS if not e.refused))
    return found


# ---- conversion ----------------------------------------------------------------------------


def _directions(bidirectional, unidirectional):
    d = {p.strip('/'): 1 for p in unidirectional}
    d.update({p.strip('/'): 2 for p in bidirectional})
    return d


def _snapshot_hint(keys):
    if any(k.startswith('updater/model:') for k in keys):
        return (' This looks like a trainer snapshot: pass the model\'s path as prefix, e.g. '
                '--prefix updater/model:main/ (or updater/model:main/predictor/ for a '
                'Classifier\'s predictor).')
    return ''


def chainer_to_torch(source, model=None, *, prefix='', skip=(), bidirectional=(),
                     unidirectional=()):
    """Converts Chainer parameters to a PyTorch ``state_dict``.

    Args:
        source (~chainer.Link or dict): A link, or the entries of an ``.npz`` file (key ->
            array, as :func:`numpy.load` or :func:`chainer.serializers.npz.serialize` give).
        model (~chainer.Link): The model whose layers the entries are; by default ``source``
            when it is a link, else the layers are recognised from the names and shapes.
        prefix (str): Convert only the entries under this path (``'predictor/'``...).
        skip (iterable of str): Leave out these entries and the entries under these paths
            (relative to ``prefix``): counters and other values that are not weights.
        bidirectional, unidirectional (iterables of str): Paths of NStep links whose
            direction the shapes leave open.

    Returns:
        dict: PyTorch key -> ``numpy.ndarray``, for ``torch.from_numpy`` and
        ``load_state_dict``.

    Raises:
        UnknownLayerError: A layer that the converter does not know (named).
        ValueError: Missing, extra or uninitialized entries.
    """
    from chainer import link as link_module
    from chainer.serializers import npz
    if isinstance(source, link_module.Link):
        if model is None:
            model = source
        arrays = npz.serialize(source)
    else:
        arrays = dict(source)
    arrays = _skip(_select(arrays, prefix), skip)
    if model is not None:
        layers = _layers_of_model(model)
    else:
        layers = _layers_of_chainer_file({k: _shape(v) for k, v in arrays.items()},
                                         _directions(bidirectional, unidirectional))
    out = {}
    used = set()
    for path, entry, options in layers:
        sub = _subtree(arrays, path)
        for key, value in sub.items():
            if _shape(value) is None:
                raise ValueError(f'{_layer_key(path, key)!r} is not initialized (the model was '
                                 'saved before its first forward); run it once and save again')
        try:
            converted = entry.to_torch({k: numpy.asarray(v) for k, v in sub.items()},
                                       **options)
        except KeyError as e:
            raise ValueError(f'the entries of {_where(path)} lack {e.args[0]!r} '
                             f'(a {"/".join(entry.links)} has them)') from None
        used.update(_layer_key(path, k) for k in sub)
        for leaf, value in converted.items():
            out[_torch_key(path, leaf)] = numpy.asarray(value, order='C')
    extra = set(arrays) - used
    if extra:
        raise ValueError(f'entries that belong to no layer of the model: {_describe(extra)}'
                         + _snapshot_hint(extra))
    return out


def torch_to_chainer(state_dict, model=None):
    """Converts a PyTorch ``state_dict`` to Chainer parameters.

    Args:
        state_dict (dict): PyTorch key -> tensor (or array).
        model (~chainer.Link): The Chainer model to convert for: it decides between layers
            that PyTorch stores alike, and the result is checked against its entries. By
            default the layers are recognised from the names and shapes.

    Returns:
        dict: ``.npz`` key -> ``numpy.ndarray``; ``numpy.savez`` writes a file that
        ``chainer.serializers.load_npz`` loads.

    Raises:
        UnknownLayerError: A module that the converter does not know (named).
        ValueError: Missing or extra entries.
    """
    arrays = {k: _to_numpy(k, v) for k, v in state_dict.items()}
    if model is not None:
        layers = _layers_of_model(model)
    else:
        layers = _layers_of_torch_file({k: v.shape for k, v in arrays.items()})
    out = {}
    used = set()
    for path, entry, options in layers:
        module = path.replace('/', '.')
        start = module + '.' if module else ''
        sub = {k[len(start):]: v for k, v in arrays.items()
               if k.startswith(start) and '.' not in k[len(start):]}
        try:
            converted = entry.to_chainer(sub, **options)
        except KeyError as e:
            raise ValueError(f'the PyTorch module at {_where(module)} lacks '
                             f'{e.args[0]!r} (a {entry.torch} has it)') from None
        used.update(start + k for k in sub)
        for key, value in converted.items():
            out[_layer_key(path, key)] = numpy.asarray(value, order='C')
    extra = set(arrays) - used
    if extra:
        raise ValueError(f'PyTorch entries that belong to no layer of the model: '
                         f'{_describe(extra)}')
    if model is not None:
        from chainer.serializers import npz
        missing = set(npz.serialize(model)) - set(out)
        if missing:
            raise ValueError(f'the PyTorch weights lack entries of the model: '
                             f'{_describe(missing)}')
    return out


def load_state_dict(link, state_dict):
    """Loads a PyTorch ``state_dict`` into a Chainer link (all entries, checked first).

    Args:
        link (~chainer.Link): The model.
        state_dict (dict): PyTorch key -> tensor (or array).
    """
    from chainer.serializers import npz
    arrays = torch_to_chainer(state_dict, model=link)
    npz.NpzDeserializer(arrays).load(link)


def torch_module(link, **kwargs):
    """Returns the PyTorch module that computes what a Chainer link computes, with its weights.

    Args:
        link (~chainer.Link): A layer the converter knows (Linear, Convolution2D,
            BatchNormalization, LSTM, NStepLSTM...) or a vision model (VGG16Layers,
            ResNet50Layers...).
        kwargs: For BatchNormalization, ``dims`` (1, 2 or 3: ``BatchNorm1d``... ; default 2).

    Returns:
        torch.nn.Module: A new module on the CPU, float32 unless the link is not.
    """
    torch = _import_torch()
    from chainer.tools import torch_models
    module = torch_models.for_chainer_model(link)
    if module is None:
        entry = _checkpoint_layers.for_link(link)
        if entry is None or entry.refused:
            reason = f': {entry.refused}' if entry is not None else ''
            raise UnknownLayerError(f'no PyTorch module is known for {type(link).__name__}'
                                    f'{reason or "; the converter knows " + _known()}')
        module = entry.torch_module(link, torch, **kwargs)
    state = chainer_to_torch(link)
    dtype = next(iter(state.values())).dtype if state else numpy.float32
    if dtype.kind == 'f':
        module = module.to(getattr(torch, str(dtype)))
    module.load_state_dict({k: torch.from_numpy(v) for k, v in state.items()})
    return module


# ---- files ---------------------------------------------------------------------------------


def _import_torch():
    try:
        import torch
    except ImportError as e:
        raise ImportError('converting PyTorch files needs PyTorch: pip install torch (see the '
                          'README for the CPU-only wheel)') from e
    return torch


def _to_numpy(key, value):
    if isinstance(value, numpy.ndarray):
        return value
    torch = sys.modules.get('torch')
    if torch is not None and isinstance(value, torch.Tensor):
        value = value.detach().cpu()
        if value.dtype == torch.bfloat16:
            raise ValueError(f'{key!r} is bfloat16, which NumPy has no type for; convert '
                             'the state_dict to float32 first')
        return value.numpy()
    raise TypeError(f'state_dict entry {key!r} must be a tensor or an array, got '
                    f'{type(value).__name__}')


def _select(arrays, prefix):
    if not prefix:
        return arrays
    prefix = prefix.strip('/') + '/'
    out = {k[len(prefix):]: v for k, v in arrays.items() if k.startswith(prefix)}
    if not out:
        roots = sorted({k.partition('/')[0] for k in arrays})
        raise ValueError(f'no entry starts with the prefix {prefix!r}; the top-level names '
                         f'are {", ".join(roots[:12])}')
    return out


def _skip(arrays, skip):
    skip = [s.strip('/') for s in skip]
    return {k: v for k, v in arrays.items()
            if not any(k == s or k.startswith(s + '/') for s in skip)}


def file_format(path):
    """``'torch'`` or ``'npz'``: what a model file holds (by its contents, not its name)."""
    try:
        with zipfile.ZipFile(path) as zf:
            names = zf.namelist()
    except zipfile.BadZipFile:
        return 'torch'      # PyTorch's legacy (pre-1.6) format is not a zip archive
    if any(n.endswith('/data.pkl') or n == 'data.pkl' for n in names):
        return 'torch'
    return 'npz'


def read_torch(path, key=None):
    """Reads a PyTorch file's ``state_dict`` as NumPy arrays, never running code from it.

    Args:
        path (str): The file (``torch.save`` output).
        key (str): The entry holding the state_dict when the file holds a dict of several
            things (``{'model': ..., 'optimizer': ...}``).

    Returns:
        dict: PyTorch key -> ``numpy.ndarray``.
    """
    torch = _import_torch()
    try:
        obj = torch.load(path, map_location='cpu', weights_only=True)
    except Exception as e:
        raise ValueError(f'cannot read {path!r} as a PyTorch file of tensors ({type(e).__name__}'
                         f': {e}); only weights are read, never pickled code') from e
    if key is not None:
        if not isinstance(obj, dict) or key not in obj:
            raise ValueError(f'{path!r} has no entry {key!r}')
        obj = obj[key]
    if not isinstance(obj, dict):
        raise ValueError(f'{path!r} holds a {type(obj).__name__}, not a state_dict')
    bad = [k for k, v in obj.items() if not isinstance(v, torch.Tensor)]
    if bad:
        dicts = [k for k, v in obj.items() if isinstance(v, dict)]
        hint = f'; pass --key with one of {", ".join(map(str, dicts))}' if dicts else ''
        raise ValueError(f'{path!r} is not a plain state_dict: entries {_describe(map(str, bad))} '
                         f'are not tensors{hint}')
    return {k: _to_numpy(k, v) for k, v in obj.items()}


def write_torch(path, state):
    """Writes a ``state_dict`` of arrays with ``torch.save`` (atomically)."""
    torch = _import_torch()
    tensors = {k: torch.from_numpy(numpy.asarray(v, order='C')) for k, v in state.items()}
    with _files.atomic_open(path) as f:
        torch.save(tensors, f)


def write_npz(path, arrays):
    """Writes Chainer entries as a compressed ``.npz`` (atomically)."""
    with _files.atomic_open(path) as f:
        numpy.savez_compressed(f, **arrays)


def convert(src, dst, *, prefix='', skip=(), key=None, bidirectional=(), unidirectional=()):
    """Converts a model file: Chainer ``.npz`` to a PyTorch ``state_dict`` file or back.

    Args:
        src (str): The input, either format (decided by its contents).
        dst (str): The output, written atomically in the other format.
        prefix (str): For an ``.npz``: convert the entries under this path only.
        skip (iterable of str): For an ``.npz``: entries (or paths) to leave out.
        key (str): For a PyTorch file: the entry that holds the state_dict.
        bidirectional, unidirectional: See :func:`chainer_to_torch`.

    Returns:
        tuple: The format written (``'torch'`` or ``'npz'``) and a list of notes on what the
        PyTorch model must be made with (BatchNorm's ``eps``...).
    """
    if not os.path.exists(src):
        raise FileNotFoundError(f'no such file: {src!r}')
    if file_format(src) == 'npz':
        state = chainer_to_torch(_files.read_npz(src), prefix=prefix, skip=skip,
                                 bidirectional=bidirectional, unidirectional=unidirectional)
        write_torch(dst, state)
        return 'torch', _notes(state)
    write_npz(dst, torch_to_chainer(read_torch(src, key)))
    return 'npz', []


# Printed after a conversion to PyTorch that holds such layers: what the file cannot say.
_NOTES = (
    ('.running_mean', 'BatchNormalization: make the PyTorch BatchNorm layers with eps=2e-5 '
                      "(Chainer's default; PyTorch's is 1e-5) and momentum=1 - decay (0.1)"),
    ('.weight_ih', 'LSTM: L.LSTM became LSTMCell weights (weight_ih, weight_hh, bias_ih, '
                   'bias_hh); to use them in nn.LSTM, name them weight_ih_l0...'),
)


def _notes(keys):
    return [note for suffix, note in _NOTES if any(('.' + k).endswith(suffix) for k in keys)]


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog='python -m chainer.tools.convert_checkpoint',
        description='Converts a Chainer .npz model file to a PyTorch state_dict file, or a '
                    'PyTorch state_dict file to a Chainer .npz (the direction follows the '
                    "input's format). Nothing in the input is run.")
    parser.add_argument('src', help='input file (.npz from save_npz or a trainer snapshot, or '
                                    'a torch.save file)')
    parser.add_argument('dst', help='output file')
    parser.add_argument('--prefix', default='',
                        help='convert the .npz entries under this path only, e.g. '
                             'updater/model:main/predictor/ in a trainer snapshot')
    parser.add_argument('--skip', action='append', default=[], metavar='PATH',
                        help='leave out this .npz entry (or the entries under this path), '
                             'e.g. a counter that is not a weight; repeatable')
    parser.add_argument('--key', help='the entry of a PyTorch file that holds the state_dict')
    parser.add_argument('--bidirectional', action='append', default=[], metavar='PATH',
                        help='an NStep link that is bidirectional, when the shapes leave it '
                             'open')
    parser.add_argument('--unidirectional', action='append', default=[], metavar='PATH',
                        help='an NStep link that is unidirectional, when the shapes leave it '
                             'open')
    args = parser.parse_args(argv)
    try:
        written, notes = convert(
            args.src, args.dst, prefix=args.prefix, skip=args.skip, key=args.key,
            bidirectional=args.bidirectional, unidirectional=args.unidirectional)
    except (ValueError, TypeError, ImportError, OSError) as e:
        print(f'convert_checkpoint: error: {e}', file=sys.stderr)
        return 1
    print(f'wrote {args.dst} ({"PyTorch state_dict" if written == "torch" else "Chainer npz"})')
    for note in notes:
        print(f'note: {note}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
