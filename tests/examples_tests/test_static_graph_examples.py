"""Chainer's static-graph examples (``static_graph_optimizations``: mnist, cifar, ptb).

Each script runs unchanged from a scratch copy, on a small dataset cache written in Chainer's
layout, once with the static graph and once with ``use_static_graph = False`` (through
``_static_graph_wrapper.py``): the losses it reports must be equal.
"""
import json
import os
import re
import shutil
import subprocess
import sys

import numpy
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
EXAMPLES = os.path.join(os.path.dirname(ROOT), 'shared', 'chainer-examples',
                        'static_graph_optimizations')
WRAPPER = os.path.join(HERE, '_static_graph_wrapper.py')

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not os.path.isdir(EXAMPLES), reason=f'{EXAMPLES} is not here'),
]


def write_dataset_cache(root, n_train, n_test, n_words=400, n_vocab=50):
    """Random data in the files Chainer's get_mnist, get_cifar10 and get_ptb_words read."""
    rs = numpy.random.RandomState(0)

    def folder(name):
        path = os.path.join(root, 'pfnet', 'chainer', name)
        os.makedirs(path, exist_ok=True)
        return path

    def images(n, size):
        return rs.randint(0, 256, (n, size)).astype(numpy.uint8)

    def labels(n):
        return rs.randint(0, 10, n).astype(numpy.uint8)

    mnist = folder('mnist')
    numpy.savez_compressed(os.path.join(mnist, 'train.npz'), x=images(n_train, 784),
                           y=labels(n_train))
    numpy.savez_compressed(os.path.join(mnist, 'test.npz'), x=images(n_test, 784),
                           y=labels(n_test))
    numpy.savez_compressed(os.path.join(folder('cifar'), 'cifar-10.npz'),
                           train_x=images(n_train, 3072), train_y=labels(n_train),
                           test_x=images(n_test, 3072), test_y=labels(n_test))
    ptb = folder('ptb')
    with open(os.path.join(ptb, 'vocab.txt'), 'w') as f:
        f.write(''.join(f'w{i}\n' for i in range(n_vocab - 1)) + '<eos>\n')
    for name in ('train', 'valid', 'test'):
        numpy.savez_compressed(os.path.join(ptb, name + '.npz'),
                               x=rs.randint(0, n_vocab, n_words).astype(numpy.int32))


@pytest.fixture(scope='module')
def scratch(tmp_path_factory):
    base = tmp_path_factory.mktemp('static_examples')
    shutil.copytree(EXAMPLES, base / 'examples')
    write_dataset_cache(str(base / 'data'), 64, 32)
    write_dataset_cache(str(base / 'data_cifar'), 12, 4)    # VGG is slow on a CPU
    return base


def run(scratch, script, static, args, data='data', check=True):
    out = scratch / f'{os.path.basename(script)}-{"on" if static else "off"}-{len(args)}'
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir()
    env = dict(os.environ, CHAINER_DATASET_ROOT=str(scratch / data), MPLBACKEND='Agg',
               PYTHONPATH=os.pathsep.join([os.path.join(ROOT, 'src')]
                                          + [p for p in [os.environ.get('PYTHONPATH')] if p]),
               OMP_NUM_THREADS='1', OPENBLAS_NUM_THREADS='1')
    proc = subprocess.run(
        [sys.executable, WRAPPER, str(scratch / 'examples' / script), 'on' if static else 'off',
         '--device', '-1', *args],
        cwd=out, capture_output=True, text=True, timeout=900, env=env)
    if check:
        assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert 'cannot be replayed' not in proc.stderr, proc.stderr[-3000:]
    return out, proc


def trainer_log(out):
    with open(os.path.join(out, 'result', 'log')) as f:
        return [{k: v for k, v in entry.items() if 'loss' in k or 'accuracy' in k}
                for entry in json.load(f)]


def printed(proc, pattern):
    return re.findall(pattern, proc.stdout)


@pytest.mark.parametrize('model', ['MLP', 'MLPSideEffect'])
def test_mnist(scratch, model):
    args = ['-b', '16', '-e', '2', '-u', '20', '-m', model]
    logs = [trainer_log(run(scratch, 'mnist/train_mnist.py', static, args)[0])
            for static in (True, False)]
    assert len(logs[0]) == 2 and 'validation/main/loss' in logs[0][0]
    assert logs[0] == logs[1]


def test_mnist_custom_loop(scratch):
    args = ['-b', '16', '-e', '2', '-u', '20']
    outs = [printed(run(scratch, 'mnist/train_mnist_custom_loop.py', static, args)[1],
                    r'(?:train|test) mean +loss: \S+, accuracy: \S+')
            for static in (True, False)]
    assert len(outs[0]) == 4
    assert outs[0] == outs[1]


def test_ptb_unrolled_lstm(scratch):
    # The script stops at its first evaluation, on the original Chainer 7.8.1 too: its
    # ParallelSequentialIterator has no reset(). The training perplexity comes before.
    args = ['-b', '4', '-l', '5', '-e', '1', '-u', '8']
    outs = []
    for static in (True, False):
        _, proc = run(scratch, 'ptb/train_ptb_custom_loop.py', static, args, check=False)
        assert "'ParallelSequentialIterator' object has no attribute 'reset'" in proc.stderr, \
            proc.stderr[-3000:]
        outs.append(printed(proc, r'training perplexity: +\S+'))
    assert len(outs[0]) == 1
    assert outs[0] == outs[1]


def test_cifar(scratch):
    args = ['-b', '4', '-e', '1']
    logs = [trainer_log(run(scratch, 'cifar/train_cifar.py', static, args, 'data_cifar')[0])
            for static in (True, False)]
    assert len(logs[0]) == 1
    assert logs[0] == logs[1]


def test_cifar_custom_loop(scratch):
    args = ['-b', '4', '-e', '1']
    outs = [printed(run(scratch, 'cifar/train_cifar_custom_loop.py', static, args,
                        'data_cifar')[1], r'(?:train|test) mean +loss: \S+, accuracy: \S+')
            for static in (True, False)]
    assert len(outs[0]) == 2
    assert outs[0] == outs[1]
