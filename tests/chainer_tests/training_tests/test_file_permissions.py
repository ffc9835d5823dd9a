"""Files written atomically (through a temporary file renamed into place) get the permissions
a plain ``open(path, 'w')`` would give: the umask's default for a new file, the old file's
mode when one is replaced. A temporary file from ``tempfile.mkstemp`` would leave 0600."""
import os
import stat

import numpy
import pytest

import chainer
from chainer import links as L
from chainer import serializers
from chainer import training
from chainer.dataset import download
from chainer.training import extensions
from chainer.training.extensions import snapshot_writers

UMASKS = (0o022, 0o077, 0o002)


def _mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.fixture(params=UMASKS, ids=oct)
def umask(request):
    old = os.umask(request.param)
    try:
        yield request.param
    finally:
        os.umask(old)


def _trainer(out, writer=None, extra=()):
    model = L.Classifier(L.Linear(3, 2))
    optimizer = chainer.optimizers.SGD()
    optimizer.setup(model)
    data = chainer.datasets.TupleDataset(numpy.ones((4, 3), numpy.float32),
                                         numpy.zeros(4, numpy.int32))
    iterator = chainer.iterators.SerialIterator(data, 2, shuffle=False)
    trainer = training.Trainer(training.updaters.StandardUpdater(iterator, optimizer),
                               (2, 'iteration'), out=str(out))
    trainer.extend(extensions.LogReport(trigger=(1, 'iteration')))
    trainer.extend(extensions.DumpGraph('main/loss'))
    trainer.extend(extensions.snapshot(writer=writer), trigger=(2, 'iteration'))
    for extension in extra:
        trainer.extend(extension)
    return trainer, model


def _writers():
    return {'simple': None, 'thread': snapshot_writers.ThreadWriter(),
            'process': snapshot_writers.ProcessWriter()}


def _save_npz(path, model):
    serializers.save_npz(path, model)


def _save_hdf5(path, model):
    pytest.importorskip('h5py')
    serializers.save_hdf5(path, model)


def _cache(path, model):
    download.cache_or_load_file(path, lambda p: numpy.savez(p, a=1), numpy.load)


@pytest.mark.parametrize('writer', ['simple', 'thread', 'process'])
def test_trainer_outputs_follow_the_umask(umask, writer, tmp_path):
    trainer, _ = _trainer(tmp_path / 'out', _writers()[writer])
    trainer.run()
    expected = 0o666 & ~umask
    for name in ('log', 'cg.dot', 'snapshot_iter_2'):
        assert _mode(tmp_path / 'out' / name) == expected, name


def test_plot_report_follows_the_umask(umask, tmp_path):
    pytest.importorskip('matplotlib')
    trainer, _ = _trainer(tmp_path / 'out', extra=[
        extensions.PlotReport(['main/loss'], trigger=(1, 'iteration'))])
    trainer.run()
    assert _mode(tmp_path / 'out' / 'plot.png') == 0o666 & ~umask


@pytest.mark.parametrize('save', [_save_npz, _save_hdf5, _cache], ids=lambda f: f.__name__)
def test_saved_files_follow_the_umask(umask, save, tmp_path):
    path = tmp_path / 'file.npz'
    save(path, L.Linear(2, 2))
    assert _mode(path) == 0o666 & ~umask
    plain = tmp_path / 'plain'
    plain.write_bytes(b'')
    assert _mode(path) == _mode(plain)


def test_cached_download_follows_the_umask(umask, tmp_path):
    source = tmp_path / 'source.bin'
    source.write_bytes(b'data')
    root = download.get_dataset_root()
    download.set_dataset_root(str(tmp_path / 'root'))
    try:
        cached = download.cached_download(source.as_uri())
    finally:
        download.set_dataset_root(root)
    assert _mode(cached) == 0o666 & ~umask


@pytest.mark.parametrize('save', [_save_npz, _save_hdf5], ids=lambda f: f.__name__)
def test_a_replaced_file_keeps_its_mode(save, tmp_path):
    # open(path, 'w') on an existing file keeps its permissions; so does a replace.
    path = tmp_path / 'file'
    save(path, L.Linear(2, 2))
    os.chmod(path, 0o640)
    save(path, L.Linear(2, 2))
    assert _mode(path) == 0o640


def test_a_replaced_snapshot_keeps_its_mode(tmp_path):
    trainer, _ = _trainer(tmp_path / 'out')
    trainer.run()
    path = tmp_path / 'out' / 'snapshot_iter_2'
    os.chmod(path, 0o604)
    trainer, _ = _trainer(tmp_path / 'out')
    trainer.run()
    assert _mode(path) == 0o604
