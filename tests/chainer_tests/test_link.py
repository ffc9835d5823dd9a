import copy
import pickle
import warnings

import numpy
import pytest

import chainer
from chainer import initializers
import chainer.links as L
from chainer import testing


def _param(*shape):
    return chainer.Parameter(numpy.random.uniform(-1, 1, shape).astype(numpy.float32))


class Net(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.zeta = L.Linear(2, 3)
            self.alpha = L.Linear(None, 4, nobias=True)
            self.p = _param(3)
        self.add_persistent('count', 0)
        self.add_persistent('stat', numpy.zeros(2, numpy.float32))

    def forward(self, x):
        return self.alpha(self.zeta(x)) + 0 * self.p[0]


# ---- registration -----------------------------------------------------------

def test_parameter_outside_init_scope_is_a_plain_attribute():
    link = chainer.Link()
    link.w = _param(2)
    assert list(link.params()) == []
    with link.init_scope():
        link.v = _param(2)
    assert [name for name, _ in link.namedparams()] == ['/v']
    assert link.v.name == 'v'


def test_link_outside_init_scope_is_not_a_child():
    chain = chainer.Chain()
    chain.l = L.Linear(1, 1)
    assert list(chain.children()) == []


def test_add_param_and_persistent():
    link = chainer.Link()
    link.add_param('w', (2, 3))
    assert link.w.shape == (2, 3) and numpy.isnan(link.w.array).all()
    link.add_param('u', initializer=initializers.One())
    assert link.u.array is None
    link.add_persistent('n', 5)
    link.x = 1
    link.register_persistent('x')
    assert link._persistent == {'n', 'x'}
    del link.w
    assert [name for name, _ in link.namedparams()] == ['/u']


@pytest.mark.parametrize('what', ['param', 'persistent', 'link'])
def test_registration_name_clash_names_link_and_attribute(what):
    chain = Net()
    with pytest.raises(AttributeError, match='zeta.*Net'):
        if what == 'param':
            chain.add_param('zeta', (1,))
        elif what == 'persistent':
            chain.add_persistent('zeta', 1)
        else:
            chain.add_link('zeta', L.Linear(1, 1))


def test_reassigning_a_child_in_init_scope_is_an_error():
    chain = chainer.Chain()
    with chain.init_scope():
        chain.a = L.Linear(1, 1)
        with pytest.raises(AttributeError, match='cannot register a new link a'):
            chain.a = L.Linear(1, 1)


def test_add_link_rejects_non_links():
    with pytest.raises(TypeError, match='non-link.*x of Chain'):
        chainer.Chain().add_link('x', 3)


def test_chainlist_rejects_non_links():
    cl = chainer.ChainList()
    with pytest.raises(TypeError, match='ChainList can only hold Links: child 0'):
        cl.append(3)
    with pytest.raises(AttributeError):     # Chainer's type, kept too
        cl.append('x')
    with pytest.raises(TypeError, match='init_scope'):
        with cl.init_scope():
            cl.x = L.Linear(1, 1)


def test_init_scope_without_base_init_says_what_to_do():
    class Forgetful(chainer.Chain):
        def __init__(self):
            with self.init_scope():
                self.l = L.Linear(1, 1)

    with pytest.raises(AttributeError, match=r'Forgetful.__init__ must call super\(\)'):
        Forgetful()


def test_link_kwargs_make_parameters():
    link = chainer.Link(w=(2, 3), v=((4,), numpy.float64))
    assert link.w.shape == (2, 3) and link.v.dtype == numpy.float64


# ---- traversal ----------------------------------------------------------------

def test_traversal_order_is_own_params_then_sorted_children():
    net = Net()
    assert [n for n, _ in net.namedparams()] == ['/p', '/alpha/W', '/zeta/W', '/zeta/b']
    assert [n for n, _ in net.namedparams(include_uninit=False)] == [
        '/p', '/zeta/W', '/zeta/b']
    assert [n for n, _ in net.namedlinks()] == ['/', '/alpha', '/zeta']
    assert [n for n, _ in net.namedlinks(skipself=True)] == ['/alpha', '/zeta']
    assert [c.name for c in net.children()] == ['alpha', 'zeta']


def test_chainlist_traversal():
    cl = chainer.ChainList(L.Linear(1, 2), Net())
    assert [n for n, _ in cl.namedparams()][:3] == ['/0/W', '/0/b', '/1/p']
    assert len(cl) == 2 and cl[1].name == '1' and list(cl)[0] is cl[0]
    cl[0] = L.Linear(3, 3)
    assert cl[0].name == '0'


def test_str():
    assert str(L.Linear(2, 3)) == 'Linear(in_size=2, out_size=3, nobias=False)'
    assert str(chainer.Chain()) == 'Chain()'
    cl = chainer.ChainList(L.Linear(2, 3), chainer.Chain(a=L.EmbedID(2, 2)))
    assert str(cl) == ('ChainList(\n'
                       '  (0): Linear(in_size=2, out_size=3, nobias=False),\n'
                       '  (1): Chain(\n'
                       '    (a): EmbedID(),\n'
                       '  ),\n'
                       ')')


def test_count_params_warns_about_uninitialized():
    net = Net()
    with pytest.warns(UserWarning, match="'/alpha/W' has not been initialized"):
        assert net.count_params() == 3 + 6 + 3


# ---- copies ---------------------------------------------------------------------

def test_copy_share():
    net = Net()
    net.zeta.W.grad = numpy.ones((3, 2), numpy.float32)
    c = net.copy('share')
    assert c.name is None and c.zeta.name == 'zeta'
    assert c.zeta is not net.zeta and c.zeta.W is not net.zeta.W
    assert c.zeta.W.array is net.zeta.W.array
    assert c.zeta.W.grad is None and net.zeta.W.grad is not None
    assert c.stat is net.stat


def test_copy_copy_and_init():
    net = Net()
    net.zeta.W.grad = numpy.ones((3, 2), numpy.float32)
    c = net.copy('copy')
    assert c.zeta.W.array is not net.zeta.W.array
    numpy.testing.assert_array_equal(c.zeta.W.array, net.zeta.W.array)
    numpy.testing.assert_array_equal(c.zeta.W.grad, net.zeta.W.grad)
    net.cleargrads()
    i = net.copy('init')
    assert not numpy.array_equal(i.zeta.W.array, net.zeta.W.array)
    assert numpy.isnan(i.zeta.W.grad).all() and numpy.isnan(i.zeta.b.grad).all()
    assert i.alpha.W.array is None
    with pytest.raises(ValueError, match="'mode'"):
        net.copy('deep')


def test_deepcopy_and_pickle_round_trip():
    net = Net()
    net(numpy.ones((1, 2), numpy.float32))
    for c in (copy.deepcopy(net), pickle.loads(pickle.dumps(net))):
        assert [n for n, _ in c.namedparams()] == [n for n, _ in net.namedparams()]
        for (_, a), (_, b) in zip(c.namedparams(), net.namedparams()):
            assert a is not b
            numpy.testing.assert_array_equal(a.array, b.array)
        assert c.zeta.W.name == 'W' and c.zeta.name == 'zeta'
        assert c._persistent == {'count', 'stat'}


def test_repeat():
    lin = L.Linear(2, 2)
    seq = lin.repeat(3)
    assert isinstance(seq, chainer.Sequential) and len(seq) == 3
    assert all(s is not lin and s.W.array is not lin.W.array for s in seq)
    shared = lin.repeat(2, mode='share')
    assert shared[0].W.array is lin.W.array
    assert len(lin.repeat(0)) == 0


def test_copyparams_and_addgrads():
    a, b = Net(), Net()
    a.stat[...] = 3
    a.count = 7
    b.copyparams(a)
    for (_, pa), (_, pb) in zip(a.namedparams(), b.namedparams()):
        if pa.array is not None:
            numpy.testing.assert_array_equal(pa.array, pb.array)
    assert b.count == 7 and (b.stat == 3).all()
    a.cleargrads()
    b.cleargrads()
    for p in a.params(include_uninit=False):
        p.grad = numpy.ones_like(p.array)
    b.addgrads(a)
    b.addgrads(a)
    numpy.testing.assert_array_equal(b.zeta.W.grad, numpy.full((3, 2), 2.0))


# ---- lazy initialization, gradients and devices -------------------------------------

def test_lazy_initialization_at_first_call():
    lin = L.Linear(3)
    assert lin.W.array is None and lin.in_size is None
    y = lin(numpy.ones((2, 4, 5), numpy.float32), n_batch_axes=2)
    assert y.shape == (2, 4, 3) and lin.W.shape == (3, 5)


def test_cleargrads_and_zerograds():
    lin = L.Linear(None, 2)
    lin.cleargrads()
    lin(numpy.ones((1, 3), numpy.float32))
    assert lin.W.grad is None
    lin2 = L.Linear(None, 2)
    with pytest.warns(DeprecationWarning):
        lin2.zerograds()
    lin2(numpy.ones((1, 3), numpy.float32))
    numpy.testing.assert_array_equal(lin2.W.grad, numpy.zeros((2, 3)))


def test_update_enabled():
    class Rule:
        enabled = True

    net = Net()
    assert not net.update_enabled
    for p in net.params():
        p.update_rule = Rule()
    assert net.update_enabled
    net.disable_update()
    assert not net.update_enabled and not net.zeta.W.update_rule.enabled
    net.enable_update()
    assert net.update_enabled


def test_to_device_round_trip():
    net = Net()
    net.to_device('@numpy')
    assert net.device == chainer.get_device('@numpy') and net.zeta.xp is numpy
    with pytest.raises(RuntimeError, match='iDeep'), warnings.catch_warnings():
        warnings.simplefilter('ignore', DeprecationWarning)
        net.to_intel64()


@testing.attr.gpu
def test_to_gpu_and_back():
    net = Net()
    net.to_device('@cupy:0')
    import cupy
    assert isinstance(net.zeta.W.array, cupy.ndarray)
    assert isinstance(net.stat, cupy.ndarray)
    net(cupy.ones((1, 2), numpy.float32))
    assert isinstance(net.alpha.W.array, cupy.ndarray)
    net.to_device('@numpy')
    assert isinstance(net.alpha.W.array, numpy.ndarray)
    assert isinstance(net.stat, numpy.ndarray)


def test_initializer_of_wrong_shape_names_link_and_attribute():
    with pytest.raises(ValueError, match=r'Linear\.W.*\(2, 3\)'):
        L.Linear(3, 2, initialW=numpy.zeros((3, 3), numpy.float32))


# ---- serialization ----------------------------------------------------------------

class _Recorder:

    def __init__(self, values=None, prefix=''):
        self.values = {} if values is None else values
        self.prefix = prefix

    def __getitem__(self, name):
        return type(self)(self.values, f'{self.prefix}{name}/')

    def __call__(self, name, value):
        self.values[self.prefix + name] = value
        return value


class _Loader(_Recorder):

    def __call__(self, name, value):
        loaded = self.values[self.prefix + name]
        if value is None or numpy.isscalar(value):
            return loaded
        value[...] = loaded
        return value


def test_serialize_keys_and_lazy_parameter_loading():
    net = Net()
    net(numpy.ones((1, 2), numpy.float32))
    saved = _Recorder()
    net.serialize(saved)
    assert sorted(saved.values) == ['alpha/W', 'count', 'p', 'stat', 'zeta/W', 'zeta/b']
    fresh = Net()
    assert fresh.alpha.W.array is None
    fresh.serialize(_Loader({k: copy.deepcopy(v) for k, v in saved.values.items()}))
    numpy.testing.assert_array_equal(fresh.alpha.W.array, net.alpha.W.array)


# ---- hooks and calls -----------------------------------------------------------------

class _Log(chainer.LinkHook):

    def __init__(self, name, log):
        self.name = name
        self.log = log

    def forward_preprocess(self, args):
        self.log.append(('pre', self.name, type(args.link).__name__))

    def forward_postprocess(self, args):
        self.log.append(('post', self.name, type(args.out).__name__))


def test_hooks_order_and_errors():
    log = []
    lin = L.Linear(2, 2)
    assert lin.add_hook(_Log('local', log)) is lin
    with _Log('global', log):
        lin(numpy.ones((1, 2), numpy.float32))
    assert log == [('pre', 'global', 'Linear'), ('pre', 'local', 'Linear'),
                   ('post', 'global', 'Variable'), ('post', 'local', 'Variable')]
    with pytest.raises(KeyError, match='already exists'):
        lin.add_hook(_Log('local', log))
    lin.delete_hook('local')
    with pytest.raises(KeyError, match='does not exist'):
        lin.delete_hook('local')
    with pytest.raises(TypeError, match='LinkHook'):
        lin.add_hook(object())
    log.clear()
    lin(numpy.ones((1, 2), numpy.float32))
    assert log == []


def test_call_without_forward_is_an_attribute_error():
    with pytest.raises(AttributeError):
        chainer.Link()(1)


def test_from_params():
    lin = L.Linear.from_params(numpy.ones((3, 2), numpy.float32))
    assert lin.W.shape == (3, 2) and (lin.b.array == 0).all()
    emb = L.EmbedID.from_params(numpy.ones((4, 2), numpy.float32), ignore_label=1)
    assert emb.ignore_label == 1 and emb.W.shape == (4, 2)
    with pytest.raises(NotImplementedError, match='Chain'):
        chainer.Chain.from_params()
