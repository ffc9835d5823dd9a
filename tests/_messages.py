"""The comparison of rechainer's exceptions with Chainer 7.8.1's recorded ones.

Shared by ``tests/differential/test_messages.py`` (the same type and the original's words, for
every recorded case) and ``tests/differential/test_bad_calls.py`` (the calls that must fail, and
whether each error names the function); the rules are described in test_messages.py's
docstring.
"""
import functools
import gzip
import json
import os
import re

import _differences
import _grids
from fixtures.reference import _calls

DATA = os.path.join(os.path.dirname(__file__), 'fixtures', 'reference', 'messages.json.gz')

_SPACE = re.compile(r'\s+')
# The exceptions with which rechainer refuses a bad argument itself (see the entry
# ``message:chainer:accidental-errors`` of docs/differences.md).
CLEAR_REFUSALS = frozenset((
    'TypeError', 'ValueError', 'IndexError', 'RuntimeError', 'KeyError', 'AttributeError',
    'chainer.utils.type_check.InvalidType'))
# Messages that Python or NumPy wrote when the original tripped over a wrong kind of object
# (``None.dtype``, ``len(None)``, an index out of a shape tuple...): they say where the original's
# code happened to fail, not something Chainer says, so only their type is compared.
_INTERPRETER = re.compile('|'.join((
    r"^'[\w.]+' object has no attribute '\w+'$",
    r"^'[\w.]+' object is not (subscriptable|iterable|callable)$",
    r"^object of type '\w+' has no len\(\)$",
    r"^unsupported operand type\(s\) for .*$",
    r"^'[<>=!]+' not supported between instances of .*$",
    r"^(tuple|list) index out of range$",
    r"^axis -?\d+ is out of bounds for array of dimension \d+$",
    r"^must be real number, not \w+$",
    r"^operands could not be broadcast together with (remapped )?shapes .*$",
    r"^could not broadcast input array from shape .*$",
    r"^.* argument after \* must be an iterable, not \w+$",
    r"^cannot reshape array of size \d+ into shape .*$",
    r"^too many indices for array.*$",
    r"^index -?\d+ is out of bounds for axis \d+ with size \d+$",
    # NumPy's own words
    r"^(too many|not enough) values to unpack .*$",
    r"^cannot unpack non-iterable \w+ object$",
    r"^ufunc '\w+' not supported for the input types.*$",
    r"^'minlength' must not be negative$",
    r"^axes don't match array$",
    r"^Last 2 dimensions of the array must be square$",
    r"^matmul: Input operand \d+ has a mismatch in its core dimension .*$",
    r"^\w+: axis -?\d+ is out of bounds for array of dimension \d+$",
    r"^shape mismatch$",
    r"^operand has more dimensions than subscripts given in einstein sum.*$",
    r"^arrays used as indices must be of integer \(or boolean\) type$",
    # Chainer 7.8.1's type check failing on its own expression (a bug of the original)
    r"^An Expr instance cannot be evaluated as bool\..*$",
    # an ``assert`` of the original's code (no words at all)
    r"^$",
    # h5py's own words (they vary between h5py versions)
    r'^"?Unable to (synchronously )?open object .*$',
    r"^Can't broadcast .* -> .*$",
)))
_NP_SCALAR = re.compile(r'np\.(?:float|int|uint|bool|complex|str)\w*\((.*?)\)')
_ADDRESS = re.compile(r' at 0x[0-9a-fA-F]+')


def normalise(message, tmp=None, etype=None):
    """A message as the containment test reads it (see the module docstring)."""
    if etype == 'KeyError' and len(message) >= 2 and message[0] == message[-1] \
            and message[0] in '\'"':
        message = message[1:-1]     # str(KeyError(m)) is repr(m)
    if tmp:
        message = message.replace(tmp, '<tmp>')
    message = _NP_SCALAR.sub(r'\1', message)
    message = message.replace("<class 'numpy.bool_'>", "<class 'numpy.bool'>")
    message = _ADDRESS.sub('', message)
    return _SPACE.sub(' ', message).strip()


@functools.lru_cache(maxsize=None)
def data():
    with gzip.open(DATA, 'rt', encoding='utf-8') as f:
        return json.load(f)


def _type_names(exc):
    return {_calls.exception_name_of_type(k) for k in type(exc).__mro__}


def compare(recorded, got, tmp=None):
    """What differs between the original's outcome and ours: ``None``, or ``(kind, text)``
    with ``kind`` ``'words'`` (same type, the message lacks the original's words),
    ``'outcome'`` (another exception type, or other results), ``'refuses'`` (we raise where the
    original returns) or ``'accepts'`` (we return where the original raises)."""
    if 'original_broken' in recorded:
        return None
    if _grids.crashed(recorded.get('error')) and \
            _differences.expected('function:chainer.functions:crash') and \
            ('ok' in got or got['error'][0] in CLEAR_REFUSALS):
        # the original failed inside (a size-0 batch it divides by...): rechainer computes the
        # result, or refuses the input clearly
        return None
    if 'ok' in recorded:
        if 'error' in got:
            return 'refuses', f'raises {got["error"][0]}: {got["error"][1]!r}; the original returns'
        if got['ok'] != recorded['ok']:
            return 'outcome', f'returns {got["ok"]}, the original {recorded["ok"]}'
        return None
    etype, emsg = recorded['error']
    if 'ok' in got:
        return 'accepts', f'returns {got["ok"]}; the original raises {etype}: {emsg!r}'
    want = normalise(emsg, tmp, etype)
    accident = _INTERPRETER.match(want)
    if etype not in got['types']:
        if accident and got['error'][0] in CLEAR_REFUSALS and \
                _differences.expected('message:chainer:accidental-errors'):
            return None
        return 'outcome', (f'raises {got["error"][0]}: {got["error"][1]!r}; the original '
                           f'{etype}: {emsg!r}')
    if accident:
        return None
    if want not in normalise(got['error'][1], tmp, got['error'][0]):
        return 'words', f'message {got["error"][1]!r} lacks the original\'s {emsg!r}'
    return None


def expected(name, case, kind):
    """Whether a difference of ``kind`` is listed: ``message:<name>`` (a function whose words
    differ: its exception types must still be Chainer's), ``message:<name>:<case>`` (anything
    about that case), or a function's listed behaviour: ``function:<name>:accepts`` (it takes
    inputs the original refuses), ``function:<name>:refuses`` (the reverse), or
    ``function:<name>:label-range`` (it refuses the labels out of range of the cases
    ``<i>:range+``/``<i>:range-``)."""
    return ((kind == 'words' and _differences.expected(f'message:{name}'))
            or _differences.expected(f'message:{name}:{case}')
            or (kind == 'refuses' and case.endswith((':range+', ':range-'))
                and _differences.expected(f'function:{name}:label-range'))
            or (kind in ('accepts', 'refuses')
                and _differences.expected(f'function:{name}:{kind}')))
