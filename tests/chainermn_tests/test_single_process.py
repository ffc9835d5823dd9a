"""chainermn in one process (no mpiexec): imports, argument checks, pure helpers, the abort hook.

The last tests start ``mpiexec`` themselves (when mpi4py and an mpiexec are installed) to check
that a rank dying of an exception ends the whole job.
"""
import json
import os
import pathlib
import subprocess
import sys
import textwrap
import time

import numpy
import pytest

import chainermn
from chainermn.datasets import scatter
from chainermn_tests import _launch

FIXTURES = pathlib.Path(__file__).resolve().parent.parent / 'fixtures'


def _python(code, env=None, timeout=120):
    """Runs ``code`` in a fresh interpreter with ``env`` (default: this one's)."""
    env = dict(os.environ if env is None else env)
    env['PYTHONPATH'] = _launch.SRC + os.pathsep + env.get('PYTHONPATH', '')
    return subprocess.run([sys.executable, '-c', textwrap.dedent(code)], capture_output=True,
                          text=True, env=env, timeout=timeout)


def test_import_works_without_mpi4py_and_creating_a_communicator_names_the_extra():
    proc = _python('''
        import sys
        sys.modules['mpi4py'] = None  # as if it were not installed
        import chainermn, chainermn.datasets, chainermn.optimizers, chainermn.testing
        try:
            chainermn.create_communicator('naive')
        except ImportError as e:
            print('ImportError:', e)
    ''')
    assert proc.returncode == 0, proc.stderr
    assert 'ImportError:' in proc.stdout and "rechainer[mpi]" in proc.stdout


def test_import_chainermn_loads_neither_mpi4py_nor_cupy():
    proc = _python('''
        import sys, chainermn
        print(sorted(m for m in sys.modules if m.split('.')[0] in ('mpi4py', 'cupy')))
    ''')
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == '[]'


BAD_ARGUMENTS = [
    (dict(communicator_name='naive', allreduce_grad_dtype=numpy.float16), ValueError,
     'pure_nccl'),
    (dict(communicator_name='flat', allreduce_grad_dtype=numpy.float32), ValueError,
     'pure_nccl'),
    (dict(communicator_name='hierarchical'), ValueError, 'Unrecognized communicator'),
    (dict(communicator_name='naive', foo=1), TypeError, "unexpected keyword argument"),
]


@pytest.mark.parametrize('kwargs,error,match', BAD_ARGUMENTS)
def test_create_communicator_refuses_bad_arguments_before_any_mpi(kwargs, error, match):
    with pytest.raises(error, match=match):
        chainermn.create_communicator(mpi_comm=object(), **kwargs)


def test_pure_nccl_without_nccl_says_what_is_missing():
    from chainermn import nccl
    if nccl._available:
        pytest.skip('CuPy with NCCL is installed here')
    assert nccl.get_build_version() == 0
    with pytest.raises(RuntimeError, match='NCCL') as e:
        chainermn.create_communicator('pure_nccl', mpi_comm=object())
    assert 'CuPy' in str(e.value)
    with pytest.raises(AttributeError, match='not available'):
        nccl.NcclCommunicator


def test_scatter_index_ranges_are_chainermn_s():
    recorded = json.loads((FIXTURES / 'chainermn_scatter.json').read_text())
    rows = [k for k in recorded if k.endswith('/index')]
    assert rows
    for key in rows:
        size, n, fel, _ = key.split('/')
        got = [[b, e] for _, b, e in scatter._scatter_index(int(n), int(size), fel == '1')]
        assert got == recorded[key], key


@pytest.mark.parametrize('size', [1, 2, 3, 4, 7])
@pytest.mark.parametrize('force_equal_length', [True, False])
def test_scatter_index_covers_everything(size, force_equal_length):
    for n in range(0, 40):
        ranges = [(b, e) for _, b, e in scatter._scatter_index(n, size, force_equal_length)]
        covered = set().union(*(range(b, e) for b, e in ranges))
        assert covered == set(range(n))
        lengths = {e - b for b, e in ranges}
        if force_equal_length:
            assert lengths == {-(-n // size)}
        else:
            assert sum(lengths) <= 2 * n + 1 and max(lengths) - min(lengths) <= 1


def test_create_empty_dataset():
    from chainermn.datasets import create_empty_dataset
    for d in ([], [0], list(range(49)), numpy.arange(10), 'abc'):
        assert create_empty_dataset(d) == [()] * len(d)


def test_testing_get_device():
    from chainermn.testing import get_device
    assert get_device().name == '@numpy'
    with pytest.raises(RuntimeError):
        get_device(use_chainerx=True)  # ChainerX is not available in rechainer


def test_deprecated_epoch_helpers():
    class OneProcess:
        size = 1

        def allreduce_obj(self, obj):
            return obj

    with pytest.warns(DeprecationWarning):
        assert scatter.get_n_iterations_for_one_epoch(list(range(10)), 4, OneProcess()) == 3
    with pytest.warns(DeprecationWarning):
        assert scatter.get_epoch_trigger(2, list(range(10)), 4, OneProcess()) == (6,
                                                                                  'iteration')


REPLICA_SETS = [
    # (replica_sets, size, expected groups)
    ([], 3, [{0, 1, 2}]),
    ([2], 3, [{2}, {0, 1}]),
    ([0, 1], 3, [{0}, {1}, {2}]),
    ([[0, 2]], 4, [{0, 2}, {1, 3}]),
    ([range(1, 6, 2), {0}], 6, [{1, 3, 5}, {0}, {2, 4}]),
    ([[0, 1], [2, 3]], 4, [{0, 1}, {2, 3}]),
    ([numpy.int64(1)], 2, [{1}, {0}]),
]


@pytest.mark.parametrize('replica_sets,size,expected', REPLICA_SETS)
def test_replica_sets(replica_sets, size, expected):
    from chainermn.extensions._multi_node_snapshot import _parse_replica_sets
    assert _parse_replica_sets(replica_sets, size) == expected


@pytest.mark.parametrize('replica_sets,error,match', [
    ([4], ValueError, r'outside \[0, 4\)'),
    ([-1], ValueError, 'outside'),
    ([[0, 1], [1, 2]], ValueError, 'more than one set'),
    ([0, 0], ValueError, 'more than one set'),
    (['a'], TypeError, 'ranks'),
    ([[0.5]], TypeError, 'ranks'),
])
def test_bad_replica_sets(replica_sets, error, match):
    from chainermn.extensions._multi_node_snapshot import _parse_replica_sets
    with pytest.raises(error, match=match):
        _parse_replica_sets(replica_sets, 4)


@pytest.mark.parametrize('flags', [(True, False, True, False, 0), (False, True, False, True, 7),
                                   (False, True, True, True, 2 ** 40)])
def test_multi_node_iterator_control_messages_round_trip(flags):
    from chainermn.iterators import multi_node_iterator as mni
    assert mni._parse_ctrl_msg(mni._build_ctrl_msg(*flags)) == flags


@pytest.mark.parametrize('element,valid', [
    (numpy.float32(1), True), (numpy.ones(2), True), (numpy.int8(3), True),
    (numpy.bool_(True), True), (1, False), (1.0, False), ('a', False), (None, False),
    ((1, 2), False), ({'a': 1}, False), ([numpy.ones(1)], False)])
def test_multi_node_iterator_element_types(element, valid):
    from chainermn.iterators import multi_node_iterator as mni
    assert mni._is_valid_type(element) == valid


def test_create_multi_node_n_step_rnn_needs_an_n_step_rnn():
    import chainer.links as L

    class OneOfTwo:
        rank, size = 0, 2

    with pytest.raises(TypeError, match='n-step RNN'):
        chainermn.links.create_multi_node_n_step_rnn(L.Linear(2), OneOfTwo())
    with pytest.raises(ValueError, match='own rank'):
        chainermn.links.create_multi_node_n_step_rnn(L.NStepLSTM(1, 2, 2, 0.), OneOfTwo(),
                                                     rank_in=0)


@pytest.mark.parametrize('value,installed', [('1', True), ('0', True), (None, False)])
def test_abort_hook_is_installed_by_the_environment_variable(value, installed):
    # As in ChainerMN, the variable's presence counts, whatever its value.
    env = {k: v for k, v in os.environ.items() if k != 'CHAINERMN_FORCE_ABORT_ON_EXCEPTION'}
    if value is not None:
        env['CHAINERMN_FORCE_ABORT_ON_EXCEPTION'] = value
    proc = _python('''
        import sys
        before = sys.excepthook
        import chainermn
        print(sys.excepthook is not before)
    ''', env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == str(installed)


ABORT_SCRIPT = '''
import time
import numpy
import chainermn

comm = chainermn.create_communicator('naive')
if comm.rank == comm.size - 1:
    time.sleep(0.5)
    raise ValueError('rank %d gives up' % comm.rank)
comm.allreduce(numpy.ones(3))  # waits for the rank that died
print('unreachable')
'''


@pytest.mark.parametrize('n', [2, 3])
def test_with_the_abort_hook_a_failing_rank_ends_every_rank(n, tmp_path):
    mpiexec = _launch.mpiexec()
    script = tmp_path / 'abort.py'
    script.write_text(ABORT_SCRIPT)
    env = _launch.env(CHAINERMN_FORCE_ABORT_ON_EXCEPTION='1')
    start = time.monotonic()
    try:
        proc = subprocess.run([mpiexec, '-n', str(n), sys.executable, str(script)],
                              capture_output=True, text=True, env=env, timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail(f'the job of {n} ranks was still running after 60 s')
    elapsed = time.monotonic() - start
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0
    assert elapsed < 30, f'{elapsed:.1f} s'
    assert f'ValueError: rank {n - 1} gives up' in out
    assert f'Uncaught exception on rank {n - 1}' in out
    assert 'unreachable' not in out
