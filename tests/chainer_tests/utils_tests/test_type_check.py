import copy
import pickle
import threading

import numpy
import pytest

from chainer.utils import type_check as T


class _Stub:
    """Stands in for a FunctionNode: all the check context needs is a label."""

    def __init__(self, label):
        self.label = label


def _types(*arrays, accept_none=False):
    return T.get_types(arrays, 'in_types', accept_none)


def _message(exc_info):
    return str(exc_info.value)


# ----------------------------------------------------------------------------
# InvalidType

def test_invalid_type_message_and_attributes():
    e = T.InvalidType('x == 1', '2 != 1')
    assert str(e) == 'Expect: x == 1\nActual: 2 != 1'
    assert e.expect == 'x == 1'
    assert e.actual == '2 != 1'


def test_invalid_type_explicit_msg():
    e = T.InvalidType('a', 'b', msg='custom')
    assert str(e) == 'custom'
    assert (e.expect, e.actual) == ('a', 'b')


def test_invalid_type_pickles_without_adding_a_second_prefix():
    with T.get_function_check_context(_Stub('F')):
        e = T.InvalidType('a', 'b')
        e2 = pickle.loads(pickle.dumps(e))
    assert str(e2) == str(e)
    assert str(e2).count('Invalid operation') == 1
    assert (e2.expect, e2.actual) == ('a', 'b')


# ----------------------------------------------------------------------------
# Messages

def test_relu_message_with_context_and_argname():
    in_types = _types(numpy.zeros(3, numpy.int32))
    T._argname(in_types, ('x',))
    with pytest.raises(T.InvalidType) as e:
        with T.get_function_check_context(_Stub('ReLU')):
            T.expect(in_types[0].dtype.kind == 'f')
    assert _message(e) == (
        '\nInvalid operation is performed in: ReLU (Forward)\n\n'
        'Expect: x.dtype.kind == f\nActual: i != f')
    assert e.value.expect == 'x.dtype.kind == f'
    assert e.value.actual == 'i != f'


def test_context_is_restored_and_nested():
    with T.get_function_check_context(_Stub('Outer')):
        with T.get_function_check_context(_Stub('Inner')):
            assert 'Inner (Forward)' in str(T.InvalidType('a', 'b'))
        assert 'Outer (Forward)' in str(T.InvalidType('a', 'b'))
    assert str(T.InvalidType('a', 'b')) == 'Expect: a\nActual: b'


def test_context_is_restored_after_an_error():
    with pytest.raises(T.InvalidType):
        with T.get_function_check_context(_Stub('F')):
            T.expect(False)
    assert 'Invalid operation' not in str(T.InvalidType('a', 'b'))


def test_context_is_thread_local():
    seen = []
    with T.get_function_check_context(_Stub('Main')):
        t = threading.Thread(target=lambda: seen.append(str(T.InvalidType('a', 'b'))))
        t.start()
        t.join()
    assert seen == ['Expect: a\nActual: b']


def test_shape_mismatch_message():
    in_types = _types(numpy.zeros((2, 3)), numpy.zeros((3, 2)))
    with pytest.raises(T.InvalidType) as e:
        T.expect(in_types[0].shape == in_types[1].shape)
    assert _message(e) == (
        'Expect: in_types[0].shape == in_types[1].shape\nActual: (2, 3) != (3, 2)')


def test_dtype_message():
    in_types = _types(numpy.zeros(2, numpy.float64))
    with pytest.raises(T.InvalidType) as e:
        T.expect(in_types[0].dtype == numpy.float32)
    assert _message(e) == (
        "Expect: in_types[0].dtype == <class 'numpy.float32'>\n"
        "Actual: float64 != <class 'numpy.float32'>")


@pytest.mark.parametrize('build, expect, actual', [
    (lambda t: t[0].ndim == 3, 'in_types[0].ndim == 3', '2 != 3'),
    (lambda t: t[0].ndim != 2, 'in_types[0].ndim != 2', '2 == 2'),
    (lambda t: t[0].ndim < 2, 'in_types[0].ndim < 2', '2 >= 2'),
    (lambda t: t[0].ndim <= 1, 'in_types[0].ndim <= 1', '2 > 1'),
    (lambda t: t[0].ndim > 2, 'in_types[0].ndim > 2', '2 <= 2'),
    (lambda t: t[0].ndim >= 3, 'in_types[0].ndim >= 3', '2 < 3'),
    # Python swaps a reflected comparison, and so does the message.
    (lambda t: 3 <= t[0].ndim, 'in_types[0].ndim >= 3', '2 < 3'),
    (lambda t: t[0].shape[1] == t[0].shape[0], 'in_types[0].shape[1] == in_types[0].shape[0]',
     '3 != 2'),
    (lambda t: t[0].shape[1:] == (4,), 'in_types[0].shape[1:] == (4,)', '(3,) != (4,)'),
    (lambda t: t[0].size == 5, 'in_types[0].size == 5', '6 != 5'),
    (lambda t: t.size() == 2, 'in_types.size == 2', '1 != 2'),
    (lambda t: T.prod(t[0].shape) == 5, 'prod(in_types[0].shape) == 5', '6 != 5'),
])
def test_comparison_messages(build, expect, actual):
    in_types = _types(numpy.zeros((2, 3), numpy.float32))
    with pytest.raises(T.InvalidType) as e:
        T.expect(build(in_types))
    assert (e.value.expect, e.value.actual) == (expect, actual)


def test_expect_checks_every_condition_in_order():
    in_types = _types(numpy.zeros((2, 3), numpy.float32))
    x = in_types[0]
    T.expect(x.ndim == 2, x.dtype.kind == 'f', x.shape[0] == 2)
    with pytest.raises(T.InvalidType) as e:
        T.expect(x.ndim == 2, x.shape[0] == 7, x.ndim == 9)
    assert e.value.expect == 'in_types[0].shape[0] == 7'


def test_expect_with_no_conditions():
    T.expect()


def test_expect_on_plain_values():
    T.expect(True, numpy.bool_(True), 1, (1,))
    with pytest.raises(T.InvalidType):
        T.expect(True, False)
    with pytest.raises(T.InvalidType):
        T.expect(numpy.bool_(False))


def test_expect_on_non_comparison_expression():
    x = _types(numpy.zeros((0, 3)))[0]
    T.expect(x.ndim)
    with pytest.raises(T.InvalidType) as e:
        T.expect(x.size)
    assert (e.value.expect, e.value.actual) == ('in_types[0].size', '0')


def test_expression_has_no_truth_value():
    # Chainer raises RuntimeError here (not TypeError).
    x = _types(numpy.zeros(2))[0]
    with pytest.raises(RuntimeError):
        T.expect(x.ndim == 1 and x.ndim == 1)
    with pytest.raises(RuntimeError):
        bool(x.ndim)


def test_expression_is_not_iterable():
    x = _types(numpy.zeros(2))[0]
    with pytest.raises(TypeError):
        a, = x.shape
    with pytest.raises(TypeError):
        list(x)


# ----------------------------------------------------------------------------
# Expression trees

@pytest.fixture
def xy():
    x, y = _types(numpy.zeros((2, 3, 4), numpy.float32), numpy.zeros((5,), numpy.int64))
    return x, y


@pytest.mark.parametrize('build, text, value', [
    (lambda x, y: x.shape, 'in_types[0].shape', (2, 3, 4)),
    (lambda x, y: x.dtype.kind, 'in_types[0].dtype.kind', 'f'),
    (lambda x, y: x.dtype.name, 'in_types[0].dtype.name', 'float32'),
    (lambda x, y: x.shape[-1], 'in_types[0].shape[-1]', 4),
    (lambda x, y: x.shape[1:], 'in_types[0].shape[1:]', (3, 4)),
    (lambda x, y: x.shape[:2], 'in_types[0].shape[:2]', (2, 3)),
    (lambda x, y: x.shape[::2], 'in_types[0].shape[::2]', (2, 4)),
    (lambda x, y: x.shape[0:3:2], 'in_types[0].shape[0:3:2]', (2, 4)),
    (lambda x, y: x.shape[y.ndim], 'in_types[0].shape[in_types[1].ndim]', 3),
    (lambda x, y: x.shape[y.ndim:], 'in_types[0].shape[in_types[1].ndim:]', (3, 4)),
    (lambda x, y: x.ndim + y.ndim, 'in_types[0].ndim + in_types[1].ndim', 4),
    (lambda x, y: x.ndim - y.ndim - 1, 'in_types[0].ndim - in_types[1].ndim - 1', 1),
    (lambda x, y: x.ndim - (y.ndim - 1), 'in_types[0].ndim - (in_types[1].ndim - 1)', 3),
    (lambda x, y: (x.ndim + 1) * 2, '(in_types[0].ndim + 1) * 2', 8),
    (lambda x, y: x.ndim + 1 * 2, 'in_types[0].ndim + 2', 5),
    (lambda x, y: 10 - x.ndim, '10 - in_types[0].ndim', 7),
    (lambda x, y: 2 * x.ndim, '2 * in_types[0].ndim', 6),
    (lambda x, y: x.size / 4, 'in_types[0].size / 4', 6.0),
    (lambda x, y: x.size // 5, 'in_types[0].size // 5', 4),
    (lambda x, y: 25 // x.shape[2], '25 // in_types[0].shape[2]', 6),
    (lambda x, y: x.size % 5, 'in_types[0].size % 5', 4),
    (lambda x, y: x.ndim ** 2, 'in_types[0].ndim ** 2', 9),
    (lambda x, y: 2 ** x.ndim, '2 ** in_types[0].ndim', 8),
    (lambda x, y: (x.ndim ** 2) ** 2, '(in_types[0].ndim ** 2) ** 2', 81),
    (lambda x, y: x.ndim ** (x.ndim ** 0), 'in_types[0].ndim ** in_types[0].ndim ** 0', 3),
    (lambda x, y: -x.ndim, '-in_types[0].ndim', -3),
    (lambda x, y: +x.ndim, '+in_types[0].ndim', 3),
    (lambda x, y: ~x.ndim, '~in_types[0].ndim', -4),
    (lambda x, y: -x.ndim ** 2, '-in_types[0].ndim ** 2', -9),
    (lambda x, y: (-x.ndim) ** 2, '(-in_types[0].ndim) ** 2', 9),
    (lambda x, y: -(x.ndim + 1), '-(in_types[0].ndim + 1)', -4),
    (lambda x, y: x.ndim & 1, 'in_types[0].ndim & 1', 1),
    (lambda x, y: x.ndim | 4, 'in_types[0].ndim | 4', 7),
    (lambda x, y: x.ndim ^ 1, 'in_types[0].ndim ^ 1', 2),
    (lambda x, y: x.ndim << 2, 'in_types[0].ndim << 2', 12),
    (lambda x, y: x.ndim >> 1, 'in_types[0].ndim >> 1', 1),
    (lambda x, y: (x.ndim | 1) & 2, '(in_types[0].ndim | 1) & 2', 2),
    (lambda x, y: x.ndim | 1 & 2, 'in_types[0].ndim | 0', 3),
    (lambda x, y: 1 << x.ndim, '1 << in_types[0].ndim', 8),
    (lambda x, y: T.prod(x.shape[1:]), 'prod(in_types[0].shape[1:])', 12),
    (lambda x, y: T.Variable(max, 'max')(x.ndim, y.ndim, 2),
     'max(in_types[0].ndim, in_types[1].ndim, 2)', 3),
    (lambda x, y: x.shape.index(3), 'in_types[0].shape.index(3)', 1),
    (lambda x, y: (x.ndim + 1).bit_length(), '(in_types[0].ndim + 1).bit_length()', 3),
    (lambda x, y: x.ndim + -1, 'in_types[0].ndim + -1', 2),
    (lambda x, y: (x.ndim == 3) == (y.ndim == 1),
     '(in_types[0].ndim == 3) == (in_types[1].ndim == 1)', True),
])
def test_expression_text_and_value(xy, build, text, value):
    exp = build(*xy)
    assert isinstance(exp, T.Expr)
    assert str(exp) == text
    assert exp.eval() == value
    assert T.eval(exp) == value


def test_printed_expressions_evaluate_like_python(xy):
    # The printed text must mean what the tree computes under Python's rules.
    x, y = xy
    namespace = {'a': 3, 'b': 1}
    a = T.Variable(3, 'a')
    b = T.Variable(1, 'b')
    for exp in (a - b - 1, a - (b - 1), -a ** 2, (-a) ** 2, a ** b ** 2, (a ** b) ** 2,
                a * (b + 1), a * b + 1, a // (b + 1) % 2, ~a & b, a | b ^ a & b,
                (a | b) ^ (a & b), a << b + 1, (a << b) + 1, 2 - -a, -(-a)):
        assert builtins_eval(str(exp), namespace) == exp.eval(), str(exp)


def builtins_eval(text, namespace):
    import builtins
    return builtins.eval(text, {}, dict(namespace))


def test_eval_passes_plain_values_through():
    obj = object()
    assert T.eval(obj) is obj
    assert T.eval(3) == 3
    assert T.eval((1, 2)) == (1, 2)


def test_variable_and_constant():
    v = T.Variable(5, 'n')
    assert (v.name, v.value, str(v), v.eval()) == ('n', 5, 'n', 5)
    c = T.Constant('f')
    # A literal prints as Python source; messages print plain operands bare.
    assert (c.value, str(c), c.eval()) == ('f', "'f'", 'f')
    assert isinstance(v == 5, T.Testable)
    assert isinstance(v + 1, T.BinaryOperator)
    assert isinstance(-v, T.UnaryOperator)
    assert isinstance(v.real, T.GetAttr)
    assert isinstance(v[0], T.GetItem)
    assert isinstance(v(), T.Call)


def test_node_classes_can_be_built_directly():
    import operator
    v = T.Variable(3, 'v')
    exp = T.BinaryOperator(6, v, T.Constant(2), '+', operator.add)
    assert (str(exp), exp.eval()) == ('v + 2', 5)
    neg = T.UnaryOperator(8, v, '-', operator.neg)
    assert (str(neg), neg.eval()) == ('-v', -3)
    assert T.GetItem(T.Constant((4, 5)), 1).eval() == 5
    assert T.GetAttr(T.Constant(1j), 'imag').eval() == 1.0
    assert T.Call(T.Constant(len), [T.Constant('ab')]).eval() == 2


def test_numpy_scalars_defer_to_expressions(xy):
    x, _ = xy
    exp = numpy.int64(3) == x.ndim
    assert isinstance(exp, T.Testable)
    assert str(exp) == 'in_types[0].ndim == 3'
    T.expect(exp)
    exp = numpy.int64(2) * x.ndim
    assert str(exp) == '2 * in_types[0].ndim'
    assert exp.eval() == 6


def test_private_attributes_are_not_expressions(xy):
    x, _ = xy
    with pytest.raises(AttributeError):
        x._secret
    with pytest.raises(AttributeError):
        x.__array_interface__
    # copy and deepcopy must not mistake expression attributes for protocol
    # hooks.
    assert str(copy.copy(x.shape)) == 'in_types[0].shape'
    copy.deepcopy(x.ndim + 1)


# ----------------------------------------------------------------------------
# get_types, TypeInfo, argname

def test_get_types():
    a = numpy.zeros((2, 3), numpy.float32)
    b = numpy.zeros((), numpy.int8)
    in_types = T.get_types((a, b), 'in_types', False)
    assert isinstance(in_types, T.TypeInfoTuple)
    assert isinstance(in_types, tuple)
    assert len(in_types) == 2
    assert in_types.name == 'in_types'
    x, y = in_types
    assert isinstance(x, T.Variable)
    assert x.name == 'in_types[0]'
    info = x.eval()
    assert isinstance(info, T.TypeInfo)
    assert (info.shape, info.dtype, info.ndim, info.size) == ((2, 3), numpy.float32, 2, 6)
    assert (y.eval().shape, y.eval().ndim, y.eval().size) == ((), 0, 1)
    size = in_types.size()
    assert isinstance(size, T.Variable)
    assert (str(size), size.eval()) == ('in_types.size', 2)


def test_get_types_uses_given_name_and_shapes():
    a = numpy.zeros((2, 3))
    out_types = T.get_types((a,), 'out_types', False, shapes=[(6,)])
    assert out_types[0].name == 'out_types[0]'
    assert out_types[0].shape.eval() == (6,)
    assert out_types.size().name == 'out_types.size'


def test_get_types_none():
    in_types = T.get_types((None, numpy.zeros(2)), 'grads', True)
    info = in_types[0].eval()
    assert info.dtype is None
    assert info.shape == ()
    # AttributeError, Chainer's (which reads None.dtype there)
    with pytest.raises(AttributeError, match="'NoneType' object has no attribute 'dtype'"):
        T.get_types((None,), 'in_types', False)


def test_get_types_rejects_non_arrays():
    with pytest.raises(TypeError):
        T.get_types(([1, 2],), 'in_types', False)


def test_get_types_accepts_numpy_scalars():
    info = T.get_types((numpy.float32(1),), 'in_types', False)[0].eval()
    assert (info.shape, info.dtype) == ((), numpy.float32)


def test_type_info_tuple_slices_keep_variables():
    in_types = _types(numpy.zeros(1), numpy.zeros(2), numpy.zeros(3))
    head = in_types[:2]
    assert all(isinstance(t, T.Variable) for t in head)
    T._argname(head, ('x', 'W'))
    assert [t.name for t in in_types] == ['x', 'W', 'in_types[2]']


def test_argname_renames_in_messages():
    in_types = _types(numpy.zeros((2, 3)), numpy.zeros((4, 5)))
    T.argname(in_types, ('x', 'W'))
    x_type, w_type = in_types
    with pytest.raises(T.InvalidType) as e:
        T.expect(x_type.shape[1] == w_type.shape[1])
    assert _message(e) == 'Expect: x.shape[1] == W.shape[1]\nActual: 3 != 5'


def test_argname_is_an_alias():
    assert T._argname is T.argname


def test_argname_counts_arguments():
    in_types = _types(numpy.zeros(1), numpy.zeros(2))
    with pytest.raises(T.InvalidType) as e:
        T._argname(in_types, ('x',))
    assert '1' in e.value.expect and 'x' in e.value.expect
    assert '2' in e.value.actual
    with pytest.raises(T.InvalidType):
        T._argname(T.get_light_types((numpy.zeros(1),)), ('x', 'W'))


def test_argname_ignores_plain_values():
    T._argname((numpy.zeros(1), 3), ('x', 'n'))


# ----------------------------------------------------------------------------
# Light mode

def test_get_light_types():
    a = numpy.zeros((2, 3))
    b = numpy.zeros(4)
    light = T.get_light_types((a, b))
    assert isinstance(light, T.LightTypeInfoTuple)
    assert isinstance(light, tuple)
    assert light[0] is a and light[1] is b
    assert light.size() == 2
    assert type(light.size()) is int
    T._argname(light, ('x', 'y'))
    assert light[0] is a


def test_light_mode_context():
    a = numpy.zeros(2)
    assert not T.in_light_mode()
    with T.light_mode:
        assert T.in_light_mode()
        with T.light_mode:
            assert T.in_light_mode()
        assert T.in_light_mode()
        in_types = T.get_types((a,), 'in_types', False)
        assert isinstance(in_types, T.LightTypeInfoTuple)
        assert T.make_variable(3, 'n') == 3
    assert not T.in_light_mode()
    assert isinstance(T.make_variable(3, 'n'), T.Variable)


def test_light_values_mixed_with_expressions():
    x, = T.get_light_types((numpy.zeros((2, 3)),))
    T.expect(x.shape == T.make_variable((2, 3), 'shape'))
    T.expect(x.shape[1] == T.make_variable(3, 'n'))
    with pytest.raises(T.InvalidType) as e:
        T.expect(x.shape == T.make_variable((3, 2), 'shape'))
    assert _message(e) == 'Expect: shape == (2, 3)\nActual: (3, 2) != (2, 3)'
    with pytest.raises(T.InvalidType) as e:
        T.expect(x.ndim + T.make_variable(1, 'k') == 4)
    assert (e.value.expect, e.value.actual) == ('2 + k == 4', '3 != 4')


def _check_linear(in_types):
    n_in = in_types.size()
    T.expect(2 <= n_in, n_in <= 3)
    x_type, w_type = in_types[:2]
    T._argname((x_type, w_type), ('x', 'W'))
    T.expect(
        x_type.dtype.kind == 'f',
        w_type.dtype.kind == 'f',
        x_type.ndim >= 2,
        w_type.ndim == 2,
        T.prod(x_type.shape[1:]) == w_type.shape[1],
    )
    if T.eval(n_in) == 3:
        b_type = in_types[2]
        T._argname((b_type,), ('b',))
        T.expect(b_type.dtype == x_type.dtype, b_type.ndim == 1,
                 b_type.shape[0] == w_type.shape[0])


def _check_same(in_types):
    T._argname(in_types, ('x0', 'x1'))
    x0, x1 = in_types
    T.expect(x0.dtype == x1.dtype, x0.shape == x1.shape)


def _check_relu(in_types):
    T._argname(in_types, ('x',))
    T.expect(in_types[0].dtype.kind == 'f')


def _check_matmul(in_types):
    T._argname(in_types, ('a', 'b'))
    a, b = in_types
    T.expect(a.dtype.kind == 'f', a.dtype == b.dtype, a.ndim == 2, b.ndim == 2,
             a.shape[-1] == b.shape[0])


def _check_broadcast(in_types):
    T.expect(in_types.size() >= 1)
    T.expect_broadcast_shapes(*[t.shape for t in in_types])


def _check_reshape(in_types):
    T._argname(in_types, ('x',))
    x, = in_types
    T.expect(x.size == T.make_variable(12, 'size'), x.shape[-1] % 2 == 0)


_f32 = numpy.float32
_CASES = [
    (_check_linear, [((3, 4), _f32), ((5, 4), _f32)]),
    (_check_linear, [((3, 2, 2), _f32), ((5, 4), _f32), ((5,), _f32)]),
    (_check_linear, [((3, 4), _f32), ((5, 4), _f32), ((4,), _f32)]),
    (_check_linear, [((3, 4), _f32), ((5, 4), _f32), ((5,), numpy.float64)]),
    (_check_linear, [((3, 4), _f32), ((5, 3), _f32)]),
    (_check_linear, [((3, 4), numpy.int32), ((5, 4), _f32)]),
    (_check_linear, [((3, 4), _f32)]),
    (_check_linear, [((4,), _f32), ((5, 4), _f32)]),
    (_check_same, [((2, 3), _f32), ((2, 3), _f32)]),
    (_check_same, [((2, 3), _f32), ((3, 2), _f32)]),
    (_check_same, [((2, 3), _f32), ((2, 3), numpy.float16)]),
    (_check_relu, [((2, 3), _f32)]),
    (_check_relu, [((), numpy.float16)]),
    (_check_relu, [((2, 3), numpy.int8)]),
    (_check_matmul, [((2, 3), _f32), ((3, 4), _f32)]),
    (_check_matmul, [((2, 3), _f32), ((4, 3), _f32)]),
    (_check_matmul, [((2, 3), _f32), ((3, 4), numpy.float64)]),
    (_check_broadcast, [((2, 1, 3), _f32), ((4, 1), _f32), ((), _f32)]),
    (_check_broadcast, [((2, 3), _f32), ((3, 2), _f32)]),
    (_check_reshape, [((3, 4), _f32)]),
    (_check_reshape, [((4, 3), _f32)]),
    (_check_reshape, [((2, 3), _f32)]),
]


def _outcome(check, in_types):
    try:
        check(in_types)
    except T.InvalidType:
        return False
    return True


@pytest.mark.parametrize('check, specs', _CASES)
def test_light_mode_agrees_with_full_mode(check, specs):
    arrays = tuple(numpy.zeros(shape, dtype) for shape, dtype in specs)
    full = _outcome(check, T.get_types(arrays, 'in_types', False))
    light = _outcome(check, T.get_light_types(arrays))
    assert full == light


def test_core_protocol_fast_path_then_full_message():
    # How FunctionNode.apply uses the module: the light check first, and the
    # full check (for the message) only when the light one raised.
    node = _Stub('ReLU')
    for arrays, ok in (((numpy.zeros(2, _f32),), True), ((numpy.zeros(2, numpy.int32),), False)):
        try:
            _check_relu(T.get_light_types(arrays))
        except Exception:
            in_types = T.get_types(arrays, 'in_types', False)
            with pytest.raises(T.InvalidType) as e:
                with T.get_function_check_context(node):
                    _check_relu(in_types)
            assert not ok
            assert _message(e).startswith('\nInvalid operation is performed in: ReLU (Forward)')
            assert _message(e).endswith('Expect: x.dtype.kind == f\nActual: i != f')
        else:
            assert ok


# ----------------------------------------------------------------------------
# same_types, prod, expect_broadcast_shapes

def test_same_types():
    a = numpy.zeros(2)
    assert T.same_types(a, a, numpy.zeros(3))
    assert T.same_types()

    class Other:
        pass
    assert T.same_types(Other(), Other())
    assert not T.same_types(a, Other())
    assert not T.same_types(Other(), a)


def test_prod():
    # A list gives an expression, as in Chainer; a plain shape tuple (what a
    # light check sees) gives its product at once.
    exp = T.prod([2, 3, 4])
    assert (str(exp), exp.eval()) == ('prod([2, 3, 4])', 24)
    assert str(T.prod([])) == 'prod([])'
    assert T.prod((2, 3, 4)) == 24
    assert T.prod(()) == 1
    x, = T.get_light_types((numpy.zeros((2, 3, 4)),))
    assert T.prod(x.shape[1:]) == 12
    with T.light_mode:
        assert T.prod([2, 3]) == 6
    n = T.Variable(3, 'n')
    assert str(T.prod((n, 2))) == 'prod((n, 2))'
    exp = T.prod(_types(numpy.zeros((2, 3, 4)))[0].shape)
    assert (str(exp), exp.eval()) == ('prod(in_types[0].shape)', 24)


@pytest.mark.parametrize('shapes', [
    [(2, 3), (2, 3)], [(2, 3), (3,)], [(2, 1), (1, 3)], [(4, 1, 3), (2, 1), ()], [(0, 3), (1,)],
    [(5,)], [],
])
def test_expect_broadcast_shapes_ok(shapes):
    T.expect_broadcast_shapes(*shapes)
    in_types = _types(*[numpy.zeros(s) for s in shapes])
    T.expect_broadcast_shapes(*[t.shape for t in in_types])


@pytest.mark.parametrize('shapes', [[(2, 3), (3, 2)], [(2,), (3,)], [(4, 1, 3), (2, 2)],
                                    [(0,), (2,)]])
def test_expect_broadcast_shapes_fail(shapes):
    with pytest.raises(T.InvalidType):
        T.expect_broadcast_shapes(*shapes)
    in_types = _types(*[numpy.zeros(s) for s in shapes])
    with pytest.raises(T.InvalidType) as e:
        T.expect_broadcast_shapes(*[t.shape for t in in_types])
    for i, s in enumerate(shapes):
        assert f'in_types[{i}].shape = {s}' in _message(e)


def test_expect_broadcast_shapes_allow_none():
    T.expect_broadcast_shapes((2, 3), None, (3,), allow_none=True)
    with pytest.raises(TypeError):
        T.expect_broadcast_shapes((2, 3), bad=True)


def test_expect_broadcast_shapes_in_context():
    with pytest.raises(T.InvalidType) as e:
        with T.get_function_check_context(_Stub('Add')):
            T.expect_broadcast_shapes((2,), (3,))
    assert 'Invalid operation is performed in: Add (Forward)' in _message(e)


# ----------------------------------------------------------------------------
# Printing: Chainer's priorities and text

def test_priorities_follow_chainers_numbers():
    x = T.Variable(1, 'x')
    assert (x == x).priority == -1
    assert [(x | x).priority, (x ^ x).priority, (x & x).priority, (x << x).priority,
            (x >> x).priority, (x + x).priority, (x - x).priority, (x * x).priority,
            (x / x).priority, (x // x).priority, (x % x).priority, (-x).priority,
            (+x).priority, (~x).priority, (x ** x).priority] == [
        0, 1, 2, 3, 3, 4, 4, 5, 5, 5, 5, 6, 6, 6, 7]
    for atom in (x, T.Constant(1), x.a, x[0], x()):
        assert isinstance(atom, T.Atom)
        assert atom.priority == 8


@pytest.mark.parametrize('build, text', [
    (lambda x, y: T.GetAttr(x, 'value'), 'x.value'),
    (lambda x, y: T.GetAttr(x, T.Constant('value')), 'x.value'),
    (lambda x, y: T.GetAttr(x, 3), 'getattr(x, 3)'),
    (lambda x, y: (x + y).real, '(x + y).real'),
    (lambda x, y: T.GetItem(y, 'a'), "y['a']"),
    (lambda x, y: x[1:2, ...], 'x[1:2, ...]'),
    (lambda x, y: x[::], 'x[:]'),
    (lambda x, y: x[None], 'x[None]'),
    (lambda x, y: x[(1,)], 'x[1,]'),
    (lambda x, y: x[()], 'x[()]'),
    (lambda x, y: x[numpy.int64(3)], 'x[3]'),
    (lambda x, y: (-x)[0], '(-x)[0]'),
    (lambda x, y: T.Call(x, (['', 1],)), "x(['', 1])"),
    (lambda x, y: T.Constant('a'), "'a'"),
    (lambda x, y: x == 'f', "x == 'f'"),
    (lambda x, y: x == [x, (y,), ()], 'x == [x, (y,), ()]'),
    (lambda x, y: x + numpy.float32(1.5), 'x + 1.5'),
    (lambda x, y: T.BinaryOperator(7, x, y, '+', None), 'x + y'),
    (lambda x, y: T.BinaryOperator(8, x, y, '+', None), 'x + (y)'),
    (lambda x, y: T.BinaryOperator(9, x, y, '+', None), '(x) + (y)'),
    (lambda x, y: T.BinaryOperator(8, x, y, '+', None, True), '(x) + y'),
    (lambda x, y: T.UnaryOperator(8, x, '-', None), '-x'),
    (lambda x, y: T.UnaryOperator(9, x, '-', None), '-(x)'),
    (lambda x, y: -(-x), '--x'),
    (lambda x, y: T.Constant(-1) ** x, '(-1) ** x'),
    (lambda x, y: x ** -1, 'x ** -1'),
    (lambda x, y: (x == y) == x, '(x == y) == x'),
])
def test_expression_text(build, text):
    assert str(build(T.Variable(1, 'x'), T.Variable({'a': 1}, 'y'))) == text


def test_repr_writes_python_source():
    c = T.Constant(0)
    assert T._repr([c]) == '[0]'
    assert T._repr([[c]]) == '[[0]]'
    assert T._repr(()) == '()'
    assert T._repr((c,)) == '(0,)'
    assert T._repr((c, 'a')) == "(0, 'a')"
    assert T._repr(numpy.float32) == "<class 'numpy.float32'>"
    assert T._repr(numpy.int64(2)) == '2'


def test_lists_and_tuples_of_expressions_evaluate():
    c = T.Constant
    assert (c([0]) == [c(0)]).eval()
    assert (c([[0]]) == [[c(0)]]).eval()
    assert (c((0,)) == (c(0),)).eval()
    assert not (c((0,)) == (c(1),)).eval()
    assert T.eval([c(1), (c(2), 3)]) == [1, (2, 3)]


def test_message_prints_plain_operands_bare_and_tuples_as_source():
    x, = _types(numpy.zeros((2, 3), numpy.float32))
    with pytest.raises(T.InvalidType) as e:
        T.expect(x.shape == (x.shape[0], 2 * 3))
    assert (e.value.expect, e.value.actual) == (
        'in_types[0].shape == (in_types[0].shape[0], 6)', '(2, 3) != (2, 6)')
    with pytest.raises(T.InvalidType) as e:
        T.expect(x.shape[0] == numpy.int64(5))
    assert (e.value.expect, e.value.actual) == ('in_types[0].shape[0] == 5', '2 != 5')


def test_get_types_takes_only_tuples():
    # AssertionError, as in Chainer.
    for data in (1, [numpy.zeros(1)]):
        with pytest.raises(AssertionError):
            T.get_types(data, 'in_types', False)
        with pytest.raises(AssertionError):
            T.get_light_types(data)


def test_get_light_types_with_shapes():
    a = numpy.zeros((2, 3), numpy.float32)
    t, = T.get_light_types((a,), shapes=[(6,)])
    assert isinstance(t, T.TypeInfo)
    assert (t.shape, t.dtype, t.ndim, t.size) == ((6,), numpy.float32, 1, 6)


def _random_tree(rng, leaves, depth):
    if depth == 0 or rng.random() < 0.2:
        return leaves[rng.integers(len(leaves))]
    kind = rng.integers(4)
    if kind == 0:
        op = ['-', '+', '~'][rng.integers(3)]
        term = _random_tree(rng, leaves, depth - 1)
        return {'-': lambda v: -v, '+': lambda v: +v, '~': lambda v: ~v}[op](term)
    ops = [lambda a, b: a + b, lambda a, b: a - b, lambda a, b: a * b,
           lambda a, b: a // b, lambda a, b: a % b, lambda a, b: a << b,
           lambda a, b: a >> b, lambda a, b: a & b, lambda a, b: a | b,
           lambda a, b: a ^ b, lambda a, b: a ** b]
    op = ops[rng.integers(len(ops))]
    return op(_random_tree(rng, leaves, depth - 1), _random_tree(rng, leaves, depth - 1))


def test_printed_text_of_random_trees_means_the_same_in_python():
    # The parenthesization rule must be general: whatever tree the operators
    # build, Python reads its text back as the same computation.
    import builtins
    rng = numpy.random.default_rng(0)
    a, b = T.Variable(3, 'a'), T.Variable(2, 'b')
    leaves = [a, b, T.Constant(-1), T.Constant(2), -a]
    checked = 0
    for _ in range(3000):
        exp = _random_tree(rng, leaves, 4)
        if not isinstance(exp, T.Expr):
            continue
        try:
            value = exp.eval()
        except (ZeroDivisionError, ValueError, OverflowError, TypeError):
            continue
        if isinstance(value, float) or abs(value) > 10 ** 30:
            continue
        assert builtins.eval(str(exp), {}, {'a': 3, 'b': 2}) == value, str(exp)
        checked += 1
    assert checked > 500
