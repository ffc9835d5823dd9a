"""chainermn's names and signatures against ChainerMN 7.8.1's (tests/fixtures/chainermn_api.json).

The fixture is recorded from the original by tests/fixtures/make_chainermn_fixtures.py. A
difference fails unless docs/differences.md lists its key (``name:<module>.<name>`` or
``signature:<module>.<name>[.<member>]``). Runs in one process, without MPI.
"""
import importlib
import inspect
import json
import pathlib
import re

import pytest

import _differences

API = json.loads((pathlib.Path(__file__).resolve().parent.parent / 'fixtures' /
                  'chainermn_api.json').read_text())

# Every module of ChainerMN 7.8.1 (part 1: communicators, datasets, optimizers, testing, the
# abort hook; part 2: functions, links, iterators, extensions).
BUILT = tuple(sorted(API))

# Names of built modules that are not there yet.
PENDING = {}

# Private modules: only the names that ChainerMN's tests and users import are compared.
PRIVATE_NAMES = {
    'chainermn.extensions._multi_node_snapshot': {'multi_node_snapshot',
                                                  '_parse_replica_sets'},
    'chainermn.iterators.multi_node_iterator': {'create_multi_node_iterator',
                                                '_build_ctrl_msg', '_parse_ctrl_msg'},
    'chainermn.communicators._communication_utility': {
        'INT_MAX', 'chunked_bcast_obj', 'init_ranks', 'init_intra_mpi_comm',
        'init_inter_mpi_comm', 'init_nccl_comm', '_get_nccl_type_id'},
    'chainermn.communicators._memory_utility': {
        'extract_params_set_data', 'extract_params_set_grad', 'count_grad_elements',
        'pack_params', 'unpack_params'},
}


# Not API: `from __future__ import division` leaves the name `division` in a module.
IGNORED = {'chainermn.extensions.observation_aggregator.division'}


def _public(module_name, name):
    if f'{module_name}.{name}' in IGNORED:
        return False
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
        # Default values print with their address (``<... object at 0x7f...>``).
        return re.sub(r' at 0x[0-9a-f]+>', '>', str(inspect.signature(obj)))
    except (TypeError, ValueError):
        return None


def _recorded(spec):
    recorded = spec['signature']
    return None if recorded is None else re.sub(r' at 0x[0-9a-f]+>', '>', recorded)


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
        if _signature(value) != _recorded(entry):
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
            elif _signature(getattr(value, member)) != _recorded(spec):
                assert _differences.expected(f'signature:{mkey}'), (
                    f'{mkey}{_signature(getattr(value, member))} != 7.8.1: '
                    f'{mkey}{spec["signature"]}')


def test_the_table_covers_the_built_modules():
    # A module listed as built must be in the fixture, and the table must not be empty.
    assert set(BUILT) <= set(API)
    assert len(ROWS) > 50
