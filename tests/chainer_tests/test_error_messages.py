"""Errors name what the user called: the function and argument, the link and layer, the
optimizer, and (in debug mode) the function that produced the first NaN.

The bad calls of every ``chainer.functions`` function are checked against Chainer 7.8.1 by
``tests/differential/test_bad_calls.py``; here are the other callers' errors, from tables.
"""
import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import optimizers
from chainer.utils import type_check


def _f(*shape):
    return numpy.ones(shape, numpy.float32)


# -- the core: a None or non-array input, wherever it reaches apply -------------------------

# (call, function, argument): a public function given None or a list where it wants arrays
BAD_INPUTS = [
    (lambda: F.relu(None), 'relu', 'x'),
    (lambda: F.relu([1.0, 2.0]), 'relu', 'x'),
    (lambda: F.linear(_f(2, 3), None), 'linear', 'W'),
    (lambda: F.linear(_f(2, 3), [[1.0, 2.0, 3.0]]), 'linear', 'W'),
    (lambda: F.concat([_f(2, 3), None]), 'concat', 'xs[1]'),
    (lambda: F.concat(None), 'concat', 'xs'),
    (lambda: F.add(_f(2), None, _f(2)), 'add', 'xs[1]'),
    (lambda: F.black_out(_f(2, 3), None, _f(4, 3), numpy.zeros((2, 2), numpy.int32)),
     'black_out', 't'),
    (lambda: F.convolution_2d(_f(1, 3, 4, 4), 'W'), 'convolution_2d', 'W'),
]


@pytest.mark.parametrize('call,function,argument', BAD_INPUTS)
def test_a_bad_input_names_the_function_and_the_argument(call, function, argument):
    with pytest.raises(TypeError) as info:
        call()
    message = str(info.value)
    assert f'{function}:' in message
    assert f'argument {argument} ' in message or f'{argument} must be' in message
    assert 'N-dimensional array' in message     # what it accepts


def test_a_node_of_the_users_own_still_takes_none():
    # (as in Chainer: None is a constant input of a FunctionNode applied by the user)
    class Node(chainer.FunctionNode):
        def forward(self, inputs):
            assert inputs[1] is None
            return inputs[0] * 2,

    y, = Node().apply((_f(2), None))
    assert (y.array == 2).all()


def test_an_inner_node_failing_names_the_function_called():
    # bias refuses y through the BroadcastTo it applies: the message names bias and its args
    with pytest.raises(type_check.InvalidType) as info:
        F.bias(_f(2, 3), _f(4))
    message = str(info.value)
    assert 'Invalid operation is performed in: BroadcastTo (Forward)' in message
    assert 'bias was called with x: float32 (2, 3), y: float32 (4,), axis: 1' in message


# -- links: the link, the layer, what it expects -------------------------------------------

class _Model(chainer.Chain):

    def __init__(self, layer):
        super().__init__()
        with self.init_scope():
            self.body = chainer.Sequential(layer)

    def forward(self, *xs):
        return self.body(*xs)


# (link, bad input, words the message must hold besides the link's name and layer)
BAD_LINK_INPUTS = [
    (lambda: L.Linear(784, 10), _f(2, 100), 'expects in_size 784, got 100'),
    (lambda: L.Linear(3, 2), numpy.ones((2, 3), numpy.int32), 'expects a float input, got int32'),
    (lambda: L.EmbedID(5, 3), _f(2), 'expects integer ids in [0, 5), got float32'),
    (lambda: L.Convolution2D(3, 2, 3), _f(2, 4, 5, 5), 'got x: float32 (2, 4, 5, 5)'),
    (lambda: L.BatchNormalization(3), _f(2, 4), 'gamma float32 (3,)'),
    (lambda: L.LayerNormalization(3), _f(2, 4), 'got x: float32 (2, 4)'),
    (lambda: L.PReLU((3,)), _f(2, 4), 'W float32 (3,)'),
]


@pytest.mark.parametrize('make,x,words', BAD_LINK_INPUTS)
def test_a_bad_link_input_names_the_link_and_the_layer(make, x, words):
    model = _Model(make())
    name = type(model.body[0]).__name__
    with pytest.raises(type_check.InvalidType) as info:      # Chainer's exception type
        model(x)
    message = str(info.value)
    assert f'{name} link /body/0: ' in message
    assert words in message
    assert message.count(' link /') == 1        # named once, by the innermost link


def test_a_link_called_by_itself_is_named_without_a_path():
    with pytest.raises(type_check.InvalidType, match=r'Linear link: expects in_size 4, got 5'):
        L.Linear(4, 2)(_f(1, 5))


def test_a_hint_that_fails_does_not_hide_the_error():
    class Odd(chainer.Link):
        def forward(self, x):
            return F.relu(x)

        def _input_error_hint(self, x):
            raise RuntimeError('hint')

    with pytest.raises(type_check.InvalidType, match=r'Odd link: got x: int32 \(2,\)'):
        Odd()(numpy.ones(2, numpy.int32))


# -- optimizers: the optimizer that got the wrong target ------------------------------------

def _opt_cases():
    model = L.Linear(3, 2)
    return [
        (lambda: optimizers.SGD().setup(object()), TypeError, 'SGD.setup got object'),
        (lambda: optimizers.Adam().setup(_f(3)), TypeError, 'Adam.setup got ndarray'),
        (lambda: optimizers.MomentumSGD().setup(None), TypeError, 'MomentumSGD.setup got NoneType'),
        (lambda: optimizers.AdaGrad().update(), RuntimeError, 'AdaGrad has no target link'),
        (lambda: optimizers.SGD().setup(model).update(3), TypeError,
         'SGD.update: lossfun must be callable, got int'),
        (lambda: optimizers.RMSprop().setup(model).update(lambda: None), AttributeError,
         'RMSprop.update: lossfun must return the loss as a Variable, got NoneType'),
    ]


@pytest.mark.parametrize('index', range(len(_opt_cases())))
def test_an_optimizer_misuse_names_the_optimizer(index):
    call, error, words = _opt_cases()[index]
    with pytest.raises(error) as info:
        call()
    assert words in str(info.value)


def test_a_failing_update_names_the_optimizer_and_the_parameter():
    model = chainer.Sequential(L.Linear(3, 2))
    opt = optimizers.SGD().setup(model)
    model[0].W.grad = _f(2, 3)
    model[0].b.grad = _f(2)

    def broken(param):
        raise ValueError('no update')

    model[0].b.update_rule.update_core = broken
    with pytest.raises(ValueError) as info:
        opt.update()
    assert 'SGD.update: updating parameter /0/b of float32 (2,)' in str(info.value)


# -- debug mode: the function that produced the first NaN, and its input ---------------------

def test_debug_names_the_function_and_the_input_that_made_nan():
    x = numpy.array([[1.0, -0.5], [2.0, 3.0]], numpy.float32)
    with chainer.using_config('debug', True), numpy.errstate(invalid='ignore'):
        with pytest.raises(RuntimeError) as info:
            F.sqrt(chainer.Variable(x))
    message = str(info.value)
    assert message.startswith('NaN is detected on forward computation of sqrt')
    assert 'sqrt: output #0 (float32 (2, 2)) holds NaN first at index (0, 1)' in message
    assert 'x[0, 1] = -0.5' in message


def test_debug_says_when_the_nan_came_with_the_input():
    x = numpy.array([1.0, numpy.nan], numpy.float32)
    with chainer.using_config('debug', True):
        with pytest.raises(RuntimeError) as info:
            F.tanh(x)
    assert 'tanh got NaN: its x (float32 (2,)) holds NaN at index (1,)' in str(info.value)


def test_debug_names_the_public_function_not_its_inner_node():
    # mean_squared_error of an infinite difference: inf - inf inside
    x0 = numpy.array([numpy.inf], numpy.float32)
    with chainer.using_config('debug', True), numpy.errstate(invalid='ignore'):
        with pytest.raises(RuntimeError) as info:
            F.mean_squared_error(x0, x0)
    message = str(info.value)
    assert 'mean_squared_error' in message
    assert 'infinity' in message or 'x0[0] = inf' in message
