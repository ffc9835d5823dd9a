import threading

import numpy
import pytest

import chainer
import chainer.links as L


class Recorder(chainer.LinkHook):
    name = 'Recorder'

    def __init__(self):
        self.events = []

    def added(self, link):
        self.events.append(('added', link))

    def deleted(self, link):
        self.events.append(('deleted', link))

    def forward_preprocess(self, args):
        self.events.append(('pre', args.link, args.forward_name, args.args, args.kwargs))

    def forward_postprocess(self, args):
        self.events.append(('post', args.link, args.out))


def test_global_hook_sees_every_link_call_with_arguments():
    lin = L.Linear(2, 2)
    hook = Recorder()
    x = numpy.ones((1, 2), numpy.float32)
    with hook:
        y = lin(x, n_batch_axes=1)
    kinds = [e[0] for e in hook.events]
    assert kinds == ['added', 'pre', 'post', 'deleted']
    assert hook.events[0][1] is None and hook.events[1][1] is lin
    assert hook.events[1][2:] == ('forward', (x,), {'n_batch_axes': 1})
    assert hook.events[2][2] is y
    lin(x)
    assert len(hook.events) == 4


def test_global_hook_is_per_thread():
    lin = L.Linear(2, 2)
    hook = Recorder()
    with hook:
        t = threading.Thread(target=lin, args=(numpy.ones((1, 2), numpy.float32),))
        t.start()
        t.join()
    assert [e[0] for e in hook.events] == ['added', 'deleted']


def test_same_name_twice_is_an_error():
    with Recorder():
        with pytest.raises(KeyError):
            with Recorder():
                pass


def test_callback_args_text():
    from chainer.link_hook import _ForwardPostprocessCallbackArgs
    text = str(_ForwardPostprocessCallbackArgs(L.Linear(1, 1), 'forward', (1,), {}, 5))
    assert 'forward_name=forward' in text and 'out=5' in text and 'Linear(' in text
