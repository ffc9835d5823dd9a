"""A toy English-French corpus in the layout ChainerMN's seq2seq examples read.

    python _toy_translation.py FOLDER

writes ``giga-fren.release2.fixed.{en,fr}`` (training pairs, one sentence per line) and
``dev/newstest2013.{en,fr}`` (held-out pairs): short sentences made from a small grammar
(subject, verb, object, adjective), translated word by word with French word order.
"""
import itertools
import os
import sys

import numpy

SUBJECTS = [('the cat', 'le chat'), ('the dog', 'le chien'), ('my friend', 'mon ami'),
            ('the child', "l'enfant")]
VERBS = [('sees', 'voit'), ('likes', 'aime'), ('eats', 'mange')]
OBJECTS = [('the apple', 'la pomme'), ('the bread', 'le pain'), ('the fish', 'le poisson')]
ADJECTIVES = [('big', 'grand'), ('small', 'petit'), ('', '')]


def pairs():
    """Every sentence of the grammar and its translation."""
    out = []
    for (se, sf), (ve, vf), (oe, of), (ae, af) in itertools.product(SUBJECTS, VERBS, OBJECTS,
                                                                      ADJECTIVES):
        article, noun = oe.split()
        en = ' '.join(w for w in (se, ve, article, ae, noun) if w) + ' .'
        fr = ' '.join(w for w in (sf, vf, of, af) if w) + ' .'
        out.append((en, fr))
    return out


def write(folder, n_dev=12):
    all_pairs = pairs()
    order = numpy.random.RandomState(0).permutation(len(all_pairs))
    dev = [all_pairs[i] for i in order[:n_dev]]
    train = [all_pairs[i] for i in order[n_dev:]]
    os.makedirs(os.path.join(folder, 'dev'), exist_ok=True)
    for name, subset in (('giga-fren.release2.fixed', train), ('dev/newstest2013', dev)):
        for lang, column in (('en', 0), ('fr', 1)):
            with open(os.path.join(folder, f'{name}.{lang}'), 'w', encoding='utf-8') as f:
                f.writelines(pair[column] + '\n' for pair in subset)
    return len(train), len(dev)


if __name__ == '__main__':
    print(write(sys.argv[1]))
