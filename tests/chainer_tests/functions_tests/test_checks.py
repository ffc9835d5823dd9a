"""Argument errors of the axis/shape functions: Chainer's exception type, and a message that
names the function, the argument, the value given and what was expected."""
import numpy
import pytest

import chainer.functions as F
from chainer.functions import _checks
from chainer.utils import type_check

X = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
X3 = numpy.ones((2, 1, 4), numpy.float32)
AxisError = _checks.AxisError
InvalidType = type_check.InvalidType

# (call, exception type, text the message must contain)
_CASES = [
    # axis out of range
    (lambda: F.sum(X, axis=5), InvalidType, 'sum: axis 5 is out of range for x of shape (2, 3)'),
    (lambda: F.sum(X, axis=(0, -3)), InvalidType, 'sum: axis -3 is out of range'),
    (lambda: F.mean(X, axis=2), InvalidType, 'mean: axis 2 is out of range'),
    (lambda: F.max(X, axis=2), InvalidType, 'max: axis 2'),
    (lambda: F.min(X, axis=-3), InvalidType, 'min: axis -3'),
    (lambda: F.prod(X, axis=2), InvalidType, 'prod: axis 2'),
    (lambda: F.logsumexp(X, axis=2), InvalidType, 'logsumexp: axis 2'),
    (lambda: F.argmax(X, axis=2), InvalidType, 'argmax: axis 2'),
    (lambda: F.cumsum(X, axis=2), InvalidType, 'cumsum: axis 2'),
    (lambda: F.softmax(X, axis=2), InvalidType, 'softmax: axis 2 is out of range'),
    (lambda: F.log_softmax(X, axis=-3), InvalidType, 'log_softmax: axis -3'),
    (lambda: F.maxout(X3, 2, axis=3), InvalidType, 'maxout: axis 3'),
    (lambda: F.squeeze(X3, 3), InvalidType, 'squeeze: axis 3 is out of range'),
    (lambda: F.expand_dims(X, 4), InvalidType, 'expand_dims: axis 4 is out of range'),
    (lambda: F.flip(X, 2), InvalidType, 'flip: axis 2'),
    (lambda: F.separate(X, 2), InvalidType, 'separate: axis 2'),
    (lambda: F.split_axis(X, 1, -3), InvalidType, 'split_axis: axis -3'),
    (lambda: F.concat([X, X], 2), InvalidType, 'in_types[0].ndim > axis'),
    (lambda: F.stack([X, X], 3), InvalidType, 'in_types[0].ndim >= 3'),
    (lambda: F.moveaxis(X, 0, 2), InvalidType, 'moveaxis: destination entry 2'),
    (lambda: F.rollaxis(X, 2), InvalidType, 'rollaxis: axis 2'),
    (lambda: F.rollaxis(X, 0, 3), InvalidType, 'rollaxis: start 3'),
    (lambda: F.diagonal(X, 0, 0, 2), InvalidType, 'diagonal: axis2 2'),
    # where Chainer let NumPy's AxisError through
    (lambda: F.swapaxes(X, 0, 2), AxisError, 'swapaxes: axis2 2 is out of range'),
    (lambda: F.repeat(X, 2, axis=2), AxisError, 'repeat: axis 2 is out of range'),
    (lambda: F.transpose(X, (0, 2)), AxisError, 'transpose: axes entry 2 is out of range'),
    # wrong types
    (lambda: F.sum(X, axis=1.5), TypeError,
     'sum: axis must be None, an int or a tuple of int, got float 1.5'),
    (lambda: F.sum(X, axis=[0]), TypeError, 'sum: axis must be'),
    (lambda: F.argmax(X, axis=(0,)), TypeError, 'argmax: axis must be None or an int'),
    (lambda: F.softmax(X, axis=None), TypeError, 'softmax: axis must be an int, got NoneType'),
    (lambda: F.squeeze(X3, 'a'), TypeError, "squeeze: axis must be None, an int or a tuple"),
    (lambda: F.concat([X, X], 1.0), TypeError, 'concat: axis must be an int, got float'),
    (lambda: F.transpose(X, (0, 1.5)), TypeError, 'transpose: axes must be None or a sequence'),
    (lambda: F.reshape(X, 'a'), TypeError, 'reshape: shape must be an int or a tuple of int'),
    (lambda: F.broadcast_to(X, None), TypeError, 'broadcast_to: shape must be a tuple of int'),
    (lambda: F.split_axis(X, 1.5, 1), TypeError, 'split_axis: indices_or_sections must be'),
    (lambda: F.tensordot(X, X, 1.0), TypeError, 'tensordot: axes must be an int or a pair'),
    # repeated axes and other values
    (lambda: F.sum(X, axis=(1, 1)), ValueError, 'sum: axis must not repeat an axis, got (1, 1)'),
    (lambda: F.squeeze(X3, (1, 1)), ValueError, 'squeeze: axis must not repeat'),
    (lambda: F.squeeze(X, 1), ValueError, 'squeeze: axis 1 of x has size 3'),
    (lambda: F.transpose(X, (0,)), ValueError, 'transpose: axes must name each of the 2 axes'),
    (lambda: F.moveaxis(X, (0, 1), 0), ValueError, 'moveaxis: source and destination must'),
    (lambda: F.tensordot(X, X, ((0,), (1,))), ValueError,
     'tensordot: paired axes must have the same size, got a.shape[0] = 2 and b.shape[1] = 3'),
    # shapes
    (lambda: F.reshape(X, (4,)), InvalidType,
     'reshape: x of shape (2, 3) (6 elements) cannot be reshaped to (4,)'),
    (lambda: F.broadcast_to(X, (3, 3)), InvalidType,
     'broadcast_to: x of shape (2, 3) cannot be broadcast to shape (3, 3)'),
    (lambda: F.split_axis(X, 2, 1), InvalidType,
     'split_axis: x.shape[1] = 3 cannot be split into 2 equal sections'),
    (lambda: F.maxout(X, 2), InvalidType, 'maxout: x.shape[1] = 3 is not a multiple of pool_size'),
    (lambda: F.bias(X, numpy.ones(2, numpy.float32)), InvalidType,
     'broadcast_to: x of shape (1, 2) cannot be broadcast to shape (2, 3)'),
]


@pytest.mark.parametrize('call, error, text', _CASES)
def test_error_type_and_message(call, error, text):
    with pytest.raises(error) as info:
        call()
    assert text in str(info.value)


def test_out_of_range_message_states_the_valid_range():
    with pytest.raises(InvalidType) as info:
        F.sum(X, axis=5)
    message = str(info.value)
    assert 'Invalid operation is performed in: Sum (Forward)' in message
    # Chainer's condition, then ours with the valid range
    assert 'Expect: x.ndim > 5\nActual: 2 <= 5' in message
    assert 'sum: axis 5 is out of range for x of shape (2, 3) (-2 <= axis < 2)' in message


def test_axis_error_is_a_value_and_an_index_error():
    # NumPy's AxisError, so code catching either (as Chainer's users could) still works.
    assert issubclass(AxisError, ValueError) and issubclass(AxisError, IndexError)


@pytest.mark.parametrize('call', [
    lambda: F.flip(X, True), lambda: F.stack([X, X], True), lambda: F.swapaxes(X, True, 0),
    lambda: F.moveaxis(X, True, 0), lambda: F.rollaxis(X, True), lambda: F.expand_dims(X, True),
    lambda: F.diagonal(X, 0, True, 0), lambda: F.split_axis(X, 1, True),
])
def test_bool_axes_accepted_where_chainer_accepted_them(call):
    call()


@pytest.mark.parametrize('call', [
    lambda: F.sum(X, axis=True), lambda: F.softmax(X, axis=True), lambda: F.concat([X], True),
    lambda: F.separate(X, True), lambda: F.repeat(X, 1, True),
])
def test_bool_axes_refused_where_chainer_refused_them(call):
    with pytest.raises(TypeError, match='axis must be'):
        call()


def test_numpy_integer_axes_are_ints():
    assert F.sum(X, axis=numpy.int64(1)).shape == (2,)
    assert F.softmax(X, axis=numpy.int32(0)).shape == (2, 3)
    assert F.stack([X, X], numpy.int64(1)).shape == (2, 2, 3)
