"""chainermn's names and signatures against ChainerMN 7.8.1's (tests/fixtures/chainermn_api.json).

The fixture is recorded from the original by tests/fixtures/make_chainermn_fixtures.py. A
difference fails unless docs/differences.md lists its key (``name:<module>.<name>`` or
``signature:<module>.<name>[.<member>]``). Runs in one process, without MPI.
"""
import importlib
import inspect
import json
import pathlib

import pytest

import _differences

API = json.loads((pathlib.Path(__file__).resolve().parent.parent / 'fixtures' /
                  'chainermn_api.json').read_text())

# Modules built so far (part 1: communicators, datasets, optimizers, testing, the abort hook).
BUILT = (
    'chainermn',
    'chainermn.communicators',
    'chainermn.communicators.communicator_base',
    'chainermn.communicators.mpi_communicator_base',
    'chainermn.communicators.naive_communicator',
    'chainermn.communicators.flat_communicator',
    'chainermn.communicators.non_cuda_aware_communicator',
    'chainermn.communicators.pure_nccl_communicator',
    'chainermn.communicators.dummy_communicator',
    'chainermn.communicators._communication_utility',
    'chainermn.communicators._memory_utility',
    'chainermn.datasets',
    'chainermn.datasets.empty_dataset',
    'chainermn.datasets.scatter',
    'chainermn.extensions.multi_node_evaluator',
    'chainermn.global_except_hook',
    'chainermn.nccl',
    'chainermn.optimizers',
    'chainermn.testing',
    'chainermn.testing.device',
)

# Names of built modules that arrive with part 2 (model parallelism, iterators, extensions).
PENDING = {
    'chainermn': {'MultiNodeChainList', 'create_multi_node_checkpointer', 'functions',
                  'iterators', 'links'},
    'chainermn.extensions.multi_node_evaluator': {'GenericMultiNodeEvaluator'},
}

# Private modules: only the names that ChainerMN's tests and users import are compared.
PRIVATE_NAMES = {
    'chainermn.communicators._communication_utility': {
        'INT_MAX', 'chunked_bcast_obj', 'init_ranks', 'init_intra_mpi_comm',
        'init_inter_mpi_comm', 'init_nccl_comm', '_get_nccl_type_id'},
    'chainermn.communicators._memory_utility': {
        'extract_params_set_data', 'extract_params_set_grad', 'count_grad_elements',
        'pack_params', 'unpack_params'},
}


def _public(module_name, name):
    if module_name in PRIVATE_NAMES:
        return name in PRIVATE_NAMES[module_name]
    return not name.startswith('_')


def _rows():
    for module_name in BUILT:
        for name, entry in sorted(API[module_name].items()):
            if _public(module_name, name) and name not in PENDING.get(module_name, ()):
                yield module_name, name, entry


ROWS = list(_rows())


def _signature(obj):
    try:
        return str(inspect.signature(obj))
    except (TypeError, ValueError):
        return None


@pytest.mark.parametrize('module_name,name,entry', ROWS,
                         ids=[f'{m}.{n}' for m, n, _ in ROWS])
def test_name_and_signature(module_name, name, entry):
    key = f'{module_name}.{name}'
    module = importlib.import_module(module_name)
    if entry['kind'] == 'module':
        importlib.import_module(entry['target'])  # reachable by its path
        return
    if not hasattr(module, name):
        assert _differences.expected(f'name:{key}'), f'{key} is missing'
        return
    value = getattr(module, name)
    if entry['kind'] in ('class', 'function'):
        assert (inspect.isclass(value) if entry['kind'] == 'class' else callable(value)), key
        if _signature(value) != entry['signature']:
            assert _differences.expected(f'signature:{key}'), (
                f'{key}{_signature(value)} != 7.8.1: {key}{entry["signature"]}')
    if entry['kind'] == 'class':
        for member, spec in sorted(entry['members'].items()):
            if member.startswith('_') and member != '__init__':
                continue
            mkey = f'{key}.{member}'
            found = inspect.getattr_static(value, member, None)
            if found is None:
                assert _differences.expected(f'name:{mkey}'), f'{mkey} is missing'
                continue
            if spec['kind'] == 'property':
                assert isinstance(found, property), f'{mkey} is not a property'
            elif _signature(getattr(value, member)) != spec['signature']:
                assert _differences.expected(f'signature:{mkey}'), (
                    f'{mkey}{_signature(getattr(value, member))} != 7.8.1: '
                    f'{mkey}{spec["signature"]}')


def test_the_table_covers_the_built_modules():
    # A module listed as built must be in the fixture, and the table must not be empty.
    assert set(BUILT) <= set(API)
    assert len(ROWS) > 50
