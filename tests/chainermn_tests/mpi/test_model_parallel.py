"""Models split across processes (MultiNodeChainList, the multi-node n-step RNN) against the
same model run in one process: same loss, same gradients, same training.

Every rank builds every part of the model from the same seeds, keeps its own part for the
split model, and runs the whole model alone as the reference.
"""
import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L
import chainermn
import chainermn.functions as MF

N_IN, N_HID, N_OUT, BATCH = 4, 5, 3, 6
TOL = dict(rtol=1e-10, atol=1e-12)


def stage(k, n_in=N_HID, n_out=N_HID):
    numpy.random.seed(1000 + k)
    with chainer.using_config('dtype', numpy.float64):
        return L.Linear(n_in, n_out)


class Tanh(chainer.Chain):
    def __init__(self, k, n_in=N_HID, n_out=N_HID):
        super().__init__()
        with self.init_scope():
            self.l = stage(k, n_in, n_out)

    def forward(self, *xs):
        h = xs[0]
        for x in xs[1:]:
            h = h + x
        return F.tanh(self.l(h))


def batch(step=0):
    rs = numpy.random.RandomState(step)
    return rs.randn(BATCH, N_IN), rs.randint(0, N_OUT, BATCH).astype(numpy.int32)


def grads(link):
    return {name: p.grad.copy() for name, p in sorted(link.namedparams())}


def assert_grads_equal(actual, expected):
    assert sorted(actual) == sorted(expected)
    for name in actual:
        numpy.testing.assert_allclose(actual[name], expected[name], err_msg=name, **TOL)


class Pipeline:
    """x -> stage 0 (rank 0) -> stage 1 (rank 1) -> ... -> stage n-1 -> head (rank 0)."""

    def __init__(self, comm):
        self.comm = comm
        n = comm.size
        self.stages = [Tanh(0, N_IN)] + [Tanh(k) for k in range(1, n)]
        self.head = stage(n, N_HID, N_OUT)

    def split(self):
        comm, r, n = self.comm, self.comm.rank, self.comm.size
        chain = chainermn.MultiNodeChainList(comm)
        if r == 0:
            chain.add_link(self.stages[0], rank_in=None, rank_out=1)
            chain.add_link(self.head, rank_in=n - 1, rank_out=None)
            return L.Classifier(chain)
        chain.add_link(self.stages[r], rank_in=r - 1, rank_out=(r + 1) % n)
        return chain

    def whole(self):
        stages, head = self.stages, self.head

        def predict(x):
            for s in stages:
                x = s(x)
            return head(x)
        return predict

    def mine(self):
        return [self.stages[0], self.head] if self.comm.rank == 0 else \
            [self.stages[self.comm.rank]]


def test_pipeline_gives_the_loss_and_gradients_of_one_process(comm):
    x, t = batch()
    split = Pipeline(comm).split()
    reference = Pipeline(comm)
    ref_loss = F.softmax_cross_entropy(reference.whole()(x), t)
    ref_loss.backward()
    if comm.rank == 0:
        loss = split(x, t)
        numpy.testing.assert_allclose(loss.array, ref_loss.array, **TOL)
    else:
        loss = split()
        assert loss.shape == (0,)   # a delegate variable
    loss.backward()
    mine = split.predictor if comm.rank == 0 else split
    for part, ref_part in zip(mine, reference.mine()):
        assert_grads_equal(grads(part), grads(ref_part))


@pytest.mark.parametrize('optimizer', ['SGD', 'Adam'])
def test_pipeline_trains_like_one_process(comm, optimizer):
    split = Pipeline(comm).split()
    reference = Pipeline(comm)
    ref_model = L.Classifier(chainer.Sequential(*reference.stages, reference.head))
    opt = getattr(chainer.optimizers, optimizer)()
    ref_opt = getattr(chainer.optimizers, optimizer)()
    opt.setup(split)
    ref_opt.setup(ref_model)
    for step in range(3):
        x, t = batch(step)
        ref_opt.update(ref_model, x, t)
        if comm.rank == 0:
            opt.update(split, x, t)
        else:
            opt.update(split)
    mine = split.predictor if comm.rank == 0 else split
    for part, ref_part in zip(mine, reference.mine()):
        for (name, p), (_, q) in zip(sorted(part.namedparams()), sorted(ref_part.namedparams())):
            numpy.testing.assert_allclose(p.array, q.array, err_msg=name, **TOL)


@pytest.mark.parametrize('self_first', [True, False])
def test_branches_to_every_process_and_to_itself(comm, self_first):
    # Rank 0 sends h to every rank (itself included: no communication), each applies its
    # stage, and rank 0 sums what comes back.
    r, n = comm.rank, comm.size
    x, t = batch()
    trunk = Tanh(0, N_IN)
    branches = [Tanh(k) for k in range(1, n + 1)]
    ranks = list(range(n)) if self_first else list(range(1, n)) + [0]
    chain = chainermn.MultiNodeChainList(comm)
    if r == 0:
        chain.add_link(trunk, rank_in=None, rank_out=ranks)
        chain.add_link(branches[0], rank_in=0, rank_out=0)
        chain.add_link(Tanh(n + 1), rank_in=ranks, rank_out=None)   # sums its inputs
        loss = F.sum(chain(x) * 0.5)
    else:
        chain.add_link(branches[r], rank_in=0, rank_out=0)
        loss = chain()
    loss.backward()

    ref_trunk, ref_branches = Tanh(0, N_IN), [Tanh(k) for k in range(1, n + 1)]
    ref_join = Tanh(n + 1)
    h = ref_trunk(x)
    ref_loss = F.sum(ref_join(*[b(h) for b in ref_branches[:n]]) * 0.5)
    ref_loss.backward()
    if r == 0:
        numpy.testing.assert_allclose(loss.array, ref_loss.array, **TOL)
        assert_grads_equal(grads(trunk), grads(ref_trunk))
    assert_grads_equal(grads(branches[r]), grads(ref_branches[r]))


def test_tuples_travel_as_one_argument(comm):
    r, n = comm.rank, comm.size
    if n % 2 and r == n - 1:
        return      # pairs (0, 1), (2, 3), ...
    x, _ = batch()

    class Two(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.a, self.b = stage(1, N_IN, N_HID), stage(2, N_IN, N_HID)

        def forward(self, x):
            return self.a(x), self.b(x)

    class Join(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.l = stage(3)

        def forward(self, pair):
            a, b = pair
            return self.l(a * b)

    chain = chainermn.MultiNodeChainList(comm)
    two, join = Two(), Join()
    if r % 2 == 0:
        chain.add_link(two, rank_in=None, rank_out=r + 1)
        chain.add_link(Tanh(4), rank_in=r + 1, rank_out=None)
        loss = F.sum(chain(x))
    else:
        chain.add_link(join, rank_in=r - 1, rank_out=r - 1)
        loss = chain()
    loss.backward()
    ref_two, ref_join, ref_tail = Two(), Join(), Tanh(4)
    ref_loss = F.sum(ref_tail(ref_join(ref_two(x))))
    ref_loss.backward()
    if r % 2 == 0:
        numpy.testing.assert_allclose(loss.array, ref_loss.array, **TOL)
        assert_grads_equal(grads(two), grads(ref_two))
    else:
        assert_grads_equal(grads(join), grads(ref_join))


def test_outputs_before_later_sends_still_backpropagate_them(comm):
    # The last rank returns its output first and sends afterwards: backward from the output
    # must still run the send's backward (the chain joins them).
    r, n = comm.rank, comm.size
    x, _ = batch()
    chain = chainermn.MultiNodeChainList(comm)
    first, last = Tanh(0, N_IN), Tanh(1, N_IN)
    if r == 0:
        chain.add_link(first, rank_in=None, rank_out=n - 1)
        chain.add_link(Tanh(2), rank_in=n - 1, rank_out=None)
        loss = F.sum(chain(x))
    elif r == n - 1:
        chain.add_link(Tanh(3), rank_in=0, rank_out=None)
        chain.add_link(last, rank_in=None, rank_out=0)
        loss = F.sum(chain(x))
    else:
        return
    loss.backward()
    ref = [Tanh(0, N_IN), Tanh(1, N_IN), Tanh(2), Tanh(3)]
    (F.sum(ref[2](ref[1](x))) + F.sum(ref[3](ref[0](x)))).backward()
    assert_grads_equal(grads(first if r == 0 else last), grads(ref[0] if r == 0 else ref[1]))


def sequences():
    rs = numpy.random.RandomState(3)
    return [rs.randn(length, N_IN) for length in (4, 3, 2)]


@pytest.mark.parametrize('cell', ['LSTM', 'GRU'])
def test_n_step_rnn_passes_its_states_along_the_processes(comm, cell):
    # Rank k's RNN starts from the final states of rank k-1's; each rank's loss weighs its
    # outputs; the sum of the losses is compared with one process running the stack.
    r, n = comm.rank, comm.size

    def make(k):
        numpy.random.seed(2000 + k)
        with chainer.using_config('dtype', numpy.float64):
            return getattr(L, f'NStep{cell}')(1, N_IN, N_IN, 0.0)

    xs = sequences()
    actual = make(r)
    link = chainermn.links.create_multi_node_n_step_rnn(
        actual, comm, rank_in=r - 1 if r > 0 else None, rank_out=r + 1 if r < n - 1 else None)
    assert link.actual_rnn is actual
    *outputs, delegate = link(xs)
    assert (delegate is None) == (r == n - 1)
    loss = F.sum(F.concat(outputs[-1], axis=0)) * (r + 1)
    loss, = MF.pseudo_connect(delegate, loss)
    loss.backward()

    refs = [make(k) for k in range(n)]
    states, total = (None,) * actual.n_cells, 0
    for k, ref in enumerate(refs):
        *states, ys = ref(*states, xs)
        total = total + F.sum(F.concat(ys, axis=0)) * (k + 1)
    total.backward()
    assert_grads_equal(grads(actual), grads(refs[r]))


class _FakeComm:
    rank, size = 0, 2


ADD_LINK_ERRORS = [
    (dict(rank_in='a'), TypeError, 'rank_in'),
    (dict(rank_out=1.5), TypeError, 'rank_out'),
    (dict(rank_in=[0, 'x']), TypeError, 'ints'),
    (dict(rank_out=2), ValueError, r'outside \[0, 2\)'),
    (dict(rank_in=[]), ValueError, 'empty'),
]


@pytest.mark.parametrize('kwargs,error,match', ADD_LINK_ERRORS)
def test_add_link_refuses_bad_ranks(kwargs, error, match):
    chain = chainermn.MultiNodeChainList(_FakeComm())
    with pytest.raises(error, match=match):
        chain.add_link(L.Linear(2), **kwargs)
    assert len(chain) == 0


def test_only_one_link_gives_the_output():
    chain = chainermn.MultiNodeChainList(_FakeComm())
    chain.add_link(L.Linear(2), rank_in=None, rank_out=None)
    with pytest.raises(ValueError, match='only one link'):
        chain.add_link(L.Linear(2), rank_in=1, rank_out=None)
    assert len(chain) == 1
    chain = chainermn.MultiNodeChainList(_FakeComm())
    chain.add_link(L.Linear(2), rank_in=0, rank_out=None)
    with pytest.raises(ValueError, match='no earlier link sent'):
        chain(numpy.ones((1, 2), numpy.float32))
