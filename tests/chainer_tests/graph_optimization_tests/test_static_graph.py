"""chainer.static_graph: replays equal define-by-run bitwise, and what a replay must respect.

Each model runs twice from the same seed, once as it is and once with its ``forward`` under
``static_graph``; every iteration's loss, parameters, gradients and persistent values must
be equal, bit for bit.
"""
import copy
import gc
import pickle
import warnings

import numpy
import pytest

import chainer
from chainer import function_node
import chainer.functions as F
from chainer.graph_optimizations import static_graph as static_graph_module
from chainer.graph_optimizations.static_graph import static_graph
from chainer.graph_optimizations.static_graph_utilities import static_code
import chainer.links as L


# ---- models ---------------------------------------------------------------------------

class MLP(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(None, 20)
            self.l2 = L.Linear(20, 20)
            self.l3 = L.Linear(20, 10)

    def forward(self, x):
        return self.l3(F.relu(self.l2(F.relu(self.l1(x)))))


class CNN(chainer.Chain):
    """Convolutions with batch normalization, pooling and dropout."""

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.c1 = L.Convolution2D(3, 4, 3, pad=1)
            self.b1 = L.BatchNormalization(4)
            self.c2 = L.Convolution2D(4, 6, 3)
            self.b2 = L.BatchNormalization(6)
            self.fc = L.Linear(None, 5)

    def forward(self, x):
        h = F.max_pooling_2d(F.relu(self.b1(self.c1(x))), 2)
        h = F.relu(self.b2(self.c2(h)))
        return self.fc(F.dropout(h, 0.3))


class DropoutMLP(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(13, 30)
            self.l2 = L.Linear(30, 10)

    def forward(self, x):
        return self.l2(F.dropout(F.tanh(self.l1(F.dropout(x, 0.2))), 0.5))


class LanguageModel(chainer.Chain):
    """EmbedID, two stateful LSTM links with dropout, Linear: unrolled over the inputs."""

    def __init__(self, n_vocab=30, n_units=8):
        super().__init__()
        with self.init_scope():
            self.embed = L.EmbedID(n_vocab, n_units)
            self.l1 = L.LSTM(n_units, n_units)
            self.l2 = L.LSTM(n_units, n_units)
            self.out = L.Linear(n_units, n_vocab)

    def reset_state(self):
        self.l1.reset_state()
        self.l2.reset_state()

    def forward(self, words):
        ys = []
        for w in words:
            h = self.l1(F.dropout(self.embed(w)))
            ys.append(self.out(self.l2(F.dropout(h))))
        return ys


def static_version(cls, **options):
    forward = static_graph(**options)(cls.forward) if options else static_graph(cls.forward)
    return type('Static' + cls.__name__, (cls,), {'forward': forward})


# ---- the comparison ---------------------------------------------------------------------

def classify_loss(model, batch):
    x, t = batch
    return F.softmax_cross_entropy(model(x), t)


def lm_loss(model, batch):
    words, labels = batch
    ys = model(list(words))
    return sum(F.softmax_cross_entropy(y, t) for y, t in zip(ys, labels))


def image_batch(rs):
    return rs.rand(4, 3, 8, 8).astype(numpy.float32), rs.randint(0, 5, 4).astype(numpy.int32)


def vector_batch(rs):
    return rs.rand(8, 13).astype(numpy.float32), rs.randint(0, 10, 8).astype(numpy.int32)


def word_batch(rs, steps=35):
    return (rs.randint(0, 30, (steps, 4)).astype(numpy.int32),
            rs.randint(0, 30, (steps, 4)).astype(numpy.int32))


def snapshot(model):
    params = [(name, p.array.copy(), None if p.grad is None else p.grad.copy())
              for name, p in sorted(model.namedparams())]
    persistents = []
    for link in model.links():
        for name in sorted(link._persistent):
            value = getattr(link, name)
            persistents.append((name, numpy.array(value, copy=True)))
    return params, persistents


def assert_same(a, b, what):
    if a is None or b is None:
        assert a is None and b is None, what
        return
    assert a.dtype == b.dtype and a.shape == b.shape, what
    assert numpy.array_equal(a, b, equal_nan=True), (what, a, b)


def compare(cls, make_batch, loss_fn, n_iter, optimizer=None, train=True, after=None,
            reset=False):
    """Trains ``cls`` and its static version side by side; returns the static model."""
    models = []
    for static in (False, True):
        numpy.random.seed(0)
        model = (static_version(cls) if static else cls)()
        opt = None
        if optimizer is not None:
            opt = optimizer()
            opt.setup(model)
        models.append((model, opt))
    rs = numpy.random.RandomState(1)
    batches = [make_batch(rs) for _ in range(n_iter)]
    for it, batch in enumerate(batches):
        results = []
        for model, opt in models:
            numpy.random.seed(100 + it)     # dropout and lazy initialization draw alike
            if reset:
                model.reset_state()
            with chainer.using_config('train', train):
                loss = loss_fn(model, batch)
                model.cleargrads()
                loss.backward()
            if after is not None:
                after(loss)
            if opt is not None:
                opt.update()
            results.append((loss.array, snapshot(model)))
        (l0, (p0, s0)), (l1, (p1, s1)) = results
        assert_same(l0, l1, f'loss at iteration {it}')
        for (name, a, ga), (_, b, gb) in zip(p0, p1):
            assert_same(a, b, f'{name} at iteration {it}')
            assert_same(ga, gb, f'{name}.grad at iteration {it}')
        for (name, a), (_, b) in zip(s0, s1):
            assert_same(a, b, f'{name} at iteration {it}')
    static_model = models[1][0]
    assert not static_model.schedule_manager._define_by_run
    return static_model


def test_mlp():
    model = compare(MLP, vector_batch, classify_loss, 4)
    assert model.schedule_manager._n_recorded == 1


def test_mlp_trained_50_steps_with_adam():
    model = compare(MLP, vector_batch, classify_loss, 50, optimizer=chainer.optimizers.Adam)
    assert model.schedule_manager._n_recorded == 1


@pytest.mark.parametrize('train', [True, False])
def test_cnn_with_batch_normalization(train):
    compare(CNN, image_batch, classify_loss, 5, optimizer=chainer.optimizers.MomentumSGD,
            train=train)


def test_dropout_seeded_alike():
    compare(DropoutMLP, vector_batch, classify_loss, 4, optimizer=chainer.optimizers.SGD)


def test_unrolled_lstm_language_model_35_steps_state_carried():
    # The LSTM links keep their state from call to call; the graph is cut after each update.
    model = compare(LanguageModel, word_batch, lm_loss, 4, optimizer=chainer.optimizers.SGD,
                    after=lambda loss: loss.unchain_backward())
    # One schedule without state (the first call), one with it.
    assert model.schedule_manager._n_recorded == 2


def test_unrolled_lstm_language_model_reset_each_time():
    model = compare(LanguageModel, word_batch, lm_loss, 3, optimizer=chainer.optimizers.SGD,
                    reset=True)
    assert model.schedule_manager._n_recorded == 1


# ---- what a replay does ---------------------------------------------------------------------

class Tanh3(chainer.Chain):

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l = L.Linear(4, 4)

    @static_graph
    def forward(self, x):
        h = x
        for _ in range(3):
            h = F.tanh(self.l(h))
        return h


def count_function_nodes(monkeypatch):
    # Every FunctionNode is made to be applied: count the applications of nodes other than
    # the schedule itself.
    counter = [0]
    apply = function_node.FunctionNode.apply

    def counting_apply(self, inputs):
        if not isinstance(self, static_graph_module.StaticScheduleFunction):
            counter[0] += 1
        return apply(self, inputs)
    monkeypatch.setattr(function_node.FunctionNode, 'apply', counting_apply)
    return counter


def live_function_nodes():
    return {id(o) for o in gc.get_objects() if isinstance(o, function_node.FunctionNode)}


def test_replay_constructs_no_function_node(monkeypatch):
    model = Tanh3()
    x = numpy.ones((2, 4), numpy.float32)
    counter = count_function_nodes(monkeypatch)
    for it in range(3):
        model.cleargrads()      # (accumulating into .grad is an addition of its own)
        before = counter[0]
        live = live_function_nodes()
        y = model(x)
        y.grad = numpy.ones_like(y.array)
        y.backward()
        if it == 0:
            assert counter[0] > before     # the recording is define-by-run
        else:
            assert counter[0] == before, f'{counter[0] - before} FunctionNodes at call {it}'
            assert live_function_nodes() <= live
    assert isinstance(y.creator, static_graph_module.StaticScheduleFunction)


def test_replay_sees_parameters_updated_in_place_and_replaced():
    model = Tanh3()
    x = numpy.linspace(-1, 1, 8).reshape(2, 4).astype(numpy.float32)
    with chainer.using_config('train', False):
        model(x)
        model.l.W.array[...] *= 2       # in place: the same schedule
        y1 = model(x).array
        with chainer.using_config('use_static_graph', False):
            assert_same(y1, model(x).array, 'after an in-place update')
        assert model.schedule_manager._n_recorded == 1
        model.l.W.array = model.l.W.array * 3       # a new array: recorded again
        y2 = model(x).array
        with chainer.using_config('use_static_graph', False):
            assert_same(y2, model(x).array, 'after a replaced parameter')
        assert model.schedule_manager._n_recorded == 2


def test_replay_sees_a_replaced_persistent_array():
    numpy.random.seed(0)
    model = static_version(CNN)()
    x = numpy.random.rand(2, 3, 8, 8).astype(numpy.float32)
    with chainer.using_config('train', False):
        model(x)
        model.b1.avg_mean = model.b1.avg_mean + 1
        y = model(x).array
        with chainer.using_config('use_static_graph', False):
            assert_same(y, model(x).array, 'after avg_mean was replaced')
    assert model.schedule_manager._n_recorded == 2


def test_dropout_draws_new_numbers_at_each_replay():
    class Drop(chainer.Chain):
        @static_graph
        def forward(self, x):
            return F.dropout(x, 0.5)
    model = Drop()
    x = numpy.ones((20, 20), numpy.float32)
    with chainer.using_config('enable_backprop', False):
        masks = [model(x).array for _ in range(4)]
    assert all(not numpy.array_equal(masks[0], m) for m in masks[1:])


def test_new_shape_or_mode_records_another_schedule():
    model = Tanh3()
    for shape in [(2, 4), (3, 4), (2, 4)]:
        y = model(numpy.ones(shape, numpy.float32))
        y.grad = numpy.ones_like(y.array)
        y.backward()
    assert model.schedule_manager._n_recorded == 2
    with chainer.using_config('train', False):
        model(numpy.ones((2, 4), numpy.float32))
        model(numpy.ones((2, 4), numpy.float32))
    assert model.schedule_manager._n_recorded == 3
    assert 'train=False' in repr(model.schedule_manager)


def test_each_call_in_an_iteration_gets_its_own_schedule():
    model = Tanh3()
    rs = numpy.random.RandomState(0)
    for it in range(3):
        x1, x2 = rs.rand(2, 2, 4).astype(numpy.float32)
        model.cleargrads()
        y = model(x1) * model(x2)
        F.sum(y).backward()
        grad = model.l.W.grad.copy()
        model.cleargrads()
        with chainer.using_config('use_static_graph', False):
            F.sum(model(x1) * model(x2)).backward()
        # W's terms from the two calls are added call by call here, layer by layer in
        # define-by-run: equal up to rounding.
        numpy.testing.assert_allclose(grad, model.l.W.grad, rtol=1e-5, atol=1e-6)
        model.cleargrads()
    assert model.schedule_manager._n_recorded == 2


def test_outputs_of_an_earlier_call_stay_as_they_were():
    model = Tanh3()
    with chainer.using_config('train', False):
        y1 = model(numpy.ones((2, 4), numpy.float32))
        kept = y1.array.copy()
        y2 = model(numpy.zeros((2, 4), numpy.float32))
        model(numpy.full((2, 4), 3, numpy.float32))
    assert_same(y1.array, kept, 'first output')
    assert not numpy.array_equal(y1.array, y2.array)


def test_backward_after_a_replay_in_test_mode():
    # Test mode reuses one schedule; the backward is first needed after it was replayed.
    numpy.random.seed(0)
    static = static_version(CNN)()
    numpy.random.seed(0)
    plain = CNN()
    rs = numpy.random.RandomState(2)
    with chainer.using_config('train', False):
        for it in range(4):
            x = rs.rand(2, 3, 8, 8).astype(numpy.float32)
            grads = []
            for model in (plain, static):
                numpy.random.seed(it)
                model.cleargrads()
                xv = chainer.Variable(x)
                y = model(xv)
                if it >= 2:
                    F.sum(y * y).backward()
                grads.append((y.array, xv.grad, model.c1.W.grad))
            for a, b in zip(*grads):
                assert_same(a, b, f'iteration {it}')


def test_double_backprop():
    class Net(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.l1 = L.Linear(3, 5)
                self.l2 = L.Linear(5, 2)

        def forward(self, x):
            return self.l2(F.tanh(self.l1(x)))
    rs = numpy.random.RandomState(0)
    models = []
    for static in (False, True):
        numpy.random.seed(0)
        models.append((static_version(Net, enable_double_backprop=True) if static else Net)())
    for it in range(3):
        x = rs.rand(4, 3).astype(numpy.float32)
        results = []
        for model in models:
            xv = chainer.Variable(x)
            gx, = chainer.grad([F.sum(model(xv) ** 2)], [xv], enable_double_backprop=True)
            model.cleargrads()
            F.sum(gx * gx).backward()
            results.append((gx.array, xv.grad, model.l1.W.grad, model.l2.W.grad))
        # The two backward passes add their terms in another order: equal up to rounding.
        for a, b in zip(*results):
            numpy.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


def test_gradient_not_differentiable_without_the_option_warns():
    model = Tanh3()
    xv = chainer.Variable(numpy.ones((2, 4), numpy.float32))
    with pytest.warns(RuntimeWarning, match='enable_double_backprop'):
        gx, = chainer.grad([F.sum(model(xv))], [xv], enable_double_backprop=True)
    assert gx.creator is None


def test_parameter_gradients_accumulate_as_in_define_by_run():
    model = Tanh3()
    x = numpy.ones((2, 4), numpy.float32)
    model.cleargrads()
    for _ in range(3):
        F.sum(model(x)).backward()
    static_grad = model.l.W.grad.copy()
    model.cleargrads()
    with chainer.using_config('use_static_graph', False):
        for _ in range(3):
            F.sum(model(x)).backward()
    numpy.testing.assert_allclose(static_grad, model.l.W.grad, rtol=1e-6)


# ---- static_code ------------------------------------------------------------------------

def test_static_code_side_effect_runs_at_each_call():
    class Counting(chainer.Chain):
        def __init__(self):
            super().__init__()
            self.count = 0

        @static_code
        def tick(self):
            self.count += 1

        @static_graph
        def forward(self, x):
            self.tick()
            return x * 2
    model = Counting()
    with chainer.using_config('enable_backprop', False):
        for _ in range(4):
            model(numpy.ones(3, numpy.float32))
    assert model.count == 4
    model.tick()        # outside a recording it is a plain call
    assert model.count == 5


class ScaledSquare(function_node.FunctionNode):
    """A node written for static graphs: its arrays go through static_code functions."""

    _supports_static_optimizations = True

    def __init__(self, scale):
        self.scale = scale

    @static_code(func_name='scaled_square')
    def compute(self, inputs, outputs):
        x, = inputs
        y, = outputs
        numpy.multiply(x, x, out=y)
        y *= self.scale

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        y = numpy.empty_like(x)
        self.compute(inputs=[x], outputs=[y])
        return y,

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] * x * (2 * self.scale),


def test_function_node_with_static_code_steps():
    class Model(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.l = L.Linear(3, 3)

        def forward(self, x):
            return ScaledSquare(1.5).apply((self.l(x),))[0]
    numpy.random.seed(0)
    plain = Model()
    numpy.random.seed(0)
    static = static_version(Model)()
    rs = numpy.random.RandomState(0)
    for it in range(3):
        x = rs.rand(2, 3).astype(numpy.float32)
        out = []
        for model in (plain, static):
            model.cleargrads()
            y = model(x)
            F.sum(y).backward()
            out.append((y.array.copy(), model.l.W.grad))
        for a, b in zip(*out):
            assert_same(a, b, f'iteration {it}')
    program = static.static_schedule._program
    assert [s.func_name for s in program.steps[0]] == ['LinearFunction', 'scaled_square']


# ---- the fallback to define-by-run --------------------------------------------------------

class PythonMaskGrad(function_node.FunctionNode):
    """A node whose backward computes an array in Python: not replayable."""

    def forward(self, inputs):
        self.retain_inputs((0,))
        return numpy.abs(inputs[0]),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] * numpy.sign(x.array),


def test_backward_computing_arrays_in_python_falls_back_to_define_by_run():
    class Model(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.l = L.Linear(3, 3)

        def forward(self, x):
            return PythonMaskGrad().apply((self.l(x),))[0]
    numpy.random.seed(0)
    plain = Model()
    numpy.random.seed(0)
    static = static_version(Model)()
    rs = numpy.random.RandomState(0)
    for it in range(3):
        x = rs.rand(2, 3).astype(numpy.float32) - 0.5
        out = []
        for model in (plain, static):
            model.cleargrads()
            with warnings.catch_warnings(record=True) as w:
                warnings.simplefilter('always')
                y = model(x)
                F.sum(y).backward()
            if model is static and it == 0:
                assert any('computed outside any function node' in str(m.message) for m in w)
            out.append((y.array, model.l.W.grad))
        for a, b in zip(*out):
            assert_same(a, b, f'iteration {it}')
    assert static.schedule_manager._define_by_run


def test_graph_that_changes_is_reported():
    class Varying(chainer.Chain):
        @static_graph
        def forward(self, x):
            h = x
            for _ in range(x.shape[0]):     # control flow on the input: not static
                h = h * 2
            return h
    model = Varying()
    with chainer.using_config('enable_backprop', False):
        model(numpy.ones((2, 3), numpy.float32))
        with pytest.warns(RuntimeWarning, match='3 operations at this call but 2'):
            model(numpy.ones((3, 3), numpy.float32))


# ---- the API ----------------------------------------------------------------------------

def test_without_static_graph_config_the_code_runs_as_it_is():
    model = Tanh3()
    with chainer.using_config('use_static_graph', False):
        y = model(numpy.ones((2, 4), numpy.float32))
    assert not hasattr(model, 'schedule_manager')
    assert not isinstance(y.creator, static_graph_module.StaticScheduleFunction)


def test_force_test_define_by_run():
    class Model(Tanh3):
        forward = static_graph(force_test_define_by_run=True)(Tanh3.forward.__wrapped__)
    model = Model()
    with chainer.using_config('train', False):
        y = model(numpy.ones((2, 4), numpy.float32))
    assert not isinstance(y.creator, static_graph_module.StaticScheduleFunction)
    y = model(numpy.ones((2, 4), numpy.float32))
    assert isinstance(y.creator, static_graph_module.StaticScheduleFunction)


def test_decorator_options_and_defaults():
    import inspect
    assert str(inspect.signature(static_graph)) == '(*args, **kwargs)'
    assert static_graph_module._OPTIONS == {
        'force_test_define_by_run': False, 'minimize_cache_size': False,
        'verbosity_level': 0, 'enable_double_backprop': False}
    assert chainer.static_graph is static_graph
    assert chainer.static_code is static_code
    assert chainer.config.schedule_func is None
    assert chainer.config.use_static_graph is True
    assert chainer.FunctionNode._supports_static_optimizations is False
    with pytest.raises(TypeError, match='unexpected keyword argument'):
        static_graph(verbose=1)
    with pytest.raises(TypeError):
        static_graph(1, 2)


def test_minimize_cache_size():
    class Model(Tanh3):
        forward = static_graph(minimize_cache_size=True)(Tanh3.forward.__wrapped__)
    model = Model()
    with chainer.using_config('enable_backprop', False):
        model(numpy.ones((2, 4), numpy.float32))
        model(numpy.ones((3, 4), numpy.float32))
    assert len(model.schedule_manager.schedules) == 1


@pytest.mark.parametrize('call, error, match', [
    (lambda m, x: m(x, scale=2), TypeError, 'keyword argument'),
    (lambda m, x: m(x, 2.0), TypeError, 'must be a Variable, an array'),
    (lambda m, x: m([x, 'a']), TypeError, 'must be a Variable, an array'),
])
def test_bad_arguments(call, error, match):
    class Model(chainer.Chain):
        @static_graph
        def forward(self, *xs, scale=1):
            return xs[0] * scale
    with pytest.raises(error, match=match):
        call(Model(), numpy.ones(3, numpy.float32))


def test_returning_an_array_is_an_error():
    class Model(chainer.Chain):
        @static_graph
        def forward(self, x):
            return x.array
    with pytest.raises(RuntimeError, match='must return a Variable'):
        Model()(numpy.ones(3, numpy.float32))


def test_nested_static_chains_are_an_error():
    class Inner(chainer.Chain):
        @static_graph
        def forward(self, x):
            return x * 2

    class Outer(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.inner = Inner()

        @static_graph
        def forward(self, x):
            return self.inner(x)
    with pytest.raises(RuntimeError, match='cannot be nested'):
        Outer()(numpy.ones(3, numpy.float32))


def test_decorating_a_non_chain_is_an_error():
    @static_graph
    def f(x):
        return x

    with pytest.raises(TypeError, match='chainer.Chain'):
        f(chainer.Variable(numpy.ones(3, numpy.float32)))


def test_nested_arguments_and_results_keep_their_structure():
    class Model(chainer.Chain):
        @static_graph
        def forward(self, xs):
            a, (b, c) = xs
            return a + b, [c * 2, None]
    model = Model()
    for _ in range(2):
        x = chainer.Variable(numpy.ones(3, numpy.float32))
        out = model([x, (numpy.ones(3, numpy.float32), x)])
        assert isinstance(out, tuple) and isinstance(out[1], list) and out[1][1] is None
        assert_same(out[1][0].array, numpy.full(3, 2, numpy.float32), 'c * 2')
        F.sum(out[0] + out[1][0]).backward()
        assert_same(x.grad, numpy.full(3, 3, numpy.float32), 'x.grad')


def test_end_forward_frees_the_schedules():
    model = Tanh3()
    x = numpy.ones((2, 4), numpy.float32)
    model(x)
    model.schedule_manager.end_forward()
    model(x)
    assert model.schedule_manager._n_recorded == 1


def test_copies_record_their_own_schedules():
    model = Tanh3()
    x = numpy.ones((2, 4), numpy.float32)
    y = model(x)
    shared = model.copy()
    assert_same(shared(x).array, y.array, 'shared copy')
    assert shared.schedule_manager is not model.schedule_manager
    deep = copy.deepcopy(model)
    assert_same(deep(x).array, y.array, 'deep copy')
    restored = pickle.loads(pickle.dumps(model))
    assert_same(restored(x).array, y.array, 'pickled')


def test_schedule_reprs():
    model = Tanh3()
    model(numpy.ones((2, 4), numpy.float32))
    text = repr(model.static_schedule)
    assert 'LinearFunction' in text and 'Tanh' in text
    assert 'train=True' in repr(model.schedule_manager)
    a = numpy.ones((2, 3), numpy.float32)
    info = static_graph_module.ArrayInfo(a)
    assert '(2, 3)' in repr(info) and not info.was_deleted()
    assert info.get_new_empty_array().shape == (2, 3)
    del a
    assert info.was_deleted()


def test_flatten_helpers():
    x = chainer.Variable(numpy.ones(2))
    a = numpy.zeros(3)
    flat, structure, n = static_graph_module._flatten_args([x, (a, [x])])
    assert n == 3 and flat[1] is a
    rebuilt = static_graph_module._unflatten_args(flat, structure)
    assert rebuilt[0] is x and isinstance(rebuilt[1], tuple) and rebuilt[1][1][0] is x
    assert isinstance(static_graph_module._unflatten_args_as_list(flat, structure), list)
    assert static_graph_module._is_xp(a) and not static_graph_module._is_xp(x)
